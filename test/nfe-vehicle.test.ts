import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp, readyIssuer } from './support/nfce-flow.js';
import { detailsOf, emitNfeSettled, invoice } from './support/nfe-flow.js';
import { run } from './support/pdf-tools.js';
import { VEHICLE, veicProdXml } from './support/vehicle-fixture.js';
import { tempFile, xmllint, xmlsecVerify } from './support/xml-tools.js';

// items[].vehicle: prod/veicProd, the new vehicle a dealer sells (docs/fiscal/vehicles-and-foreign-trade.md).
// The sale: a dealer in SP sells a car to a person in MG (Convênio ICMS 51/00), CST 10 in ICMSPart. To a
// non-taxpayer a CST outside 00, 20, 40, 41, 60 is refused (MOC N12-70, 508) unless the note has a new vehicle's
// group (exception 3): the same sale without the vehicle is refused, with it authorized.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth } = await emittingApp());
  issuerId = await readyIssuer(t, auth, { regime_tributario: 'normal' });
});
afterAll(async () => t.runtime.close());

const post = (path: string, payload: object, lang?: string) => t.app.inject({ method: 'POST', url: path, headers: { ...auth, ...(lang ? { 'accept-language': lang } : {}) }, payload });

// vICMS = 36064.00 * 12 % = 4327.68; vICMSST = 43936.00 * 12 % - 4327.68 = 944.64; vFCPST = 43936.00 * 2 % = 878.72;
// vNF = vProd + vST + vFCPST = 80000.00 + 944.64 + 878.72 = 81823.36 (MOC W16-10).
const carSale = (item: Record<string, unknown> = {}) =>
  invoice(issuerId, {
    presenca: 'presencial',
    consumidor_final: true,
    destinatario: {
      cpf: '52998224725', name: 'Maria da Silva', indicador_ie: 'nao_contribuinte',
      address: { street: 'Av. Central', number: '10', district: 'Centro', city_code: '3106200', city: 'Belo Horizonte', uf: 'MG', cep: '30110000' },
    },
    items: [
      {
        description: 'Automovel 1.0 flex', quantity: 1, unit_price: 80_000, ncm: '87032100', cfop: '6403', unit: 'UN', cst_icms: '10', pICMS: 12, vBC: 36_064,
        cest: '0103900', st: { rate: 12, modality: 0, base: 43_936, fcp_rate: 2 }, icms_partilha: { operation_base_share: 45.08, uf_st: 'MG' }, ...item,
      },
    ],
    payment: { method: 'boleto', amount: 81_823.36 },
  });

describe('NF-e of a new vehicle (veicProd)', () => {
  it('refuses CST 10 to a non-taxpayer without the vehicle group (MOC N12-70, 508)', async () => {
    const res = await post('/v1/nfe', carSale());
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toEqual([{ field: 'items[0].cst_icms', rule: 'N12-70' }]);
  });

  it('authorizes it with items[].vehicle: veicProd in the XSD order, the nfeProc valid and signed, the DANFE prints the chassis', async () => {
    const { note } = await emitNfeSettled(t, auth, carSale({ vehicle: VEHICLE }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/xml`, headers: auth })).body;
    // veicProd closes prod, after indTot (the closing choice of prod in leiauteNFe_v4.00.xsd).
    expect(xml).toContain(`<indTot>1</indTot>${veicProdXml('1')}</prod>`);
    expect(xml).toContain('<vNF>81823.36</vNF>');
    expect(await xmllint(xml, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
    const pdf = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/danfe.pdf`, headers: auth })).rawPayload;
    const text = (await run('pdftotext', ['-raw', tempFile('danfe.pdf', pdf), '-'])).stdout.replace(/\s+/g, '');
    expect(text).toContain('Chassi:9BWZZZ377VT004251');
    expect(text).toContain('AnoMod/Fab:2027/2026');
  });

  it('refuses what the layout does not take, naming each field', async () => {
    const bad = { ...VEHICLE, chassis: '9bwzzz377vt00425', model_year: '27', vin_condition: 'X', restriction: '5', color_description: '', lota: undefined, seating_capacity: '1000' };
    delete (bad as Record<string, unknown>).lota;
    const res = await post('/v1/nfe', carSale({ vehicle: bad }));
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json()).map((d) => d.field).sort()).toEqual(
      ['chassis', 'color_description', 'model_year', 'restriction', 'seating_capacity', 'vin_condition'].map((f) => `items[0].vehicle.${f}`),
    );
  });

  it('refuses a missing element of the group and text the layout cannot carry', async () => {
    const { engine_number: _gone, ...partial } = VEHICLE;
    const missing = await post('/v1/nfe', carSale({ vehicle: partial }));
    expect(missing.statusCode, missing.body).toBe(422);
    expect(detailsOf(missing.json())).toEqual([{ field: 'items[0].vehicle.engine_number' }]);
    const emoji = await post('/v1/nfe', carSale({ vehicle: { ...VEHICLE, color_description: 'AZUL 🚗' } }));
    expect(emoji.statusCode, emoji.body).toBe(422);
    expect(detailsOf(emoji.json())).toEqual([{ field: 'items[0].vehicle.color_description' }]);
  });

  it('refuses direct billing (tpOp 2): the delivery place it needs is not written (MOC C18-20, 478)', async () => {
    const res = await post('/v1/nfe', carSale({ vehicle: { ...VEHICLE, operation_type: '2' } }));
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toEqual([{ field: 'items[0].vehicle.operation_type', rule: 'C18-20' }]);
    const pt = await post('/v1/nfe', carSale({ vehicle: { ...VEHICLE, operation_type: '2' } }), 'pt-BR');
    expect(pt.json().details[0].message).toMatch(/C18-20, 478/);
  });

  it('refuses a vehicle beside fuel or a medicine on one item (one group of prod\'s closing choice)', async () => {
    const res = await post('/v1/nfe', carSale({ vehicle: VEHICLE, medicine: { anvisa_code: '1012345670012', max_consumer_price: 1 } }));
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json()).map((d) => d.field)).toContain('items[0].vehicle');
  });

  it('refuses the vehicle in an NFC-e: the NFC-e has no vehicle field (MOC J01-10, 736)', async () => {
    const nfceIssuer = await readyIssuer(t, auth);
    const res = await post('/v1/nfce', {
      issuer_id: nfceIssuer, external_ref: 'carro-1',
      items: [{ description: 'Automovel', quantity: 1, unit_price: 100, ncm: '87032100', cfop: '5102', unit: 'UN', cst_icms: '102', vehicle: VEHICLE }],
      payments: [{ method: 'dinheiro', amount: 100 }],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json()).map((d) => d.field)).toContain('items[0].vehicle');
  });
});
