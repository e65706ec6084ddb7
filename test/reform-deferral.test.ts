import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import { reformRejection } from '../src/authority-sim/reform-rules.js';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { tempFile } from './support/xml-tools.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { nfeVerdict } from './support/simulator-verdict.js';
import type { NfeRequest } from '../src/documents/nfe/domain/index.js';

// Deferral (gDif, CST 510 / 515) and suspension (CST 550, gTribRegular) in an NF-e, every figure
// computed by hand from NT 2025.002-RTC (v1.31 rules UB23-10, UB35-10, UB61-10, UB67-10, UB72-10, UB72b-10,
// UB72d-10, W38-10, W53-10; docs/fiscal/tax-reform.md "Deferral", "Suspension") and LC 214/2025.
// The fixture is the interstate NF-e SP -> RJ of test/reform-compute.test.ts, whose UB16-10 bases were computed
// by hand there: item 1 2,193.83, item 2 98.61 (docs/fiscal/tax-reform.md, "The base"). 2026 rates: IBS UF
// 0.10%, IBS Mun 0%, CBS 0.90% (LC 214/2025 arts. 343, 346).

const reformNfe = { ...NFE_CONTEXT, taxReform: true };
const NOW = new Date('2026-07-15T15:04:10Z');

function built(edit: (req: NfeRequest) => void) {
  const req = interstateRequest();
  edit(req);
  const p = prepareNfe(req, reformNfe);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext());
}

function refused(edit: (req: NfeRequest) => void): Array<[string, string | undefined]> {
  const req = interstateRequest();
  edit(req);
  const p = prepareNfe(req, reformNfe);
  return p.ok ? [] : p.errors.map((e) => [e.field, e.rule]);
}

/** Agricultural inputs of LC 214/2025 Anexo IX (urea, NCM 3102.10.10) at CST 515 / cClassTrib 515001. */
function agriculturalInputs(req: NfeRequest, pDif: [number, number]): void {
  req.items[0] = { ...req.items[0]!, description: 'Adubo ureia granulada', ncm: '31021010', reform: { cst: '515', class_code: '515001', deferral_rate: pDif[0] } };
  req.items[1] = { ...req.items[1]!, description: 'Adubo ureia 1kg', ncm: '31021010', reform: { cst: '515', class_code: '515001', deferral_rate: pDif[1] } };
}

describe('deferral: CST 515 / 515001, LC 214/2025 art. 138 (60% reduction, payment deferred, par. 2 and 3)', () => {
  it('writes gRed and gDif in each sphere, the tax due less the deferred part, and the totals vDif', async () => {
    // Item 1: art. 138 par. 2 I: the whole tax deferred, pDif 100. Item 2: par. 3: only the share of the inputs the
    // producer uses for goods sold to buyers with the presumed credit of art. 168 is deferred; say 40%.
    const note = built((req) => agriculturalInputs(req, [100, 40]));
    // pAliqEfet (UB28-10) = rate x (1 - 60/100): IBS UF 0.10 x 0.40 = 0.0400; Mun 0; CBS 0.90 x 0.40 = 0.3600.
    // Item 1, vBC 2,193.83, pDif 100 (UB23-10, UB61-10: vDif = vBC x pAliqEfet x pDif):
    //   IBS UF 2,193.83 x 0.04% = 0.877532 -> vDif 0.88; vIBSUF = 0.88 - 0.88 = 0.00 (UB35-10)
    //   CBS    2,193.83 x 0.36% = 7.897788 -> vDif 7.90; vCBS   = 7.90 - 7.90 = 0.00 (UB67-10)
    expect(note.xml).toContain(
      '<IBSCBS><CST>515</CST><cClassTrib>515001</cClassTrib><gIBSCBS><vBC>2193.83</vBC>' +
        '<gIBSUF><pIBSUF>0.10</pIBSUF><gDif><pDif>100.00</pDif><vDif>0.88</vDif></gDif><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.04</pAliqEfet></gRed><vIBSUF>0.00</vIBSUF></gIBSUF>' +
        '<gIBSMun><pIBSMun>0.00</pIBSMun><gDif><pDif>100.00</pDif><vDif>0.00</vDif></gDif><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.00</pAliqEfet></gRed><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.00</vIBS>' +
        '<gCBS><pCBS>0.90</pCBS><gDif><pDif>100.00</pDif><vDif>7.90</vDif></gDif><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.36</pAliqEfet></gRed><vCBS>0.00</vCBS></gCBS></gIBSCBS></IBSCBS>',
    );
    // Item 2, vBC 98.61, pDif 40:
    //   IBS UF 98.61 x 0.04% = 0.039444 -> 0.04; vDif 98.61 x 0.04% x 40% = 0.0157776 -> 0.02; vIBSUF 0.04 - 0.02 = 0.02
    //   CBS    98.61 x 0.36% = 0.354996 -> 0.35; vDif 98.61 x 0.36% x 40% = 0.1419984 -> 0.14; vCBS 0.35 - 0.14 = 0.21
    expect(note.xml).toContain('<gIBSUF><pIBSUF>0.10</pIBSUF><gDif><pDif>40.00</pDif><vDif>0.02</vDif></gDif><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.04</pAliqEfet></gRed><vIBSUF>0.02</vIBSUF></gIBSUF>');
    expect(note.xml).toContain('<gCBS><pCBS>0.90</pCBS><gDif><pDif>40.00</pDif><vDif>0.14</vDif></gDif><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.36</pAliqEfet></gRed><vCBS>0.21</vCBS></gCBS>');
    // IBSCBSTot (W38-10, W43-10, W53-10): vDif UF 0.88 + 0.02 = 0.90, Mun 0.00, CBS 7.90 + 0.14 = 8.04;
    // vIBSUF 0.00 + 0.02 = 0.02; vCBS 0.00 + 0.21 = 0.21; vNFTot = vNF = 3,444.87 (a 2026 note: NT VB01-10 Exceção 1, W60-10;
    // docs/fiscal/tax-reform.md "The note's total").
    expect(note.xml).toContain(
      '<IBSCBSTot><vBCIBSCBS>2292.44</vBCIBSCBS><gIBS><gIBSUF><vDif>0.90</vDif><vDevTrib>0.00</vDevTrib><vIBSUF>0.02</vIBSUF></gIBSUF>' +
        '<gIBSMun><vDif>0.00</vDif><vDevTrib>0.00</vDevTrib><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.02</vIBS>',
    );
    expect(note.xml).toContain('<gCBS><vDif>8.04</vDif><vDevTrib>0.00</vDevTrib><vCBS>0.21</vCBS>');
    expect(note.totals).toMatchObject({ vNF: 3444.87, vIBS: 0.02, vCBS: 0.21, vNFTot: 3444.87 });
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('deferral-515.xml', note.xml)])).toBe('');
    expect(reformRejection(nfeFacts(note.xml))).toBeNull();
    // The simulator checks the arithmetic: a vDif off by more than 0.01 is refused (UB23-10, cStat 1031).
    expect(reformRejection(nfeFacts(note.xml.replace('<vDif>0.88</vDif>', '<vDif>0.80</vDif>')))?.cStat).toBe(1031);
    expect(nfeVerdict(note.xml, { now: NOW, signature: true })).toBeNull();
  });

  it('CST 510 / 510001 (LC 214/2025 art. 28 par. 1, electric energy) without reduction: vDif on the full rate', async () => {
    const note = built((req) => {
      req.items[0]!.reform = { cst: '510', class_code: '510001', deferral_rate: 25 };
    });
    // vBC 2,193.83: IBS UF 2.19383 -> 2.19; vDif = 2,193.83 x 0.10% x 25% = 0.5484575 -> 0.55; vIBSUF 2.19 - 0.55 = 1.64.
    // CBS 19.74447 -> 19.74; vDif = 2,193.83 x 0.90% x 25% = 4.9361175 -> 4.94; vCBS 19.74 - 4.94 = 14.80.
    expect(note.xml).toContain('<gIBSUF><pIBSUF>0.10</pIBSUF><gDif><pDif>25.00</pDif><vDif>0.55</vDif></gDif><vIBSUF>1.64</vIBSUF></gIBSUF>');
    expect(note.xml).toContain('<gCBS><pCBS>0.90</pCBS><gDif><pDif>25.00</pDif><vDif>4.94</vDif></gDif><vCBS>14.80</vCBS></gCBS>');
    // Totals with item 2 at CST 000 (IBS UF 0.10, CBS 0.89, no gDif): vDif UF 0.55, CBS 4.94; vIBSUF 1.74; vCBS 15.69.
    expect(note.xml).toContain('<gIBSUF><vDif>0.55</vDif><vDevTrib>0.00</vDevTrib><vIBSUF>1.74</vIBSUF></gIBSUF>');
    expect(note.xml).toContain('<gCBS><vDif>4.94</vDif><vDevTrib>0.00</vDevTrib><vCBS>15.69</vCBS>');
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('deferral-510.xml', note.xml)])).toBe('');
    expect(nfeVerdict(note.xml, { now: NOW, signature: true })).toBeNull();
  });

  it('refuses a missing, forbidden or out-of-range pDif with a 422 naming reform.deferral_rate (UB22-20, 1030; UB22-10, 1029)', () => {
    expect(refused((req) => { req.items[0]!.reform = { cst: '510', class_code: '510001' }; })).toEqual([['items[0].reform.deferral_rate', 'UB22-20']]);
    expect(refused((req) => { req.items[0]!.reform = { cst: '000', class_code: '000001', deferral_rate: 50 }; })).toEqual([['items[0].reform.deferral_rate', 'UB22-10']]);
    expect(refused((req) => { req.items[0]!.reform = { cst: '510', class_code: '510001', deferral_rate: 0 }; })).toEqual([['items[0].reform.deferral_rate', undefined]]);
    expect(refused((req) => { req.items[0]!.reform = { cst: '510', class_code: '510001', deferral_rate: 100.5 }; })).toEqual([['items[0].reform.deferral_rate', undefined]]);
  });
});

describe('suspension: CST 550 / 550001 (LC 214/2025 art. 82), gTribRegular', () => {
  const suspended = (regular?: { cst: string; class_code: string }) => (req: NfeRequest) => {
    req.items[0]!.reform = { cst: '550', class_code: '550001', ...(regular ? { regular_taxation: regular } : {}) };
  };

  it('writes the item at rates 0 and, in gTribRegular, the taxation without the suspension', async () => {
    const note = built(suspended({ cst: '000', class_code: '000001' }));
    // UB18-10, UB37-10, UB56-10, exception: a cClassTrib with ind_gTribRegular 1 carries pIBSUF, pIBSMun, pCBS 0.
    // gTribRegular (UB72-10, UB72b-10, UB72d-10) on vBC 2,193.83 at CST 000 / 000001, the 2026 rates:
    // IBS UF 0.10% = 2.19383 -> 2.19; IBS Mun 0% = 0.00; CBS 0.90% = 19.74447 -> 19.74.
    expect(note.xml).toContain(
      '<IBSCBS><CST>550</CST><cClassTrib>550001</cClassTrib><gIBSCBS><vBC>2193.83</vBC>' +
        '<gIBSUF><pIBSUF>0.00</pIBSUF><vIBSUF>0.00</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.00</pIBSMun><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.00</vIBS>' +
        '<gCBS><pCBS>0.00</pCBS><vCBS>0.00</vCBS></gCBS>' +
        '<gTribRegular><CSTReg>000</CSTReg><cClassTribReg>000001</cClassTribReg><pAliqEfetRegIBSUF>0.10</pAliqEfetRegIBSUF><vTribRegIBSUF>2.19</vTribRegIBSUF>' +
        '<pAliqEfetRegIBSMun>0.00</pAliqEfetRegIBSMun><vTribRegIBSMun>0.00</vTribRegIBSMun><pAliqEfetRegCBS>0.90</pAliqEfetRegCBS><vTribRegCBS>19.74</vTribRegCBS></gTribRegular>' +
        '</gIBSCBS></IBSCBS>',
    );
    // Totals: only item 2 (CST 000) is charged: IBS 0.10, CBS 0.89; vNFTot = vNF = 3,444.87 (2026: VB01-10 Exceção 1).
    expect(note.totals).toMatchObject({ vIBS: 0.1, vCBS: 0.89, vNFTot: 3444.87 });
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('suspension-550.xml', note.xml)])).toBe('');
    expect(nfeVerdict(note.xml, { now: NOW, signature: true })).toBeNull();
  });

  it('a regular taxation at a reduced rate takes its class\'s reduction: 200030 (Anexo IV, 60%)', () => {
    const note = built(suspended({ cst: '200', class_code: '200030' }));
    // pAliqEfetReg = 0.10 x 0.40 = 0.04 and 0.90 x 0.40 = 0.36; 2,193.83 x 0.04% = 0.877532 -> 0.88; x 0.36% = 7.897788 -> 7.90.
    expect(note.xml).toContain('<gTribRegular><CSTReg>200</CSTReg><cClassTribReg>200030</cClassTribReg><pAliqEfetRegIBSUF>0.04</pAliqEfetRegIBSUF><vTribRegIBSUF>0.88</vTribRegIBSUF>');
    expect(note.xml).toContain('<pAliqEfetRegCBS>0.36</pAliqEfetRegCBS><vTribRegCBS>7.90</vTribRegCBS></gTribRegular>');
  });

  it('refuses a missing, forbidden or unknown regular taxation with a 422 naming the field (UB68-10, UB68-11, UB69-10, UB70-10)', () => {
    expect(refused(suspended())).toEqual([['items[0].reform.regular_taxation', 'UB68-10']]);
    expect(refused((req) => { req.items[0]!.reform = { cst: '000', class_code: '000001', regular_taxation: { cst: '000', class_code: '000001' } }; })).toEqual([['items[0].reform.regular_taxation', 'UB68-11']]);
    expect(refused(suspended({ cst: '999', class_code: '000001' }))).toEqual([['items[0].reform.regular_taxation.cst', 'UB69-10']]);
    expect(refused(suspended({ cst: '000', class_code: '000999' }))).toEqual([['items[0].reform.regular_taxation.class_code', 'UB70-10']]);
    expect(refused(suspended({ cst: '000', class_code: '200030' }))).toEqual([['items[0].reform.regular_taxation.class_code', undefined]]);
    expect(refused(suspended({ cst: '410', class_code: '410004' }))).toEqual([['items[0].reform.regular_taxation.cst', undefined]]);
  });
});
