import { describe, expect, it } from 'vitest';
import { loadReformTables } from './load-reform-tables.js';
import { classesFor, classificationOn, cstEntry, rateOn, ratesOn, type ClassEntry, type ReformTables } from './reform-tables.js';

// The lookups over the tables as shipped (assets/fiscal/reform, docs/fiscal/reform-tables.md) and over
// a small table written here. Expected values are read from the official spreadsheet
// "cClassTrib 2026-06-22.xlsx" and from LC 214/2025, not from the code's output.

const shipped = loadReformTables();

const flags = { ind_gTribRegular: false, ind_gCredPresOper: false, ind_gMonoPadrao: false, ind_gMonoReten: false, ind_gMonoRet: false, ind_gMonoDif: false, ind_gpBioDiferenca: false, ind_gEstornoCred: false };
const cls = (code: string, validFrom: string, validUntil?: string, documents: ClassEntry['documents'] = ['nfe']): ClassEntry => ({
  code, cst: code.slice(0, 3), name: code, description: code, pRedIBS: 0, pRedCBS: 0, rateType: 'Padrão', indicators: flags, documents, validFrom,
  ...(validUntil ? { validUntil } : {}), legalReference: 'LC 214/2025',
});
const small: ReformTables = {
  revision: 'test',
  csts: [],
  classes: [cls('000009', '2026-07-10', '2027-01-01'), cls('000008', '2026-01-01', undefined, ['nfce']), cls('000007', '2026-01-01')],
  rates: [
    { from: '2026-01-01', until: '2027-01-01', ibsState: 0.1, ibsMunicipal: 0, cbs: 0.9, simplesGroupsDue: false, source: 'a' },
    { from: '2027-01-01', ibsState: 0.05, ibsMunicipal: 0.05, cbs: null, simplesGroupsDue: true, source: 'b', note: 'not published' },
  ],
};

describe('validity: the first day in force, and the first day no longer in force', () => {
  it('a class is found from its validFrom (inclusive) to the day before its validUntil (exclusive)', () => {
    expect(classificationOn(small, '000009', '2026-07-09')).toBeUndefined();
    expect(classificationOn(small, '000009', '2026-07-10')?.code).toBe('000009');
    expect(classificationOn(small, '000009', '2026-12-31T23:59:59-03:00')?.code).toBe('000009');
    expect(classificationOn(small, '000009', '2027-01-01')).toBeUndefined();
    expect(classificationOn(small, '999999', '2026-08-01')).toBeUndefined();
  });

  it('rate periods: 31/12/2026 is in the first, 01/01/2027 in the second; before 2026 there is none', () => {
    expect(ratesOn(small, '2026-12-31')?.cbs).toBe(0.9);
    expect(ratesOn(small, '2027-01-01')?.ibsMunicipal).toBe(0.05);
    expect(ratesOn(small, '2025-12-31')).toBeUndefined();
    expect(rateOn(small, 'cbs', '2027-03-01')).toEqual({ rate: null, why: 'not published' });
    expect(rateOn(small, 'cbs', '2025-01-01')).toMatchObject({ rate: null, why: expect.stringContaining('2025-01-01') });
  });

  it('classesFor: the CST, the document and the date, in code order', () => {
    expect(classesFor(small, '000', 'nfe', '2026-08-01').map((c) => c.code)).toEqual(['000007', '000009']);
    expect(classesFor(small, '000', 'nfe', '2026-01-01').map((c) => c.code)).toEqual(['000007']);
    expect(classesFor(small, '000', 'nfce', '2026-08-01').map((c) => c.code)).toEqual(['000008']);
  });
});

describe('the tables as shipped (cClassTrib 2026-06-22, IT 2025.002)', () => {
  it('18 CSTs and 164 classes', () => {
    expect(shipped.csts).toHaveLength(18);
    expect(shipped.classes).toHaveLength(164);
    expect(shipped.revision).toContain('cClassTrib 2026-06-22');
  });

  it('CST 200 and 515 carry ind_gRed (gRed required, cStat 1033); 515 and 510 ind_gDif; 410 writes no gIBSCBS', () => {
    expect(cstEntry(shipped, '200')?.indicators).toMatchObject({ ind_gIBSCBS: true, ind_gRed: true, ind_gDif: false });
    expect(cstEntry(shipped, '515')?.indicators).toMatchObject({ ind_gRed: true, ind_gDif: true });
    expect(cstEntry(shipped, '510')?.indicators).toMatchObject({ ind_gRed: false, ind_gDif: true });
    expect(cstEntry(shipped, '410')?.indicators.ind_gIBSCBS).toBe(false);
    expect(cstEntry(shipped, '620')?.indicators.ind_gIBSCBSMono).toBe(true);
    expect(cstEntry(shipped, '222')?.indicators.ind_RedutorBC).toBe(true);
    expect(cstEntry(shipped, '999')).toBeUndefined();
  });

  it('200003 (Anexo I food): 100% reduction of IBS and CBS, LC 214 art. 125, NF-e and NFC-e', () => {
    const c = classificationOn(shipped, '200003', '2026-11-28');
    expect(c).toMatchObject({ cst: '200', pRedIBS: 100, pRedCBS: 100, rateType: 'Padrão', annex: '1', legalReference: 'LC 214/2025 art. 125', documents: ['nfe', 'nfce'] });
    // 200025 (Prouni) reduces IBS by 60% and CBS by 100%: the two columns differ.
    expect(classificationOn(shipped, '200025', '2026-11-28')).toMatchObject({ pRedIBS: 60, pRedCBS: 100, documents: ['nfse'] });
  });

  it('410004 (exports, art. 8): Sem alíquota, NF-e and NFS-e, not NFC-e', () => {
    expect(classificationOn(shipped, '410004', '2026-11-28')).toMatchObject({ rateType: 'Sem alíquota', documents: ['nfe', 'nfse'] });
    expect(classesFor(shipped, '410', 'nfce', '2026-11-28').map((c) => c.code)).not.toContain('410004');
    expect(classesFor(shipped, '410', 'nfe', '2026-11-28').map((c) => c.code)).toContain('410004');
  });

  it('220001-220003: dIniVig = dFimVig = 01/01/2026 in the table, so in force on that one day only', () => {
    expect(classificationOn(shipped, '220001', '2026-01-01')?.validUntil).toBe('2026-01-02');
    expect(classificationOn(shipped, '220001', '2026-01-02')).toBeUndefined();
    expect(classificationOn(shipped, '221002', '2026-11-28')?.cst).toBe('221');
  });

  it('rates: 2026 IBS 0.1 / 0 and CBS 0.9 (arts. 343, 346); 2027 IBS 0.05 + 0.05 (art. 344), CBS not published', () => {
    expect(ratesOn(shipped, '2026-06-01')).toMatchObject({ ibsState: 0.1, ibsMunicipal: 0, cbs: 0.9, simplesGroupsDue: false });
    expect(ratesOn(shipped, '2027-01-01')).toMatchObject({ ibsState: 0.05, ibsMunicipal: 0.05, cbs: null, simplesGroupsDue: true });
    expect(ratesOn(shipped, '2028-12-31')).toMatchObject({ ibsState: 0.05, ibsMunicipal: 0.05, cbs: null });
    const cbs2027 = rateOn(shipped, 'cbs', '2027-02-01');
    expect(cbs2027.rate).toBeNull();
    expect(cbs2027.rate === null && cbs2027.why).toContain('Senate');
    expect(ratesOn(shipped, '2030-01-01')).toMatchObject({ ibsState: null, ibsMunicipal: null, cbs: null });
  });
});
