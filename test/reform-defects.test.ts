import { describe, expect, it } from 'vitest';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { Issuer } from '../src/documents/goods/domain/issuer-context.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { tempFile } from './support/xml-tools.js';
import { exportRequest, interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';

// Three defects of the reform_2026 mode, each with figures computed by hand from the law and
// NT 2025.002-RTC (docs/fiscal/tax-reform.md has the sources):
// 1. an export (CFOP 7xxx) is immune: CST 410 / cClassTrib 410004 ("Exportações de bens e serviços,
//    observado o art. 8º da LC 214/2025", rate type "Sem Alíquota"), no gIBSCBS, nothing charged;
// 2. a Simples Nacional / MEI note dated 2026 carries no IBS/CBS groups (LC 214/2025 art. 348 III c;
//    NT 2025.002 v1.20: cStat 1115 applies to CRT 1, 2, 4 only from 04/01/2027);
// 3. CST 200 (reduced rate) needs gRed, with the reduction of its cClassTrib in the table, computed as
//    pAliqEfet = rate x (1 - pRedAliq/100), value = vBC x pAliqEfet.

const reformNfe = { ...NFE_CONTEXT, taxReform: true };

/** Export to Argentina of 2 x R$ 1,625.00 = R$ 3,250.00: the 2026 test rates (0.1% + 0.9%) would charge R$ 32.50. */
const exportSale = () => exportRequest(1625, { shipment_uf: 'SP', shipment_place: 'Porto de Santos' });

describe('An export is immune (CST 410, cClassTrib 410004)', () => {
  it('defaults to CST 410 / 410004 with no gIBSCBS and charges no IBS/CBS; the note passes PL_010', async () => {
    const p = prepareNfe(exportSale(), reformNfe);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const built = buildPreparedNfe(p.nfe, nfeDocumentContext());
    expect(built.xml).toContain('<IBSCBS><CST>410</CST><cClassTrib>410004</cClassTrib></IBSCBS>');
    expect(built.xml).not.toContain('<gIBSCBS>');
    // Hand figures: nothing is charged, so vIBS = vCBS = 0.00 and vNFTot = vNF = 3250.00.
    expect(built.xml).toContain('<IBSCBSTot><vBCIBSCBS>0.00</vBCIBSCBS>');
    expect(built.xml).toMatch(/<gIBS>.*<vIBS>0\.00<\/vIBS>/);
    expect(built.xml).toMatch(/<gCBS><vDif>0\.00<\/vDif><vDevTrib>0\.00<\/vDevTrib><vCBS>0\.00<\/vCBS>/);
    expect(built.xml).toContain('<vNF>3250.00</vNF>');
    expect(built.xml).toContain('<vNFTot>3250.00</vNFTot>');
    const file = tempFile('export.xml', built.xml);
    expect(await xmllintFailures('PL_010_V1.30', [file])).toBe('');
    expect(await xmllintFailures('PL_010_V1.40', [file])).toBe('');
  });

  it('refuses rates with CST 410, naming the field', () => {
    const req = exportSale();
    req.items[0]!.reform = { cst: '410', class_code: '410004', cbs_rate: 0.9 };
    const p = prepareNfe(req, reformNfe);
    expect(p.ok ? [] : p.errors.map((e) => e.field)).toEqual(['items[0].reform.cbs_rate']);
  });
});

const SIMPLES: Issuer = { ...NUMERIC_ISSUER, crt: 1 };
const MEI: Issuer = { ...NUMERIC_ISSUER, crt: 4 };
const simplesSale = () => simpleSale({
  items: [{ description: 'Bolo de fuba', quantity: 1, unit_price: 100, ncm: '19059090', cfop: '5102', unit: 'UN', cst_icms: '102' }],
  payment: { method: 'pix', amount: 100 },
});

describe('Simples Nacional and MEI carry no IBS/CBS groups in 2026 (LC 214/2025 art. 348 III c)', () => {
  it('a Simples (CRT 1) and a MEI (CRT 4) NFC-e dated 2026 have no IBSCBS, IBSCBSTot nor vNFTot, and pass PL_010', async () => {
    for (const issuer of [SIMPLES, MEI]) {
      const built = buildNfce(simplesSale(), testContext(issuer, { taxReform: true, emittedAt: new Date('2026-07-15T15:04:05Z') }));
      expect(built.xml).not.toContain('<IBSCBS>');
      expect(built.xml).not.toContain('<IBSCBSTot>');
      expect(built.xml).not.toContain('<vNFTot>');
      expect(built.totals).toMatchObject({ vNF: 100, vIBS: 0, vCBS: 0 });
      expect(await xmllintFailures('PL_010_V1.30', [tempFile(`simples-${issuer.crt}.xml`, built.xml)])).toBe('');
    }
  });

  it('the local date decides: 31/12/2026 23:59 in São Paulo is 2026, 01/01/2027 carries the group', () => {
    const late = buildNfce(simplesSale(), testContext(SIMPLES, { taxReform: true, emittedAt: new Date('2027-01-01T02:59:00Z') }));
    expect(late.xml).toContain('<dhEmi>2026-12-31T23:59:00-03:00</dhEmi>');
    expect(late.xml).not.toContain('<IBSCBS>');
    // 2027: the CBS rate is not published, so the item sends one (reform-compute.test.ts).
    const sale2027 = simplesSale();
    sale2027.items[0]!.reform = { cbs_rate: 8.8 };
    const y2027 = buildNfce(sale2027, testContext(SIMPLES, { taxReform: true, emittedAt: new Date('2027-01-15T15:00:00Z') }));
    expect(y2027.xml).toContain('<IBSCBS><CST>000</CST>');
    expect(y2027.xml).toContain('<IBSCBSTot>');
  });

  it('a regime normal (CRT 3) NFC-e dated 2026 keeps the test rates: 0.10 + 0.90 on the base 78.35', () => {
    // UB16-10 (2026): 100.00 - ICMS 18.00 - PIS 0.65 - COFINS 3.00 = 78.35; IBS 0.1% = 0.07835 -> 0.08;
    // CBS 0.9% = 0.70515 -> 0.71; vNFTot = vNF = 100.00 (2026: NT 2025.002 VB01-10 Exceção 1, W60-10).
    const built = buildNfce({ ...simplesSale(), items: [{ ...simplesSale().items[0]!, cst_icms: '00', pICMS: 18 }] }, testContext(NUMERIC_ISSUER, { taxReform: true }));
    expect(built.totals).toMatchObject({ vIBS: 0.08, vCBS: 0.71, vNFTot: 100 });
  });

  it('a Simples NF-e dated 2026 has no IBS/CBS groups either', () => {
    const req = interstateRequest();
    req.items = req.items.map(({ difal: _difal, ...item }) => ({ ...item, cst_icms: '102', pICMS: undefined }));
    req.consumidor_final = true;
    const p = prepareNfe(req, { ...reformNfe, issuer: SIMPLES });
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const xml = buildPreparedNfe(p.nfe, nfeDocumentContext()).xml;
    expect(xml).not.toContain('<IBSCBS>');
    expect(xml).not.toContain('<IBSCBSTot>');
  });
});

/** R$ 1,000.00 of a medical device of LC 214/2025 Anexo IV, cClassTrib 200030: 60% reduction of the IBS and CBS rates. */
const reducedSale = (reform: Record<string, unknown>) => simpleSale({
  items: [{ description: 'Cadeira de rodas', quantity: 1, unit_price: 1000, ncm: '87131000', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, reform }],
  payment: { method: 'pix', amount: 1000 },
});

describe('CST 200 (reduced rate) needs gRed', () => {
  it('takes the reduction of cClassTrib 200030 from the classification table (60%); a client\'s 50 is refused, naming items[0].reform.rate_reduction', () => {
    expect(buildNfce(reducedSale({ cst: '200', class_code: '200030' }), testContext(NUMERIC_ISSUER, { taxReform: true })).xml).toContain('<gRed><pRedAliq>60.00</pRedAliq>');
    const p = prepareNfce(reducedSale({ cst: '200', class_code: '200030', rate_reduction: 50 }), testContext(NUMERIC_ISSUER, { taxReform: true }));
    expect(p.ok ? [] : p.errors.map((e) => e.field)).toEqual(['items[0].reform.rate_reduction']);
    expect(p.ok ? '' : p.errors[0]!.message).toMatch(/must be (the reduction of cClassTrib 200030: )?60/);
  });

  // Base (UB16-10, 2026): 1000.00 - ICMS 180.00 - PIS 6.50 - COFINS 30.00 = 783.50.
  it('writes gRed with the effective rates on the base 783.50: 0.10 x 40% = 0.04 (R$ 0.31), 0 (R$ 0.00), 0.90 x 40% = 0.36 (R$ 2.82)', async () => {
    const built = buildNfce(reducedSale({ cst: '200', class_code: '200030', rate_reduction: 60 }), testContext(NUMERIC_ISSUER, { taxReform: true }));
    expect(built.xml).toContain(
      '<IBSCBS><CST>200</CST><cClassTrib>200030</cClassTrib><gIBSCBS><vBC>783.50</vBC>' +
      // 783.50 x 0.04% = 0.3134 -> 0.31; 783.50 x 0.36% = 2.8206 -> 2.82.
      '<gIBSUF><pIBSUF>0.10</pIBSUF><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.04</pAliqEfet></gRed><vIBSUF>0.31</vIBSUF></gIBSUF>' +
      '<gIBSMun><pIBSMun>0.00</pIBSMun><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.00</pAliqEfet></gRed><vIBSMun>0.00</vIBSMun></gIBSMun><vIBS>0.31</vIBS>' +
      '<gCBS><pCBS>0.90</pCBS><gRed><pRedAliq>60.00</pRedAliq><pAliqEfet>0.36</pAliqEfet></gRed><vCBS>2.82</vCBS></gCBS></gIBSCBS></IBSCBS>',
    );
    expect(built.totals).toMatchObject({ vNF: 1000, vIBS: 0.31, vCBS: 2.82, vNFTot: 1000 });
    const file = tempFile('reduced.xml', built.xml);
    expect(await xmllintFailures('PL_010_V1.30', [file])).toBe('');
    expect(await xmllintFailures('PL_010_V1.40', [file])).toBe('');
  });
});
