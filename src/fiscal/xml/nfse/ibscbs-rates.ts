import type { NfseIbsCbsRates } from './ibscbs-values.js';

// The IBS/CBS rates Sefin Nacional applies to a competence (pIBSUF, pIBSMun, pCBS "parametrizada no sistema"),
// in hundredths of a percent; docs/fiscal/nfse-reform.md.

/**
 * By year of the competence. 2026: IBS 0.1 % of the State, none of the Municipality (LC 214/2025 art. 343), CBS
 * 0.9 % (art. 346); the real NFS-e Sefin issued (test/fixtures/samples/nfse/nfse_v1.01_RJ_...) carries exactly
 * pIBSUF 0.10, pIBSMun 0.00, pCBS 0.90. 2027 and 2028: IBS 0.05 % State + 0.05 % Municipality (art. 344); the
 * CBS is its reference rate less 0.1 point, a figure not published yet, so those years have no entry.
 */
const RATES_BY_YEAR: Readonly<Record<number, NfseIbsCbsRates>> = {
  2026: { ibsUf: 10, ibsMun: 0, cbs: 90 },
};

/** The rates of the competence dCompet (YYYY-MM-DD), or undefined when they are not known. */
export function nfseIbsCbsRatesOn(dCompet: string): NfseIbsCbsRates | undefined {
  return RATES_BY_YEAR[Number(dCompet.slice(0, 4))];
}
