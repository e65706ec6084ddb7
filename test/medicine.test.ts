import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, sale } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { run } from './support/pdf-tools.js';
import { tempFile, xmllint, xmlsecVerify } from './support/xml-tools.js';

// docs/fiscal/medicines.md: items[].medicine is written as prod/med (the closing choice of prod) and items[].batches as
// prod/rastro (after indTot), leiauteNFe_v4.00.xsd. Hand figures: 2 boxes x R$ 12.50 = R$ 25.00 (vProd), PMC R$ 14.90;
// 3 x R$ 8.90 = R$ 26.70 and 1 x R$ 42.00 = R$ 42.00, together R$ 68.70.
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

/** The UTC date now, moved by `days`: MOC I83-10 is judged against it (validate-medicine.ts, the simulator's items-rules.ts). */
const utcDay = (days = 0) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const dipyrone = (extra: Record<string, unknown> = {}) => ({
  description: 'Dipirona 500mg 10 comprimidos', quantity: 2, unit_price: 12.5, ncm: '30049099', cfop: '5102', unit: 'CX', cst_icms: '102',
  medicine: { anvisa_code: '1012345670012', max_consumer_price: 14.9 },
  batches: [
    { number: 'L2301A', quantity: 1, manufactured_on: '2025-01-10', expires_on: '2027-01-31' },
    { number: 'L2302B', quantity: 1, manufactured_on: '2025-02-10', expires_on: '2027-02-28', aggregation_code: '7891234567890' },
  ],
  ...extra,
});

const DIRS = { PL_009: 'PL_009_V4', PL_010: 'PL_010_V1.30', PL_010e: 'PL_010_V1.40', 'NFSe_v1.01': 'NFSe_v1.01' } as const;

async function checkedXml(family: 'nfce' | 'nfe', id: string): Promise<string> {
  const xml = (await t.app.inject({ method: 'GET', url: `/v1/${family}/${id}/xml`, headers: auth })).body;
  const dhEmi = /<dhEmi>([^<]+)<\/dhEmi>/.exec(xml)![1]!;
  expect(await xmllint(xml, DIRS[schemaPackageFor(family === 'nfce' ? 65 : 55, dhEmi)], 'procNFe_v4.00.xsd')).toBe('');
  expect(await xmllint(xml, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toBe('');
  expect(await xmlsecVerify(xml)).toBe('');
  return xml;
}

async function refused(path: string, payload: object, headers: Record<string, string> = {}): Promise<Array<{ field: string; rule?: string; message: string }>> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: { ...auth, ...headers }, payload });
  expect(res.statusCode, res.body).toBe(422);
  return res.json().details;
}

describe('items[].medicine and items[].batches (prod/med, prod/rastro)', () => {
  it('an NFC-e selling a medicine with two batches: rastro after indTot, med closing prod; XSD of its date and PL_010 v1.40, signature, authorized', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId, { items: [dipyrone()], payment: { method: 'dinheiro', amount: 25 } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await checkedXml('nfce', note.id);
    expect(xml).toContain('<vProd>25.00</vProd>');
    expect(xml).toContain(
      '<indTot>1</indTot><rastro><nLote>L2301A</nLote><qLote>1.000</qLote><dFab>2025-01-10</dFab><dVal>2027-01-31</dVal></rastro>' +
        '<rastro><nLote>L2302B</nLote><qLote>1.000</qLote><dFab>2025-02-10</dFab><dVal>2027-02-28</dVal><cAgreg>7891234567890</cAgreg></rastro>' +
        '<med><cProdANVISA>1012345670012</cProdANVISA><vPMC>14.90</vPMC></med></prod>',
    );
  });

  it('an NFC-e may sell a medicine without batches (MOC K01-20 binds the NF-e only): authorized', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId, { items: [dipyrone({ batches: undefined })], payment: { method: 'dinheiro', amount: 25 } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await checkedXml('nfce', note.id);
    expect(xml).toContain('<indTot>1</indTot><med><cProdANVISA>1012345670012</cProdANVISA><vPMC>14.90</vPMC></med></prod>');
    expect(xml).not.toContain('<rastro>');
  });

  it('an NF-e with an exempt medicine and an 11-digit registration, a batch made today (UTC): authorized, XSD, DANFE prints batch and expiry', async () => {
    const exempt = {
      description: 'Soro fisiologico 500ml', quantity: 3, unit_price: 8.9, ncm: '30049099', cfop: '5102', unit: 'UN', cst_icms: '102',
      medicine: { anvisa_code: 'ISENTO', exemption_reason: 'RDC 98/2016', max_consumer_price: 9.5 },
      batches: [{ number: 'SF-0425', quantity: 3, manufactured_on: utcDay(), expires_on: '2028-04-30' }],
    };
    const registered = {
      description: 'Amoxicilina 500mg 21 capsulas', quantity: 1, unit_price: 42, ncm: '30042099', cfop: '5102', unit: 'CX', cst_icms: '102',
      medicine: { anvisa_code: '10123456789', max_consumer_price: 0 },
      batches: [{ number: 'AMX77', quantity: 0.5, manufactured_on: '2024-12-01', expires_on: '2026-12-31' }, { number: 'AMX78', quantity: 0.5, manufactured_on: '2024-12-02', expires_on: '2026-12-31' }],
    };
    // 3 x 8.90 + 1 x 42.00 = 26.70 + 42.00 = 68.70
    const { note } = await emitNfeSettled(t, auth, invoice(issuerId, { items: [exempt, registered], payment: { method: 'boleto', amount: 68.7 } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await checkedXml('nfe', note.id);
    expect(xml).toContain(`<rastro><nLote>SF-0425</nLote><qLote>3.000</qLote><dFab>${utcDay()}</dFab><dVal>2028-04-30</dVal></rastro><med><cProdANVISA>ISENTO</cProdANVISA><xMotivoIsencao>RDC 98/2016</xMotivoIsencao><vPMC>9.50</vPMC></med></prod>`);
    expect(xml).toContain('<rastro><nLote>AMX77</nLote><qLote>0.500</qLote><dFab>2024-12-01</dFab><dVal>2026-12-31</dVal></rastro>' +
      '<rastro><nLote>AMX78</nLote><qLote>0.500</qLote><dFab>2024-12-02</dFab><dVal>2026-12-31</dVal></rastro><med><cProdANVISA>10123456789</cProdANVISA><vPMC>0.00</vPMC></med></prod>');
    expect(xml).toContain('<vNF>68.70</vNF>');
    // The DANFE prints the batches and the ANVISA registration under each medicine's description (src/danfe/nfe/medicine-line.ts).
    const pdf = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/danfe.pdf`, headers: auth })).rawPayload;
    const text = (await run('pdftotext', ['-raw', tempFile('danfe.pdf', pdf), '-'])).stdout.replace(/\s+/g, '');
    const [y, m, d] = utcDay().split('-');
    expect(text).toContain(`Lote:SF-0425Qtd:3Fab:${d}/${m}/${y}Val:30/04/2028-ANVISA:ISENTO(RDC98/2016)PMC:R$9,50`);
    expect(text).toContain('Lote:AMX77Qtd:0,5Fab:01/12/2024Val:31/12/2026-Lote:AMX78Qtd:0,5Fab:02/12/2024Val:31/12/2026-ANVISA:10123456789PMC:R$0,00');
  });

  it('422 naming the field and the MOC rule for each rule the simulator enforces on the groups (I83-10, I84-10, K01-20)', async () => {
    const nfce = (item: object) => sale(issuerId, { items: [item], payment: { method: 'dinheiro', amount: 25 } });
    const nfe = (item: object) => invoice(issuerId, { items: [item], payment: { method: 'boleto', amount: 25 } });
    const batch = (dates: object) => [{ number: 'L1', quantity: 2, ...dates }];
    const cases: Array<[string, object, string, string]> = [
      ['/v1/nfce', nfce(dipyrone({ batches: batch({ manufactured_on: utcDay(2), expires_on: '2099-12-31' }) })), 'items[0].batches[0].manufactured_on', 'I83-10'],
      ['/v1/nfe', nfe(dipyrone({ batches: batch({ manufactured_on: utcDay(2), expires_on: '2099-12-31' }) })), 'items[0].batches[0].manufactured_on', 'I83-10'],
      ['/v1/nfce', nfce(dipyrone({ batches: batch({ manufactured_on: '2025-03-01', expires_on: '2025-02-28' }) })), 'items[0].batches[0].expires_on', 'I84-10'],
      ['/v1/nfe', nfe(dipyrone({ batches: batch({ manufactured_on: '2025-03-01', expires_on: '2025-02-28' }) })), 'items[0].batches[0].expires_on', 'I84-10'],
      ['/v1/nfe', nfe(dipyrone({ batches: undefined })), 'items[0].batches', 'K01-20'],
      ['/v1/nfe', nfe(dipyrone({ batches: [] })), 'items[0].batches', 'K01-20'],
    ];
    for (const [path, payload, field, rule] of cases) {
      const details = await refused(path, payload);
      expect(details, `${path} ${field} ${rule}`).toContainEqual(expect.objectContaining({ field, rule }));
    }
    // The same day on both dates is valid (I84-10 refuses only an expiry before manufacture).
    const sameDay = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=10' }, payload: nfce(dipyrone({ batches: batch({ manufactured_on: '2025-03-01', expires_on: '2025-03-01' }) })) });
    expect(sameDay.statusCode, sameDay.body).toBeLessThan(300);
    // In Portuguese with the same rule.
    const pt = await refused('/v1/nfe', nfe(dipyrone({ batches: undefined })), { 'accept-language': 'pt-BR' });
    expect(pt).toContainEqual(expect.objectContaining({ field: 'items[0].batches', rule: 'K01-20', message: 'é obrigatório com medicine na NF-e: informe ao menos um lote do medicamento vendido (rastro, MOC K01-20, 873)' }));
  });

  it('422 for what the XSD limits: cProdANVISA, dates (TData), qLote decimals, nLote length, vPMC decimals, med with comb', async () => {
    const nfce = (item: object) => sale(issuerId, { items: [item], payment: { method: 'dinheiro', amount: 300 } });
    const one = (b: object) => [{ number: 'L1', quantity: 2, manufactured_on: '2025-01-10', expires_on: '2027-01-31', ...b }];
    const cases: Array<[object, string]> = [
      [dipyrone({ medicine: { anvisa_code: '101234567001', max_consumer_price: 14.9 } }), 'items[0].medicine.anvisa_code'],
      [dipyrone({ medicine: { anvisa_code: 'isento', max_consumer_price: 14.9 } }), 'items[0].medicine.anvisa_code'],
      [dipyrone({ medicine: { anvisa_code: '1012345670012', max_consumer_price: 14.901 } }), 'items[0].medicine.max_consumer_price'],
      [dipyrone({ medicine: { anvisa_code: 'ISENTO', exemption_reason: 'x'.repeat(256), max_consumer_price: 1 } }), 'items[0].medicine.exemption_reason'],
      [dipyrone({ batches: one({ manufactured_on: '2025-02-30' }) }), 'items[0].batches[0].manufactured_on'],
      [dipyrone({ batches: one({ expires_on: '1999-12-31' }) }), 'items[0].batches[0].expires_on'],
      [dipyrone({ batches: one({ expires_on: '31/01/2027' }) }), 'items[0].batches[0].expires_on'],
      [dipyrone({ batches: one({ quantity: 1.0005 }) }), 'items[0].batches[0].quantity'],
      [dipyrone({ batches: one({ quantity: 100_000_000 }) }), 'items[0].batches[0].quantity'],
      [dipyrone({ batches: one({ number: 'L'.repeat(21) }) }), 'items[0].batches[0].number'],
      [dipyrone({ batches: one({ aggregation_code: '1'.repeat(21) }) }), 'items[0].batches[0].aggregation_code'],
      [dipyrone({ ncm: '27101259', cfop: '5656', unit: 'L', fuel: { anp_code: '320102001', uf_cons: 'SP' } }), 'items[0].medicine'],
    ];
    for (const [item, field] of cases) {
      const details = await refused('/v1/nfce', nfce(item));
      expect(details.map((x) => x.field), field).toContain(field);
    }
  });
});
