import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, sale } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { xmllint } from './support/xml-tools.js';

// through the API and the simulated authorities (docs/fiscal/exports-and-delivery.md): an NF-e
// export, an NFC-e home delivery and an NFS-e export were authorized without exporta, a carrier and
// comExt. Now the gateway answers 422 naming the field and the rule, and with the new fields the note is
// authorized with the group written.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
let nfseIssuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
  nfseIssuerId = await nfseIssuer(t, auth);
});
afterAll(async () => t.runtime.close());

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: auth, payload });
const detailsOf = (body: { details?: Array<{ field: string; rule?: string }> }) => (body.details ?? []).map((d) => ({ field: d.field, rule: d.rule }));

/** The issue's case: recipient in Argentina (BACEN 0639), CFOP 7101; the issuer is in the Simples Nacional (CSOSN 300). */
const exportInvoice = (extra: Record<string, unknown> = {}) =>
  invoice(issuerId, {
    destinatario: {
      id_estrangeiro: 'AR30712345678', name: 'Importadora del Sur SA', indicador_ie: 'nao_contribuinte',
      address: { street: 'Avenida Corrientes', number: '1234', district: 'San Nicolas', city: 'Buenos Aires', country_code: '639', country: 'Argentina' },
    },
    items: [{ description: 'Motor eletrico', quantity: 2, unit_price: 1500, ncm: '85015210', cfop: '7101', unit: 'UN', cst_icms: '300' }],
    payment: { method: 'boleto', amount: 3000 },
    ...extra,
  });

describe('NF-e export: exporta', () => {
  it('refuses an export without it: 422 naming export and MOC ZA01-10', async () => {
    const res = await post('/v1/nfe', exportInvoice());
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toEqual([{ field: 'export', rule: 'ZA01-10' }]);
  });

  it('authorizes it with export; the nfeProc carries exporta and passes the XSD', async () => {
    const { note } = await emitNfeSettled(t, auth, exportInvoice({ export: { shipment_uf: 'SP', shipment_place: 'Porto de Santos', dispatch_place: 'Recinto Alfandegado Santos' } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<exporta><UFSaidaPais>SP</UFSaidaPais><xLocExporta>Porto de Santos</xLocExporta><xLocDespacho>Recinto Alfandegado Santos</xLocDespacho></exporta>');
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
  });
});

const homeDelivery = (extra: Record<string, unknown> = {}) =>
  sale(issuerId, {
    home_delivery: true,
    consumer: { cpf: '52998224725', name: 'Maria Souza', address: { street: 'Rua B', number: '10', district: 'Se', city_code: '3550308', city: 'Sao Paulo', uf: 'SP', cep: '01001000' } },
    ...extra,
  });

describe('NFC-e home delivery: the carrier', () => {
  it('refuses a home delivery without a carrier: 422 naming transporte.transportadora and MOC X03-20', async () => {
    const res = await post('/v1/nfce', homeDelivery());
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toEqual([{ field: 'transporte.transportadora', rule: 'X03-20' }]);
  });

  it('authorizes it with transporte; the nfeProc carries modFrete and transporta and passes the XSD', async () => {
    const { note } = await emitSettled(t, auth, homeDelivery({ transporte: { modalidade: 'emitente', transportadora: { cnpj: '10422724000187', name: 'Entregas Rapidas Ltda', ie: 'ISENTO', uf: 'SP' } } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<transp><modFrete>0</modFrete><transporta><CNPJ>10422724000187</CNPJ><xNome>Entregas Rapidas Ltda</xNome><IE>ISENTO</IE><UF>SP</UF></transporta></transp>');
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
  });
});

const serviceExport = (extra: Record<string, unknown> = {}) =>
  serviceInvoice(nfseIssuerId, {
    tomador: { nif: 'US-123456789', name: 'ACME Inc.', address: { street: 'Main Street', number: '1', district: 'Downtown', country_code: 'US', postal_code: '10001', city: 'New York', state_region: 'NY' } },
    values: { service_amount: 1500, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido', taxation: 'exportacao', export_country: 'US' } },
    ...extra,
  });

describe('NFS-e export: comExt', () => {
  it('refuses an export of services without it: 422 naming service.foreign_trade and E0330', async () => {
    const res = await post('/v1/nfse', serviceExport());
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toEqual([{ field: 'service.foreign_trade', rule: 'E0330' }]);
  });

  it('authorizes it with foreign_trade; the NFS-e has comExt in its DPS, no cLocIncid and only vLiq in valores (E1301, E1303)', async () => {
    const base = serviceExport();
    const payload = {
      ...base,
      service: { ...base.service, foreign_trade: { provision_mode: 'transfronteirico', relationship: 'sem_vinculo', currency: '220', foreign_amount: 300, provider_support: '01', taker_support: '01', temporary_goods: 'nao' } },
    };
    const { note } = await issueNfseSettled(t, auth, payload);
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfse/${note.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<comExt><mdPrestacao>1</mdPrestacao>');
    expect(xml).not.toContain('<cLocIncid>');
    expect(/<\/emit><valores>(.*?)<\/valores>/.exec(xml)?.[1]).toBe('<vLiq>1500.00</vLiq>');
    expect(await xmllint(xml, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
  });
});
