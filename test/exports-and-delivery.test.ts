import type { Element } from '@xmldom/xmldom';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { goodsGroupRejection } from '../src/authority-sim/goods-group-rules.js';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { dpsFacts } from '../src/authority-sim/nfse/dps-facts.js';
import { checkForeignTrade } from '../src/authority-sim/nfse/foreign-trade-rules.js';
import { nfseKey } from '../src/authority-sim/nfse/issue-nfse.js';
import { NfseRefusal } from '../src/authority-sim/nfse/nfse-wire.js';
import { writeNfse } from '../src/authority-sim/nfse/write-nfse.js';
import { buildPreparedNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import type { Sale } from '../src/documents/nfce/domain/sale.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { buildPreparedDps } from '../src/documents/nfse/domain/build-nfse.js';
import type { NfseContext } from '../src/documents/nfse/domain/nfse-context.js';
import type { NfseRequest } from '../src/documents/nfse/domain/nfse-request.js';
import { prepareNfse } from '../src/documents/nfse/domain/prepare-nfse.js';
import { NUMERIC_ISSUER, simpleSale, testContext, testSigningKey } from './support/nfce-fixtures.js';
import { exportRequest, interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { xmllint } from './support/xml-tools.js';

// The groups the gateway never wrote (docs/fiscal/exports-and-delivery.md): exporta of an
// NF-e export (MOC ZA01), the carrier of an NFC-e home delivery (MOC X03-20) and comExt of an NFS-e
// export (NFS-e Anexo I E0330), with the NFS-e Sefin writes for an export (E1301, E1303). Each: the
// gateway refuses first naming the field and the rule, the simulator refuses with the official code and
// words, and the complete document passes the official XSD.

const rulesOf = (errors: Array<{ field: string; rule?: string }>) => errors.map((e) => [e.field, e.rule]);

/** Foreign recipient in Argentina (BACEN 0639), CFOP 7101: the sale the issue found authorized without exporta. */
const exportSale = () => exportRequest(1500);

const nfeXml = (req: NfeRequest): string => {
  const p = prepareNfe(req, NFE_CONTEXT);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext()).xml;
};

describe('NF-e export: exporta (MOC ZA01-10/20, 355/356)', () => {
  it('the gateway refuses an export without exporta, naming export and ZA01-10; exporta elsewhere is ZA01-20', () => {
    const p = prepareNfe(exportSale(), NFE_CONTEXT);
    expect(p.ok ? [] : rulesOf(p.errors)).toEqual([['export', 'ZA01-10']]);
    const internal = { ...interstateRequest(), export: { shipment_uf: 'SP', shipment_place: 'PORTO DE SANTOS' } };
    const q = prepareNfe(internal, NFE_CONTEXT);
    expect(q.ok ? [] : rulesOf(q.errors)).toEqual([['export', 'ZA01-20']]);
    // MOC ZA02: UFSaidaPais does not take EX.
    const ex = prepareNfe({ ...exportSale(), export: { shipment_uf: 'EX', shipment_place: 'PORTO DE SANTOS' } }, NFE_CONTEXT);
    expect(ex.ok ? [] : ex.errors.map((e) => e.field)).toEqual(['export.shipment_uf']);
  });

  it('writes exporta after infAdic; the note passes PL_009 and PL_010 and the simulator', async () => {
    const xml = nfeXml({ ...exportSale(), additional_info: 'Exportacao', export: { shipment_uf: 'SP', shipment_place: 'Porto de Santos', dispatch_place: 'Recinto Alfandegado Santos' } });
    expect(xml).toContain('<idDest>3</idDest>');
    expect(xml).toContain('</infAdic><exporta><UFSaidaPais>SP</UFSaidaPais><xLocExporta>Porto de Santos</xLocExporta><xLocDespacho>Recinto Alfandegado Santos</xLocDespacho></exporta>');
    expect(await xmllint(xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmllint(xml, 'PL_010_V1.30', 'nfe_v4.00.xsd')).toBe('');
    expect(goodsGroupRejection(nfeFacts(xml))).toBeNull();
  });

  it('the simulator answers 355 without exporta in an export and 356 with it elsewhere, in the MOC words', () => {
    const xml = nfeXml({ ...exportSale(), export: { shipment_uf: 'SP', shipment_place: 'PORTO DE SANTOS' } });
    const without = goodsGroupRejection(nfeFacts(xml.replace(/<exporta>.*<\/exporta>/, '')));
    expect(without).toMatchObject({ cStat: 355, xMotivo: 'Rejeição: Informar o local de saída do Pais no caso da exportação' });
    const interstate = nfeXml(interstateRequest()).replace('</pag>', '</pag><exporta><UFSaidaPais>SP</UFSaidaPais><xLocExporta>SANTOS</xLocExporta></exporta>');
    expect(goodsGroupRejection(nfeFacts(interstate))).toMatchObject({ cStat: 356, xMotivo: 'Rejeição: Informar o local de saída do Pais somente no caso da exportação' });
  });
});

const deliveryAddress = { street: 'Rua B', number: '10', district: 'Se', city_code: '3550308', city: 'Sao Paulo', uf: 'SP', cep: '01001000' };
const delivery = (overrides: Partial<Sale> = {}): Sale => simpleSale({ home_delivery: true, consumer: { cpf: '52998224725', name: 'Maria Souza', address: deliveryAddress }, ...overrides });
const carrier = { cnpj: '10422724000187', name: 'Entregas Rapidas Ltda', ie: 'ISENTO', uf: 'SP' };

function nfceXml(sale: Sale): string {
  const ctx = testContext(NUMERIC_ISSUER);
  const p = prepareNfce(sale, ctx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfce(p.nfce, ctx).xml;
}

describe('NFC-e home delivery: the carrier (MOC X02-10, X03-10/20; 753, 754, 786)', () => {
  it('the gateway refuses a home delivery without a carrier (X03-20) and freight or a carrier without one (X02-10, X03-10)', () => {
    const ctx = testContext(NUMERIC_ISSUER);
    const p = prepareNfce(delivery(), ctx);
    expect(p.ok ? [] : rulesOf(p.errors)).toEqual([['transporte.transportadora', 'X03-20']]);
    const q = prepareNfce(simpleSale({ transporte: { modalidade: 'emitente', transportadora: carrier } }), ctx);
    expect(q.ok ? [] : rulesOf(q.errors)).toEqual([['transporte.modalidade', 'X02-10'], ['transporte.transportadora', 'X03-10']]);
    const r = prepareNfce(delivery({ transporte: { modalidade: 'emitente', transportadora: { ...carrier, cnpj: '10422724000188', ie: '123456', uf: undefined } } }), ctx);
    expect(r.ok ? [] : rulesOf(r.errors)).toEqual([['transporte.transportadora.cnpj', 'X04-20'], ['transporte.transportadora.uf', 'X07-10']]);
  });

  it('writes transp with modFrete and transporta; the NFC-e passes PL_009 and the simulator', async () => {
    const xml = nfceXml(delivery({ transporte: { modalidade: 'proprio_emitente', transportadora: carrier } }));
    expect(xml).toContain('<indPres>4</indPres>');
    expect(xml).toContain('<transp><modFrete>3</modFrete><transporta><CNPJ>10422724000187</CNPJ><xNome>Entregas Rapidas Ltda</xNome><IE>ISENTO</IE><UF>SP</UF></transporta></transp>');
    expect(await xmllint(xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(goodsGroupRejection(nfeFacts(xml))).toBeNull();
  });

  it('the simulator answers 786, 754, 753 and 756 in the MOC words', () => {
    const xml = nfceXml(delivery({ transporte: { modalidade: 'emitente', transportadora: carrier } }));
    expect(goodsGroupRejection(nfeFacts(xml.replace(/<transporta>.*<\/transporta>/, '')))).toMatchObject({ cStat: 786, xMotivo: 'Rejeição: NFC-e de entrega a domicílio sem dados do Transportador' });
    const counter = xml.replace('<indPres>4</indPres>', '<indPres>1</indPres>');
    expect(goodsGroupRejection(nfeFacts(counter))).toMatchObject({ cStat: 753, xMotivo: 'Rejeição: NFC-e com Frete' });
    expect(goodsGroupRejection(nfeFacts(counter.replace('<modFrete>0</modFrete>', '<modFrete>9</modFrete>')))).toMatchObject({ cStat: 754, xMotivo: 'Rejeição: NFC-e com dados do Transportador' });
    const vehicle = xml.replace('</transporta>', '</transporta><veicTransp><placa>ABC1D23</placa></veicTransp>');
    expect(goodsGroupRejection(nfeFacts(vehicle))).toMatchObject({ cStat: 756, xMotivo: 'Rejeição: NFC-e com dados do veículo de Transporte' });
  });
});

const nfseCtx: NfseContext = {
  issuer: { taxId: '11444777000161', municipalRegistration: '12345', simplesNacional: 1, specialRegime: 0, cityCode: '3304557' },
  tpAmb: 2,
  taxReform: false,
  today: '2026-03-10',
};
const ABROAD = { street: 'Main Street', number: '1', district: 'Downtown', country_code: 'US', postal_code: '10001', city: 'New York', state_region: 'NY' };
const FOREIGN_TRADE = { provision_mode: 'transfronteirico', relationship: 'sem_vinculo', currency: '220', foreign_amount: 300, provider_support: '01', taker_support: '24', temporary_goods: 'nao' } as const;
function serviceExport(foreign = true): NfseRequest {
  return {
    issuer_id: 'iss_1',
    competence_date: '2026-03-09',
    // Anexo I E0318: an export of services names its NBS item (the code the other NFS-e samples use).
    service: { national_code: '010101', nbs: '115021000', description: 'Desenvolvimento de software', place_of_provision: { city_code: '3304557' }, ...(foreign ? { foreign_trade: FOREIGN_TRADE } : {}) },
    tomador: { nif: 'US-123456789', name: 'ACME Inc.', address: ABROAD },
    values: { service_amount: 1500, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido', taxation: 'exportacao', export_country: 'US' } },
  };
}
const dpsOf = (req: NfseRequest) => {
  const p = prepareNfse(req, nfseCtx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedDps(p.dps, { serie: '1', nDPS: '7', emittedAt: new Date('2026-03-10T13:00:00Z'), signingKey: testSigningKey() }).xml;
};
const rootOf = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml').documentElement as unknown as Element;
const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof NfseRefusal) return err.item;
    throw err;
  }
  return null;
};

describe('NFS-e export: comExt (Anexo I E0330) and the NFS-e Sefin writes (E1301, E1303)', () => {
  it('the gateway refuses an export of services without foreign_trade, naming it and E0330; E0352/E0354/E0356 on the declarations', () => {
    const p = prepareNfse(serviceExport(false), nfseCtx);
    expect(p.ok ? [] : rulesOf(p.errors)).toEqual([['service.foreign_trade', 'E0330']]);
    const withDi = serviceExport();
    withDi.service.foreign_trade = { ...FOREIGN_TRADE, temporary_goods: 'declaracao_importacao' };
    const q = prepareNfse(withDi, nfseCtx);
    expect(q.ok ? [] : rulesOf(q.errors)).toEqual([['service.foreign_trade.import_declaration', 'E0352']]);
    withDi.service.foreign_trade = { ...FOREIGN_TRADE, export_registration: '240123456001' };
    const r = prepareNfse(withDi, nfseCtx);
    expect(r.ok ? [] : rulesOf(r.errors)).toEqual([['service.foreign_trade.export_registration', 'E0354']]);
  });

  it('writes comExt after cServ; the DPS passes DPS_v1.01.xsd and the simulator', async () => {
    const xml = dpsOf(serviceExport());
    expect(xml).toContain('</cServ><comExt><mdPrestacao>1</mdPrestacao><vincPrest>0</vincPrest><tpMoeda>220</tpMoeda><vServMoeda>300.00</vServMoeda><mecAFComexP>01</mecAFComexP><mecAFComexT>24</mecAFComexT><movTempBens>1</movTempBens><mdic>0</mdic></comExt></serv>');
    expect(await xmllint(xml, 'NFSe_v1.01', 'DPS_v1.01.xsd')).toBe('');
    expect(refusal(() => checkForeignTrade(rootOf(xml)))).toBeNull();
  });

  it('the simulator refuses a DPS of an export without comExt with E0330 and its official message', () => {
    const xml = dpsOf(serviceExport()).replace(/<comExt>.*<\/comExt>/, '');
    expect(refusal(() => checkForeignTrade(rootOf(xml)))).toEqual({
      codigo: 'E0330', descricao: 'É obrigatório prestar informações de comércio exterior para as situações de exportação de serviços.', complemento: expect.any(String),
    });
    // A service abroad (cPaisPrestacao) is an export too, whatever tribISSQN says.
    const abroad = dpsOf(serviceExport()).replace(/<comExt>.*<\/comExt>/, '').replace('<cLocPrestacao>3304557</cLocPrestacao>', '<cPaisPrestacao>US</cPaisPrestacao>').replace('<tribISSQN>3</tribISSQN>', '<tribISSQN>1</tribISSQN>');
    expect(refusal(() => checkForeignTrade(rootOf(abroad)))?.codigo).toBe('E0330');
  });

  it('the NFS-e of an export has no cLocIncid and, of valores, only vLiq (E1301, E1303); it passes NFSe_v1.01.xsd', async () => {
    const dps = dpsOf(serviceExport());
    const facts = dpsFacts(rootOf(dps));
    const nfse = writeNfse({ key: nfseKey(facts, 1, '2603', '123456789'), nNFSe: 1, nDFSe: 1, processedAt: new Date('2026-03-10T13:00:05Z'), providerName: 'Prestador Teste', facts, dpsText: dps.replace(/^<\?xml[^>]*\?>/, '') }, testSigningKey());
    expect(nfse).not.toContain('<cLocIncid>');
    expect(nfse).not.toContain('<xLocIncid>');
    // vLiq = vServ 1500.00, nothing withheld.
    expect(/<\/emit><valores>(.*?)<\/valores>/.exec(nfse)?.[1]).toBe('<vLiq>1500.00</vLiq>');
    expect(await xmllint(nfse, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
  });
});
