import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { reformRejection } from '../src/authority-sim/reform-rules.js';
import { danfeInputFromXml, renderDanfeNfce } from '../src/danfe/index.js';
import { renderDanfeNfe } from '../src/danfe/nfe/index.js';
import { buildPreparedNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import type { Sale } from '../src/documents/nfce/domain/sale.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import type { NfseContext } from '../src/documents/nfse/domain/nfse-context.js';
import type { NfseRequest } from '../src/documents/nfse/domain/nfse-request.js';
import { checkNfse } from '../src/documents/nfse/domain/validate-nfse.js';
import { reformTablesInForce } from '../src/fiscal/reform/reform-tables-in-force.js';
import { recipient } from './support/adjustment-notes.js';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { totalsProblems, xmllintFailures } from './support/nfce-checks.js';
import { NUMERIC_ISSUER, testContext } from './support/nfce-fixtures.js';
import { readyIssuer, sale } from './support/nfce-flow.js';
import { NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { packageFolderOf, reformFiguresOf } from './support/reform-figures-xml.js';
import { nfeVerdict } from './support/simulator-verdict.js';
import { tempFile } from './support/xml-tools.js';

// PIS/PASEP and COFINS end with 2026 (docs/fiscal/tax-reform.md, "PIS and COFINS end in 2027"): ADCT art. 126
// II b (EC 132/2023) extinguishes from 2027 the contributions of CF art. 195 I b and IV and art. 239; LC 214/2025
// art. 542 revokes their laws from 1 January 2027. The same sale is issued dated 2026 and dated 2027, an NFC-e and an
// NF-e of a regime normal (CRT 3) issuer in São Paulo; the figures below are computed by hand from:
// - PIS 0.65 % and COFINS 3 % on the item value in the cumulative regime (Lei 9.715/98 art. 8 I, Lei 9.718/98
//   art. 8), up to 2026; from 2027 nothing: an NFC-e carries no PIS/COFINS group (XSD minOccurs 0, no MOC rule asks
//   for them in model 65), an NF-e CST 08 "sem incidência" (MOC Q01-20/S01-20 still ask for both groups); vPIS and
//   vCOFINS in ICMSTot 0.00 (they are required fields).
// - IBS/CBS base (NT 2025.002-RTC UB16-10, regime normal): vProd - vDesc - vICMS - vPIS - vCOFINS in 2026; in 2027
//   vPIS and vCOFINS leave the list (docs/fiscal/tax-reform.md, "The base").
// - Rates: 2026 IBS UF 0.10 %, Mun 0, CBS 0.90 % (LC 214 arts. 343, 346); 2027 IBS UF 0.05 % + Mun 0.05 % (art.
//   344), CBS sent 8.70 % (art. 347: the Senate's reference rate less 0.1 point, not published: an assumed figure).
// - vNFTot = vNF in 2026, vNF + vIBS + vCBS from 2027 (NT VB01-10 Exceção 1, W60-10).

const C = (reais: number) => Math.round(reais * 100);
const JUL_2026 = new Date('2026-07-15T15:04:05Z');
const JAN_2027 = new Date('2027-01-15T15:00:00Z');
const CBS_2027 = 8.7;

/** Coffee 3 x 21.90 = 65.70 less 5.70 (ICMS 00, 18 %); milk 6 x 4.99 = 29.94 (ICMS 40): R$ 89.94. */
function basket(reform?: Record<string, unknown>, extra: Partial<Sale['items'][number]> = {}): Sale {
  const r = reform ? { reform } : {};
  return {
    issuer_id: 'iss_test', external_ref: 'cesta-pis',
    items: [
      { description: 'Cafe torrado 500g', quantity: 3, unit_price: 21.9, discount: 5.7, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, ...r, ...extra },
      { description: 'Leite integral 1L', quantity: 6, unit_price: 4.99, ncm: '04012010', cfop: '5102', unit: 'UN', cst_icms: '40', ...r },
    ],
    payment: { method: 'pix', amount: 89.94 },
  };
}

/** Two office chairs 2 x 500.00 = 1,000.00, ICMS 00 at 18 %, to a shop in Campinas (SP). */
function chairs(reform?: Record<string, unknown>, extra: Partial<NfeRequest['items'][number]> = {}): NfeRequest {
  return {
    issuer_id: 'iss_test', external_ref: 'cadeiras-pis', natureza_operacao: 'VENDA DE MERCADORIA', presenca: 'nao_se_aplica', destinatario: recipient,
    items: [{ description: 'Cadeira de escritorio', quantity: 2, unit_price: 500, ncm: '94013100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, ...(reform ? { reform } : {}), ...extra }],
    transporte: { modalidade: 'emitente', transportadora: { cnpj: '10422724000187', name: 'Transportes Rapidos', uf: 'SP' } },
    payment: { method: 'boleto', amount: 1000 },
  };
}

function nfce(s: Sale, emittedAt: Date, taxReform: boolean, today?: string) {
  const ctx = testContext(NUMERIC_ISSUER, { taxReform, emittedAt, ...(today ? { today } : {}) });
  const p = prepareNfce(s, ctx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return { xml: buildPreparedNfce(p.nfce, ctx).xml, now: new Date(emittedAt.getTime() + 2000), csc: ctx.csc! };
}

function nfe(req: NfeRequest, emittedAt: Date, today: string) {
  const p = prepareNfe(req, { ...NFE_CONTEXT, taxReform: true, today });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return { xml: buildPreparedNfe(p.nfe, nfeDocumentContext({ emittedAt })).xml, now: new Date(emittedAt.getTime() + 2000) };
}

const NS = 'http://www.portalfiscal.inf.br/nfe';
/** Per item: the PIS / COFINS group as written (element name and CST, vPIS), or null when absent; and ICMSTot. */
function pisCofinsOf(xml: string) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const text = (parent: Element, name: string) => parent.getElementsByTagNameNS(NS, name)[0]?.textContent ?? null;
  const group = (imposto: Element, tax: 'PIS' | 'COFINS') => {
    const g = imposto.getElementsByTagNameNS(NS, tax)[0];
    if (!g) return null;
    const inner = g.getElementsByTagNameNS(NS, '*')[0]!;
    return { group: inner.localName, CST: text(inner, 'CST'), value: text(inner, tax === 'PIS' ? 'vPIS' : 'vCOFINS') };
  };
  const items = Array.from(doc.getElementsByTagNameNS(NS, 'imposto')).map((imposto) => ({ pis: group(imposto, 'PIS'), cofins: group(imposto, 'COFINS') }));
  const tot = doc.getElementsByTagNameNS(NS, 'ICMSTot')[0]!;
  return { items, vPIS: text(tot, 'vPIS'), vCOFINS: text(tot, 'vCOFINS'), dhEmi: text(doc.documentElement!, 'dhEmi') };
}

/** The simulator's reform rules and its whole authorization verdict (signature included), and xmllint of the package of its date. */
async function expectAccepted(doc: { xml: string; now: Date; csc?: { id: string; token: string } }) {
  expect(reformRejection(nfeFacts(doc.xml))).toBeNull();
  expect(nfeVerdict(doc.xml, { now: doc.now, signature: true, ...(doc.csc ? { csc: doc.csc } : {}) })).toBeNull();
  expect(await xmllintFailures(packageFolderOf(reformFiguresOf(doc.xml)), [tempFile('pis-cofins.xml', doc.xml)])).toBe('');
  expect(await xmllintFailures('PL_010_V1.40', [tempFile('pis-cofins-v140.xml', doc.xml)])).toBe('');
}

/** The note as the authority hands it back authorized (nfeProc with protNFe, cStat 100): what the DANFE prints. */
function authorized(xml: string): string {
  const key = /Id="NFe([0-9A-Z]{44})"/.exec(xml)![1]!;
  const digVal = /<DigestValue>([^<]+)<\/DigestValue>/.exec(xml)![1]!;
  const prot = `<protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><verAplic>SIM</verAplic><chNFe>${key}</chNFe><dhRecbto>2027-01-15T12:00:02-03:00</dhRecbto>` +
    `<nProt>135270000000001</nProt><digVal>${digVal}</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>`;
  return `<nfeProc xmlns="${NS}" versao="4.00">${xml.replace(/^<\?xml[^>]*>/, '')}${prot}</nfeProc>`;
}

const bases = (xml: string) => reformFiguresOf(xml).items.map((i) => i && { vBC: i.vBC, vIBSUF: i.vIBSUF, vIBSMun: i.vIBSMun, vCBS: i.vCBS });

describe('NFC-e, the same sale dated 2026 and 2027 (regime normal)', () => {
  it('2026: CST 01 PIS 0.65 % and COFINS 3 %, and both out of the IBS/CBS base', async () => {
    const doc = nfce(basket(), JUL_2026, true);
    // Coffee 60.00: PIS 0.39, COFINS 1.80; milk 29.94: PIS 0.19461 -> 0.19, COFINS 0.8982 -> 0.90.
    // vPIS 0.39 + 0.19 = 0.58; vCOFINS 1.80 + 0.90 = 2.70.
    const f = pisCofinsOf(doc.xml);
    expect(f.items).toEqual([
      { pis: { group: 'PISAliq', CST: '01', value: '0.39' }, cofins: { group: 'COFINSAliq', CST: '01', value: '1.80' } },
      { pis: { group: 'PISAliq', CST: '01', value: '0.19' }, cofins: { group: 'COFINSAliq', CST: '01', value: '0.90' } },
    ]);
    expect([f.vPIS, f.vCOFINS]).toEqual(['0.58', '2.70']);
    // UB16-10 (2026): coffee 60.00 - 10.80 - 0.39 - 1.80 = 47.01 (IBS UF 0.05, CBS 0.42309 -> 0.42); milk 29.94 - 0.19
    // - 0.90 = 28.85 (IBS UF 0.03, CBS 0.26).
    expect(bases(doc.xml)).toEqual([{ vBC: C(47.01), vIBSUF: C(0.05), vIBSMun: 0, vCBS: C(0.42) }, { vBC: C(28.85), vIBSUF: C(0.03), vIBSMun: 0, vCBS: C(0.26) }]);
    expect(totalsProblems(doc.xml)).toEqual([]);
    await expectAccepted(doc);
  });

  it('2027: no PIS nor COFINS group, vPIS and vCOFINS 0.00, the base without them; accepted by the simulator and PL_010 v1.40', async () => {
    const doc = nfce(basket({ cbs_rate: CBS_2027 }), JAN_2027, true);
    const f = pisCofinsOf(doc.xml);
    expect(f.items).toEqual([{ pis: null, cofins: null }, { pis: null, cofins: null }]);
    expect(doc.xml).not.toMatch(/<PIS>|<COFINS>/);
    expect([f.vPIS, f.vCOFINS]).toEqual(['0.00', '0.00']);
    // UB16-10 (2027): coffee 60.00 - 10.80 = 49.20: IBS UF 0.0246 -> 0.02, Mun 0.02, CBS 8.70 % = 4.2804 -> 4.28;
    // milk 29.94: IBS UF 0.01497 -> 0.01, Mun 0.01, CBS 2.60478 -> 2.60. vNFTot = 89.94 + 0.06 + 6.88 = 96.88.
    expect(bases(doc.xml)).toEqual([{ vBC: C(49.2), vIBSUF: C(0.02), vIBSMun: C(0.02), vCBS: C(4.28) }, { vBC: C(29.94), vIBSUF: C(0.01), vIBSMun: C(0.01), vCBS: C(2.6) }]);
    expect(reformFiguresOf(doc.xml).vNFTot).toBe(C(96.88));
    expect(totalsProblems(doc.xml)).toEqual([]);
    await expectAccepted(doc);
  });

  it('the DANFE NFC-e of the 2027 note renders without the groups', async () => {
    const doc = nfce(basket({ cbs_rate: CBS_2027 }), JAN_2027, true);
    const pdf = await renderDanfeNfce(danfeInputFromXml(authorized(doc.xml)));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('NF-e, the same sale dated 2026 and 2027 (regime normal)', () => {
  it('2026: PIS 6.50 and COFINS 30.00 (CST 01), the base 1,000.00 - 180.00 - 6.50 - 30.00 = 783.50', async () => {
    const doc = nfe(chairs(), JUL_2026, '2026-07-15');
    const f = pisCofinsOf(doc.xml);
    // 1,000.00 x 0.65 % = 6.50; x 3 % = 30.00.
    expect(f.items).toEqual([{ pis: { group: 'PISAliq', CST: '01', value: '6.50' }, cofins: { group: 'COFINSAliq', CST: '01', value: '30.00' } }]);
    expect([f.vPIS, f.vCOFINS]).toEqual(['6.50', '30.00']);
    // IBS UF 783.50 x 0.10 % = 0.7835 -> 0.78; CBS x 0.90 % = 7.0515 -> 7.05; vNFTot = vNF = 1,000.00 (2026).
    expect(bases(doc.xml)).toEqual([{ vBC: C(783.5), vIBSUF: C(0.78), vIBSMun: 0, vCBS: C(7.05) }]);
    expect(reformFiguresOf(doc.xml).vNFTot).toBe(C(1000));
    await expectAccepted(doc);
  });

  it('2027: PISNT / COFINSNT CST 08 (the groups MOC Q01-20/S01-20 still require), vPIS and vCOFINS 0.00, base 820.00', async () => {
    const doc = nfe(chairs({ cbs_rate: CBS_2027 }), JAN_2027, '2027-01-15');
    const f = pisCofinsOf(doc.xml);
    expect(f.items).toEqual([{ pis: { group: 'PISNT', CST: '08', value: null }, cofins: { group: 'COFINSNT', CST: '08', value: null } }]);
    expect(doc.xml).toContain('<PIS><PISNT><CST>08</CST></PISNT></PIS><COFINS><COFINSNT><CST>08</CST></COFINSNT></COFINS>');
    expect([f.vPIS, f.vCOFINS]).toEqual(['0.00', '0.00']);
    // UB16-10 (2027): 1,000.00 - 180.00 = 820.00; IBS UF 0.05 % = 0.41, Mun 0.41; CBS 8.70 % = 71.34.
    // vNFTot = 1,000.00 + 0.82 + 71.34 = 1,072.16.
    expect(bases(doc.xml)).toEqual([{ vBC: C(820), vIBSUF: C(0.41), vIBSMun: C(0.41), vCBS: C(71.34) }]);
    expect(reformFiguresOf(doc.xml).vNFTot).toBe(C(1072.16));
    await expectAccepted(doc);
  });

  it('the simulator still refuses a 2027 NF-e without the PIS group (MOC Q01-20, 745; S01-20, 748: no date exception)', () => {
    const doc = nfe(chairs({ cbs_rate: CBS_2027 }), JAN_2027, '2027-01-15');
    const noPis = doc.xml.replace('<PIS><PISNT><CST>08</CST></PISNT></PIS>', '');
    // Unsigned check: the edit breaks the signature, the rule is what is asked here.
    expect(nfeVerdict(noPis, { now: doc.now, signature: false })).toBe(745);
    expect(nfeVerdict(doc.xml.replace('<COFINS><COFINSNT><CST>08</CST></COFINSNT></COFINS>', ''), { now: doc.now, signature: false })).toBe(748);
  });

  it('the DANFE NF-e of the 2027 note renders', async () => {
    const doc = nfe(chairs({ cbs_rate: CBS_2027 }), JAN_2027, '2027-01-15');
    const pdf = await renderDanfeNfe(authorized(doc.xml));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('decided on the note\'s dhEmi: prepared on 31 December, numbered either side of midnight in São Paulo (UTC-3)', () => {
  // A legacy account (no groups in 2026, so no 2026 rate check of the CBS 8.70 the client sends for 2027).
  const prepared = () => basket({ cbs_rate: CBS_2027 }, { pis: { cst: '01', rate: 0.65 }, cofins: { cst: '01', rate: 3 } });

  it('dated 31/12/2026 23:30: the PIS and COFINS the sale sent (coffee 0.39 / 1.80)', () => {
    const doc = nfce(prepared(), new Date('2027-01-01T02:30:00Z'), false, '2026-12-31');
    const f = pisCofinsOf(doc.xml);
    expect(f.dhEmi).toBe('2026-12-31T23:30:00-03:00');
    expect(f.items[0]).toEqual({ pis: { group: 'PISAliq', CST: '01', value: '0.39' }, cofins: { group: 'COFINSAliq', CST: '01', value: '1.80' } });
  });

  it('dated 01/01/2027 00:30: none (the year of the note decides, as for the reform groups)', async () => {
    const doc = nfce(prepared(), new Date('2027-01-01T03:30:00Z'), false, '2026-12-31');
    const f = pisCofinsOf(doc.xml);
    expect(f.dhEmi).toBe('2027-01-01T00:30:00-03:00');
    expect(f.items).toEqual([{ pis: null, cofins: null }, { pis: null, cofins: null }]);
    expect([f.vPIS, f.vCOFINS]).toEqual(['0.00', '0.00']);
    await expectAccepted(doc);
  });
});

describe('a sale prepared in 2027 that sends pis or cofins is refused (422) naming the field and the law', () => {
  it('NFC-e: items[1].cofins', () => {
    const s = basket({ cbs_rate: CBS_2027 });
    s.items[1]!.cofins = { cst: '01', rate: 3 };
    const p = prepareNfce(s, testContext(NUMERIC_ISSUER, { emittedAt: JAN_2027, today: '2027-01-15' }));
    expect(p.ok ? [] : p.errors).toEqual([{ field: 'items[1].cofins', message: expect.stringMatching(/^is not accepted on a note dated 2027: PIS\/PASEP and COFINS end with 2026 \(ADCT art\. 126 II b, EC 132\/2023; LC 214\/2025 art\. 542 .*the NFC-e carries neither group$/) }]);
  });

  it('NF-e: items[0].pis and items[0].cofins', () => {
    const p = prepareNfe(chairs({ cbs_rate: CBS_2027 }, { pis: { cst: '49' }, cofins: { cst: '08' } }), { ...NFE_CONTEXT, taxReform: true, today: '2027-01-15' });
    expect(p.ok ? [] : p.errors.map((e) => e.field)).toEqual(['items[0].pis', 'items[0].cofins']);
    expect(p.ok ? '' : p.errors[0]!.message).toContain('the NF-e carries CST 08 (no incidence) in both groups');
  });

  it('the same fields are accepted on a sale prepared in 2026', () => {
    const p = prepareNfe(chairs(undefined, { pis: { cst: '01', rate: 0.65 }, cofins: { cst: '01', rate: 3 } }), { ...NFE_CONTEXT, taxReform: true, today: '2026-12-31' });
    expect(p.ok).toBe(true);
  });
});

describe('NFS-e: a competence in 2027 declares no PIS/COFINS due nor withheld (the layout has no such rule: the law)', () => {
  const ctx = (today: string): NfseContext => ({
    issuer: { taxId: '11444777000161', simplesNacional: 1, specialRegime: 0, cityCode: '3304557', municipalRegistration: '12345' },
    tpAmb: 2, taxReform: true, today, reformTables: reformTablesInForce(),
  });
  const service = (competence: string, pisCofins: NonNullable<NonNullable<NfseRequest['values']['federal']>['pis_cofins']>, csll?: number): NfseRequest => ({
    issuer_id: 'iss_1', competence_date: competence,
    service: { national_code: '010101', description: 'Desenvolvimento de software sob encomenda', place_of_provision: { city_code: '3304557' } },
    tomador: { cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3304557', cep: '20010000' } },
    values: {
      service_amount: 1000, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido', rate: 2 },
      federal: { pis_cofins: pisCofins, ...(csll !== undefined ? { withholdings: { csll } } : {}) },
    },
  });
  const pisCofinsErrors = (req: NfseRequest, today: string) => checkNfse(req, ctx(today)).filter((e) => e.field.startsWith('values.federal.pis_cofins'));

  it('CST 01 with PIS and COFINS withheld (3) in 2027: both fields refused, naming the law', () => {
    const errors = pisCofinsErrors(service('2027-01-20', { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 3 }, 46.5), '2027-01-20');
    expect(errors.map((e) => e.field)).toEqual(['values.federal.pis_cofins.cst', 'values.federal.pis_cofins.withheld']);
    expect(errors[0]!.message).toBe('must be 00, 08 or 09 for a competence in 2027: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542 revokes their laws from 1 January 2027); or leave pis_cofins out');
  });

  it('CST 08 with the CSLL alone withheld (8) in 2027, and the same CST 01 service in 2026, pass', () => {
    expect(pisCofinsErrors(service('2027-01-20', { cst: '08', withheld: 8 }, 10), '2027-01-20')).toEqual([]);
    expect(pisCofinsErrors(service('2026-12-20', { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 2 }), '2027-01-20')).toEqual([]);
  });
});

describe('through the API on 15/01/2027', { timeout: 240_000 }, () => {
  let t: TestApp;
  let auth: { authorization: string };
  let issuerId: string;
  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock('2027-01-15T15:00:00Z') });
    ({ auth } = await t.newAccount());
    issuerId = await readyIssuer(t, auth, { regime_tributario: 'normal' });
  }, 240_000);
  afterAll(async () => t?.runtime.close());

  it('POST /v1/nfce with items[0].pis answers 422 naming it, in English and in Portuguese', async () => {
    const payload = sale(issuerId, {
      items: [{ description: 'Cafe torrado 500g', quantity: 2, unit_price: 25, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, pis: { cst: '01', rate: 0.65 }, reform: { cbs_rate: CBS_2027 } }],
      payment: { method: 'dinheiro', amount: 50 },
    });
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details).toContainEqual({ field: 'items[0].pis', message: expect.stringContaining('PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b') });
    const pt = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, 'accept-language': 'pt-BR' }, payload: { ...payload, external_ref: 'pis-pt' } });
    expect(pt.statusCode, pt.body).toBe(422);
    expect(pt.json().details).toContainEqual({ field: 'items[0].pis', message: expect.stringContaining('o PIS/PASEP e a COFINS acabam em 2026') });
  });
});
