import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { tempFile } from './support/xml-tools.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { debitNote } from './support/adjustment-notes.js';
import { nfeVerdict } from './support/simulator-verdict.js';

// Government purchases (gCompraGov / gTribCompraGov), presumed credit of the operation (gCredPresOper) and
// credit transfer (gTransfCred) in the NF-e, NT 2025.002-RTC (docs/fiscal/tax-reform.md). Figures computed by hand
// from the sources cited next to them; the simulator judges the gateway's notes with the official tables.

const REFORM = { ...NFE_CONTEXT, taxReform: true };
const JULY_2026 = new Date('2026-07-15T15:04:05Z');
const JAN_2027 = new Date('2027-01-15T15:00:00Z');

function build(req: NfeRequest, ctx = REFORM, emittedAt = JULY_2026) {
  const p = prepareNfe(req, ctx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext({ emittedAt }));
}
const refused = (req: NfeRequest, ctx = REFORM) => {
  const p = prepareNfe(req, ctx);
  return p.ok ? [] : p.errors.map((e) => `${e.field}: ${e.message}`);
};
const verdictOf = (xml: string, at: Date) => nfeVerdict(xml, { now: new Date(at.getTime() + 5000), signature: true });

describe('government purchase (NT 2025.002-RTC B31, UB26-20, UB28-10, UB82a; LC 214/2025 arts. 370, 472, 473)', () => {
  const purchase = (entity_type = 2): NfeRequest => ({ ...interstateRequest(), government_purchase: { entity_type } });

  it('2026, a state buys: gCompraGov pRedutor 0, gRed 0 and gTribCompraGov in each item; passes PL_010 v1.40 and the simulator', async () => {
    const b = build(purchase());
    expect(b.xml).toContain('<gCompraGov><tpEnteGov>2</tpEnteGov><pRedutor>0.00</pRedutor><tpOperGov>1</tpOperGov></gCompraGov></ide>');
    // Item 1, base 2,193.83 (docs/fiscal/tax-reform.md "The base"). UB28-10: pAliqEfet = pIBSUF x (1 - pRedAliq/100)
    // x (1 - pRedutor/100) = 0.10 x 1 x 1 = 0.10 (pRedutor 0 in 2026: the official calculator's
    // REDUTOR_COMPRA_GOVERNAMENTAL, migration V0023); IBS UF 2,193.83 x 0.10% = 2.19; Mun 0; CBS 0.90% = 19.74. Before
    // 2027 each entity keeps its own share (no art. 473 transfer; B32-10 starts in 2027), so gTribCompraGov repeats
    // the rates and values: 2.19 + 0.00 + 19.74 = the item's 21.93 (UB82a-20).
    expect(b.xml).toContain(
      '<gIBSCBS><vBC>2193.83</vBC><gIBSUF><pIBSUF>0.10</pIBSUF><gRed><pRedAliq>0.00</pRedAliq><pAliqEfet>0.10</pAliqEfet></gRed><vIBSUF>2.19</vIBSUF></gIBSUF>' +
      '<gIBSMun><pIBSMun>0.00</pIBSMun><gRed><pRedAliq>0.00</pRedAliq><pAliqEfet>0.00</pAliqEfet></gRed><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>2.19</vIBS>' +
      '<gCBS><pCBS>0.90</pCBS><gRed><pRedAliq>0.00</pRedAliq><pAliqEfet>0.90</pAliqEfet></gRed><vCBS>19.74</vCBS></gCBS>' +
      '<gTribCompraGov><pAliqIBSUF>0.10</pAliqIBSUF><vTribIBSUF>2.19</vTribIBSUF><pAliqIBSMun>0.00</pAliqIBSMun><vTribIBSMun>0.00</vTribIBSMun><pAliqCBS>0.90</pAliqCBS><vTribCBS>19.74</vTribCBS></gTribCompraGov></gIBSCBS>',
    );
    // Totals as without the purchase: 2.29 IBS and 20.63 CBS (tax-reform.md's worked case); vNFTot = vNF in 2026
    // (NT 2025.002-RTC VB01-10 Exceção 1).
    expect(b.totals).toMatchObject({ vIBS: 2.29, vCBS: 20.63, vNFTot: 3444.87 });
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('government-purchase.xml', b.xml)])).toBe('');
    expect(verdictOf(b.xml, JULY_2026)).toBeNull();
  });

  it('with a reduced rate (CST 200 / 200030, 60%): gRed keeps the class reduction, gTribCompraGov the effective rates', () => {
    const req = purchase(4);
    req.items[0]!.reform = { cst: '200', class_code: '200030' };
    const b = build(req);
    // 0.10 x (1 - 0.60) x (1 - 0) = 0.04% of 2,193.83 = 0.88; CBS 0.90 x 0.40 = 0.36% = 7.90 (7.897788).
    expect(b.xml).toContain('<gTribCompraGov><pAliqIBSUF>0.04</pAliqIBSUF><vTribIBSUF>0.88</vTribIBSUF><pAliqIBSMun>0.00</pAliqIBSMun><vTribIBSMun>0.00</vTribIBSMun><pAliqCBS>0.36</pAliqCBS><vTribCBS>7.90</vTribCBS></gTribCompraGov>');
    expect(verdictOf(b.xml, JULY_2026)).toBeNull();
  });

  it('is refused with a 422 naming government_purchase: without the IBS/CBS groups, and from 2027 (reducer and art. 473 not implemented)', () => {
    expect(refused(purchase(), NFE_CONTEXT)).toEqual([expect.stringMatching(/^government_purchase: .*reform_2026/)]);
    // (the 2027 items also need their CBS rate: art. 347, not published)
    expect(refused(purchase(), { ...REFORM, today: '2027-01-05' })).toContainEqual(expect.stringMatching(/^government_purchase: .*art. 370.*2027/));
  });
});

describe('presumed credit of the operation (gCredPresOper, NT 2025.002-RTC UB120-UB130; cCredPres table of 12/12/2025)', () => {
  /** Item 1 as an automotive-regime sale (cClassTrib 000003, LC 214/2025 art. 311), 2027, code 05 at 11.60%. */
  const automotive = (credit: Record<string, unknown> = { code: '05', cbs_rate: 11.6 }, classCode = '000003'): NfeRequest => {
    const req = interstateRequest();
    // The 2027 CBS rate is not published (art. 347): the items send one (docs/fiscal/tax-reform.md "Rates by date").
    req.items[0]!.reform = { cst: '000', class_code: classCode, cbs_rate: 8.8, presumed_credit: credit as never };
    req.items[1]!.reform = { cbs_rate: 8.8 };
    return req;
  };
  const IN_2027 = { ...REFORM, today: '2027-01-05' };

  it('2027, code 05 (CBS only): vCredPres = 3,000.00 x 11.60% = 348.00 in gCBSCredPres and in IBSCBSTot; passes PL_010 v1.40 and the simulator', async () => {
    const b = build(automotive(), IN_2027, JAN_2027);
    // LC 214/2025 art. 311 I: 11.60% of the sales value in the first 12 months of the benefit. The base defaults to
    // the item value net of discount, 3,000.00; cCredPres 05 has ind_gCBSCredPres 1 and ind_gIBSCredPres 0 (the table
    // of 12/12/2025), so only gCBSCredPres. gCredPresOper follows gIBSCBS (TTribNFe).
    expect(b.xml).toContain('</gIBSCBS><gCredPresOper><vBCCredPres>3000.00</vBCCredPres><cCredPres>05</cCredPres><gCBSCredPres><pCredPres>11.60</pCredPres><vCredPres>348.00</vCredPres></gCBSCredPres></gCredPresOper></IBSCBS>');
    // Item 1's base in 2027 (PIS and COFINS out of the list): 3,038.70 - 401.11 - 267.41 - 66.85 = 2,303.33;
    // IBS UF 0.05% = 1.15, Mun 0.05% = 1.15, CBS 8.8% = 202.69 (202.69304). The credit does not change them.
    expect(b.xml).toContain('<gIBSCBS><vBC>2303.33</vBC><gIBSUF><pIBSUF>0.05</pIBSUF><vIBSUF>1.15</vIBSUF></gIBSUF>');
    expect(b.xml).toContain('<gCBS><pCBS>8.80</pCBS><vCBS>202.69</vCBS></gCBS>');
    // W48-10 / W56a-10: gIBS/vCredPres 0.00, gCBS/vCredPres 348.00.
    expect(b.xml).toMatch(/<vIBS>[0-9.]+<\/vIBS><vCredPres>0\.00<\/vCredPres><vCredPresCondSus>0\.00<\/vCredPresCondSus><\/gIBS>/);
    expect(b.xml).toMatch(/<vCBS>[0-9.]+<\/vCBS><vCredPres>348\.00<\/vCredPres><vCredPresCondSus>0\.00<\/vCredPresCondSus><\/gCBS>/);
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('presumed-credit.xml', b.xml)])).toBe('');
    expect(verdictOf(b.xml, JAN_2027)).toBeNull();
  });

  it('a base sent is used: 2,500.00 x 10% (art. 311 II) = 250.00', () => {
    const b = build(automotive({ code: '05', cbs_rate: 10, base: 2500 }), IN_2027, JAN_2027);
    expect(b.xml).toContain('<vBCCredPres>2500.00</vBCCredPres><cCredPres>05</cCredPres><gCBSCredPres><pCredPres>10.00</pCredPres><vCredPres>250.00</vCredPres>');
  });

  it('is refused with a 422 naming the field and the NT rule', () => {
    const at = 'items[0].reform.presumed_credit';
    expect(refused(automotive({ code: '05', cbs_rate: 11.6 }, '000001'), IN_2027)).toEqual([expect.stringMatching(new RegExp(`^${at.replace(/[[\].]/g, '\\$&')}: .*UB120-20, cStat 1175`))]);
    expect(refused(automotive({ code: '99', cbs_rate: 1 }), IN_2027)).toEqual([expect.stringContaining(`${at}.code: 99 is not a code of the presumed credit table cCredPres (NT 2025.002-RTC UB122-10, cStat 1055)`)]);
    expect(refused(automotive({ code: '05', cbs_rate: 11.6, ibs_rate: 1 }), IN_2027)).toEqual([expect.stringMatching(/ibs_rate: .*UB123-10, cStat 1053/)]);
    expect(refused(automotive({ code: '05' }), IN_2027)).toEqual([expect.stringMatching(/cbs_rate: .*UB127-20, cStat 1058/)]);
    // Code 02 is taken by event only; code 04 is deducted from the item's IBS/CBS (not written); 2026: not in force yet.
    expect(refused(automotive({ code: '02', cbs_rate: 1, ibs_rate: 1 }), IN_2027)).toEqual([expect.stringMatching(/code: 02 .*Apropria via NF/)]);
    expect(refused(automotive({ code: '04', cbs_rate: 1, ibs_rate: 1 }), IN_2027)).toEqual([expect.stringMatching(/code: 04 .*ind_DeduzCredPres/)]);
    expect(refused(automotive(), { ...REFORM, today: '2026-11-28' })).toContainEqual(expect.stringMatching(/code: 05's CBS credit is in force from 2027-01-01/));
  });

  it('an NFC-e is refused (UB120-10, cStat 1049)', () => {
    const sale = simpleSale({
      items: [{ description: 'Cafe', quantity: 1, unit_price: 100, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, reform: { presumed_credit: { code: '05', cbs_rate: 11.6 } } }],
      payment: { method: 'pix', amount: 100 },
    });
    const p = prepareNfce(sale, testContext(NUMERIC_ISSUER, { taxReform: true }));
    expect(p.ok ? [] : p.errors.map((e) => e.message)).toEqual([expect.stringContaining('UB120-10, cStat 1049')]);
  });
});

describe('credit transfer (gTransfCred, CST 800; NT 2025.002-RTC UB13-45, UB106-30/31/40)', () => {
  const transfer = (debit_type: NfeRequest['debit_type'] = '05', credit_transfer = { ibs: 150, cbs: 1350 }, class_code = '800001'): NfeRequest => debitNote({
    debit_type, natureza_operacao: 'TRANSFERENCIA DE CREDITO NA SUCESSAO', payment: { method: 'sem_pagamento', amount: 0 },
    items: [{ description: 'Transferencia de saldo credor', quantity: 1, unit_price: 1500, ncm: '00000000', cfop: '5949', unit: 'UN', reform: { cst: '800', class_code, credit_transfer } }],
  });
  const REFORM_NOV = { ...REFORM, today: '2026-11-28' };
  const NOV = new Date('2026-11-28T13:00:00Z');

  it('a debit note of type 05 (succession, 800001): CST 800 with gTransfCred {vIBS, vCBS} instead of gIBSCBS; passes PL_010 v1.40 and the simulator', async () => {
    const b = build(transfer(), REFORM_NOV, NOV);
    expect(b.xml).toContain('<finNFe>6</finNFe><tpNFDebito>05</tpNFDebito>');
    // The values are the client's (the credit balance transferred): nothing to compute but their place.
    expect(b.xml).toContain('<IBSCBS><CST>800</CST><cClassTrib>800001</cClassTrib><gTransfCred><vIBS>150.00</vIBS><vCBS>1350.00</vCBS></gTransfCred></IBSCBS>');
    // IBSCBSTot: no gIBSCBS in the note, every total 0.
    expect(b.xml).toContain('<IBSCBSTot><vBCIBSCBS>0.00</vBCIBSCBS>');
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('credit-transfer.xml', b.xml)])).toBe('');
    expect(verdictOf(b.xml, NOV)).toBeNull();
  });

  it('is refused with a 422 naming the field: a normal note (UB106-30), debit 06 (UB106-31), both zero (UB106-40), CST 800 without it (UB13-45), the type\'s class', () => {
    const normal = interstateRequest();
    normal.items[0]!.reform = { cst: '800', class_code: '800001', credit_transfer: { ibs: 1, cbs: 1 } };
    expect(refused(normal, REFORM_NOV)).toContainEqual(expect.stringMatching(/^items\[0\]\.reform\.credit_transfer: .*UB106-30, cStat 1133/));
    expect(refused(transfer('06'), REFORM_NOV)).toContainEqual(expect.stringMatching(/credit_transfer: .*UB106-31, cStat 1168/));
    expect(refused(transfer('05', { ibs: 0, cbs: 0 }), REFORM_NOV)).toEqual([expect.stringMatching(/credit_transfer: .*UB106-40, cStat 1129/)]);
    expect(refused(transfer('01'), REFORM_NOV)).toEqual([expect.stringMatching(/^items\[0\]\.reform: .*type 01 carries CST 800 \/ cClassTrib 800002/)]);
    const without = transfer();
    delete without.items[0]!.reform!.credit_transfer;
    expect(refused(without, REFORM_NOV)).toContainEqual(expect.stringMatching(/UB13-45/));
  });
});
