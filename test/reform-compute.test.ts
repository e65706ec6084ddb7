import { describe, expect, it } from 'vitest';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { Issuer } from '../src/documents/goods/domain/issuer-context.js';
import { schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { tempFile } from './support/xml-tools.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';

// The IBS/CBS base and rates of NF-e and NFC-e, every figure computed by hand from
// the sources named in docs/fiscal/tax-reform.md ("The base", "Rates by date").

const reformNfe = { ...NFE_CONTEXT, taxReform: true };
const JAN_2027 = new Date('2027-01-15T15:00:00Z');

/** Interstate sale SP -> RJ to a final consumer: the one fixture with freight, IPI, ICMS and DIFAL. */
describe('the base (NT 2025.002-RTC UB16-10; LC 214/2025 art. 12 par. 1 IV and par. 2 II, III, V)', () => {
  it('NF-e 2026: vProd + vFrete - vDesc - vPIS - vCOFINS - vICMS - vFCP - vICMSUFDest - vFCPUFDest, IPI out', async () => {
    const p = prepareNfe(interstateRequest(), reformNfe);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const built = buildPreparedNfe(p.nfe, nfeDocumentContext());
    // Freight 40.00 split by value 3000.00 : 101.00 -> 38.70 and 1.30.
    // Notebook: charged 3000.00 + 38.70 = 3038.70; IPI 10% = 303.87 (LC 214 art. 12 par. 2 II: out of
    // the base; vProd does not hold it). ICMS 12% on 3038.70 + 303.87 = 3342.57 (final consumer) =
    // 401.11; DIFAL (20 - 12)% of 3342.57 = 267.41, FCP 2% = 66.85; PIS 0.65% of 3000.00 = 19.50,
    // COFINS 3% = 90.00. Base = 3038.70 - 19.50 - 90.00 - 401.11 - 267.41 - 66.85 = 2193.83
    // (not 3000.00, what the item's vProd - vDesc gave before); IBS 0.1% = 2.19383 -> 2.19; CBS 0.9% = 19.74447 -> 19.74.
    expect(built.xml).toContain('<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib><gIBSCBS><vBC>2193.83</vBC><gIBSUF><pIBSUF>0.10</pIBSUF><vIBSUF>2.19</vIBSUF></gIBSUF>');
    expect(built.xml).toContain('<gCBS><pCBS>0.90</pCBS><vCBS>19.74</vCBS></gCBS>');
    // Mouse (ICMS CST 40): 101.00 + 1.30 = 102.30 - PIS 0.66 (0.6565) - COFINS 3.03 = 98.61;
    // IBS 0.09861 -> 0.10; CBS 0.88749 -> 0.89.
    expect(built.xml).toContain('<gIBSCBS><vBC>98.61</vBC><gIBSUF><pIBSUF>0.10</pIBSUF><vIBSUF>0.10</vIBSUF></gIBSUF>');
    expect(built.xml).toContain('<gCBS><pCBS>0.90</pCBS><vCBS>0.89</vCBS></gCBS>');
    // Totals: vBCIBSCBS 2193.83 + 98.61 = 2292.44; vIBS 2.29; vCBS 20.63; vNF 3444.87 (3101.00 +
    // 40.00 + IPI 303.87); vNFTot = vNF = 3444.87 in 2026 (NT 2025.002 VB01-10 Exceção 1, W60-10: IBS/CBS
    // enter the total only from 2027).
    expect(built.xml).toContain('<IBSCBSTot><vBCIBSCBS>2292.44</vBCIBSCBS>');
    expect(built.totals).toMatchObject({ vNF: 3444.87, vIBS: 2.29, vCBS: 20.63, vNFTot: 3444.87 });
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('base-nfe.xml', built.xml)])).toBe('');
  });
});

const sale = (reform?: Record<string, unknown>) => simpleSale({
  items: [{ description: 'Cafe torrado', quantity: 1, unit_price: 100, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, ...(reform ? { reform } : {}) }],
  payment: { method: 'pix', amount: 100 },
});
const SIMPLES: Issuer = { ...NUMERIC_ISSUER, crt: 1 };

describe('rates by the note\'s date (LC 214/2025 arts. 343, 344, 346, 347)', () => {
  it('2027: every issuer carries the group, legacy account too; IBS 0.05 + 0.05, the CBS rate the client sent, base without PIS/COFINS', async () => {
    const built = buildNfce(sale({ cbs_rate: 8.8 }), testContext(NUMERIC_ISSUER, { taxReform: false, emittedAt: JAN_2027 }));
    // 2027: PIS and COFINS leave the base (they end with 2026); ICMS stays out until 2032:
    // 100.00 - 18.00 = 82.00. IBS UF 0.05% = 0.041 -> 0.04; Mun 0.04; CBS 8.8% = 7.216 -> 7.22.
    expect(built.xml).toContain(
      '<gIBSCBS><vBC>82.00</vBC><gIBSUF><pIBSUF>0.05</pIBSUF><vIBSUF>0.04</vIBSUF></gIBSUF><gIBSMun><pIBSMun>0.05</pIBSMun><vIBSMun>0.04</vIBSMun></gIBSMun>' +
      '<vIBS>0.08</vIBS><gCBS><pCBS>8.80</pCBS><vCBS>7.22</vCBS></gCBS></gIBSCBS>',
    );
    expect(built.totals).toMatchObject({ vNF: 100, vIBS: 0.08, vCBS: 7.22, vNFTot: 107.3 });
    expect(built.schemaPackage).toBe('PL_010');
    expect(schemaPackageFor(65, '2027-01-15T12:00:00-03:00', 2)).toMatch(/^PL_010/);
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('rates-2027.xml', built.xml)])).toBe('');
  });

  it('2026: a legacy account carries no group; reform_2026 the test rates', () => {
    expect(buildNfce(sale(), testContext(NUMERIC_ISSUER, { taxReform: false })).xml).not.toContain('<IBSCBS>');
    expect(buildNfce(sale(), testContext(NUMERIC_ISSUER, { taxReform: true })).xml).toContain('<pIBSUF>0.10</pIBSUF>');
  });

  it('Simples Nacional in 2027: the SN base keeps the ICMS (only vDesc comes out)', () => {
    const built = buildNfce({ ...sale({ cbs_rate: 8.8 }), items: [{ ...sale().items[0]!, cst_icms: '102', pICMS: undefined, reform: { cbs_rate: 8.8 } }] }, testContext(SIMPLES, { taxReform: false, emittedAt: JAN_2027 }));
    // Base 100.00; IBS UF 0.05, Mun 0.05, CBS 8.80.
    expect(built.xml).toContain('<vBC>100.00</vBC><gIBSUF><pIBSUF>0.05</pIBSUF><vIBSUF>0.05</vIBSUF></gIBSUF>');
    expect(built.totals).toMatchObject({ vIBS: 0.1, vCBS: 8.8, vNFTot: 108.9 });
  });

  it('a note prepared in 2027 without the CBS rate is refused naming items[0].reform.cbs_rate', () => {
    const req = interstateRequest();
    const p = prepareNfe(req, { ...NFE_CONTEXT, today: '2027-01-05' });
    expect(p.ok ? [] : p.errors.map((e) => e.field)).toEqual(['items[0].reform.cbs_rate', 'items[1].reform.cbs_rate']);
    expect(p.ok ? '' : p.errors[0]!.message).toContain('art. 347');
  });

  it('a rate that is not the year\'s is refused (UB18-10, 1026; UB56-10, 1037), naming the field', () => {
    const req = interstateRequest();
    req.items[0]!.reform = { ibs_state_rate: 0.2 };
    req.items[1]!.reform = { cbs_rate: 0.9 };
    const p = prepareNfe(req, reformNfe);
    expect(p.ok ? [] : p.errors.map((e) => e.field)).toEqual(['items[0].reform.ibs_state_rate']);
    expect(p.ok ? '' : p.errors[0]!.message).toContain('0.10');
  });
});

const classed = (reform: Record<string, unknown>) => sale(reform);

describe('classification from the tables (fiscal/reform; NT 2025.002-RTC UB13-10, UB14-10, UB14-20)', () => {
  const prepare = (reform: Record<string, unknown>) => prepareNfce(classed(reform), testContext(NUMERIC_ISSUER, { taxReform: true }));
  const fields = (r: ReturnType<typeof prepare>) => (r.ok ? [] : r.errors.map((e) => `${e.field}: ${e.message}`));

  it('refuses an unknown CST (1020), an unknown cClassTrib (1023) and one of another CST (1024)', () => {
    expect(fields(prepare({ cst: '999', class_code: '999001' }))).toEqual([expect.stringMatching(/^items\[0\]\.reform\.cst: .*cStat 1020/)]);
    expect(fields(prepare({ cst: '000', class_code: '000999' }))).toEqual([expect.stringMatching(/^items\[0\]\.reform\.class_code: .*cStat 1023/)]);
    expect(fields(prepare({ cst: '000', class_code: '200030' }))).toEqual([expect.stringMatching(/^items\[0\]\.reform\.class_code: 200030 belongs to CST 200.*cStat 1024/)]);
  });

  it('refuses a cClassTrib the table does not mark for the NFC-e (200011: NF-e only)', () => {
    expect(fields(prepare({ cst: '200', class_code: '200011' }))).toEqual([expect.stringMatching(/^items\[0\]\.reform\.class_code: 200011 (may not be used|is not allowed) in an NFC-e/)]);
  });

  it('refuses a cClassTrib out of its validity on the day (220001: 01/01/2026 only)', () => {
    const req = interstateRequest();
    req.items[0]!.reform = { cst: '220', class_code: '220001' };
    const p = prepareNfe(req, reformNfe);
    expect(p.ok ? [] : p.errors.map((e) => e.field)).toEqual(['items[0].reform.class_code']);
    expect(p.ok ? '' : p.errors[0]!.message).toMatch(/not (a cClassTrib )?in force on 2026-/);
  });

  it('refuses deferral (CST 510, gDif) without its percentage (worked cases: test/reform-deferral.test.ts)', () => {
    const req = interstateRequest();
    req.items[0]!.reform = { cst: '510', class_code: '510001' };
    const p = prepareNfe(req, reformNfe);
    expect(p.ok ? [] : p.errors.map((e) => e.field)).toEqual(['items[0].reform.deferral_rate']);
    expect(p.ok ? '' : p.errors[0]!.message).toContain('gDif');
  });

  it('100% reduction of the cesta básica (200003, LC 214/2025 art. 125, Anexo I): gRed 100, nothing charged', async () => {
    const built = buildNfce(classed({ cst: '200', class_code: '200003' }), testContext(NUMERIC_ISSUER, { taxReform: true }));
    // Base 78.35 (as above); pAliqEfet 0.10 x 0 = 0 and 0.90 x 0 = 0.
    expect(built.xml).toContain('<gCBS><pCBS>0.90</pCBS><gRed><pRedAliq>100.00</pRedAliq><pAliqEfet>0.00</pAliqEfet></gRed><vCBS>0.00</vCBS></gCBS>');
    expect(built.totals).toMatchObject({ vIBS: 0, vCBS: 0, vNFTot: 100 });
    expect(await xmllintFailures('PL_010_V1.40', [tempFile('cesta.xml', built.xml)])).toBe('');
  });
});
