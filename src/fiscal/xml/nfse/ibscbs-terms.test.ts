import { describe, expect, it } from 'vitest';
import { NFSE_REFORM_TABLES as T } from '../../../../test/support/reform-tables-nfse.js';
import { nfseClassOn, nfseIbsCbsTerms } from './ibscbs-terms.js';
import { nfseIbsCbsValues } from './ibscbs-values.js';

// Rates and reductions from the reform tables (rows of the official cClassTrib table in the fixture), figures by
// hand from the XSD: pAliqEfet = p x (1 - pRedAliq), v = vBC x pAliqEfet (docs/fiscal/nfse-reform.md).

const service = { dCompet: '2026-05-04', vServ: 100_000, vDescIncond: 0, vCalcReeRepRes: 0, vISSQN: 0, vPis: 0, vCofins: 0 };

describe('the IBS/CBS terms of a DPS from the reform tables', () => {
  it('education of Anexo II (200028, pRedIBS = pRedCBS = 60 %): R$ 1,000.00 pays IBS UF 0.40 and CBS 3.60 in 2026', () => {
    const terms = nfseIbsCbsTerms(T, '200', '200028', '2026-05-04')!;
    expect(terms).toEqual({ rates: { ibsUf: 10, ibsMun: 0, cbs: 90 }, reduction: { ibs: 6_000, cbs: 6_000 } });
    // 0.10 x (1 - 0.60) = 0.04 %; 0.90 x 0.40 = 0.36 %; 1000.00 x 0.04 % = 0.40; 1000.00 x 0.36 % = 3.60.
    const v = nfseIbsCbsValues(service, terms.rates, 100_000, terms.reduction);
    expect(v).toMatchObject({ uf: { rate: 10, reduction: 6_000, effective: 4 }, fed: { rate: 90, reduction: 6_000, effective: 36 }, vIBSUF: 40, vIBSMun: 0, vCBS: 360 });
  });

  it('regulated intellectual professions (200052, 30 %): 0.07 % and 0.63 %, R$ 0.70 and R$ 6.30 on R$ 1,000.00', () => {
    const terms = nfseIbsCbsTerms(T, '200', '200052', '2026-05-04')!;
    const v = nfseIbsCbsValues(service, terms.rates, 100_000, terms.reduction);
    expect(v).toMatchObject({ uf: { effective: 7 }, fed: { effective: 63 }, vIBSUF: 70, vCBS: 630 });
  });

  it('full taxation (000001) writes no reduction; none for a class not of the NFS-e, one without a rate, or 2027 (no CBS rate)', () => {
    expect(nfseIbsCbsTerms(T, '000', '000001', '2026-05-04')).toEqual({ rates: { ibsUf: 10, ibsMun: 0, cbs: 90 } });
    expect(nfseClassOn(T, '200003', '2026-05-04')).toBeUndefined();
    expect(nfseIbsCbsTerms(T, '200', '200003', '2026-05-04')).toBeUndefined();
    expect(nfseIbsCbsTerms(T, '410', '410004', '2026-05-04')).toBeUndefined();
    expect(nfseIbsCbsTerms(T, '000', '000001', '2027-02-01')).toBeUndefined();
    expect(nfseClassOn(T, '000001', '2025-12-31')).toBeUndefined();
  });

  it('without the tables: CST 000 at the 2026 rates, nothing else', () => {
    expect(nfseIbsCbsTerms(undefined, '000', '000001', '2026-05-04')).toEqual({ rates: { ibsUf: 10, ibsMun: 0, cbs: 90 } });
    expect(nfseIbsCbsTerms(undefined, '200', '200028', '2026-05-04')).toBeUndefined();
  });
});
