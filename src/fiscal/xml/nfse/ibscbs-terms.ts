import { classificationOn, cstEntry, ratesOn, type ClassEntry, type ReformTables } from '../../reform/reform-tables.js';
import { nfseIbsCbsRatesOn } from './ibscbs-rates.js';
import type { NfseIbsCbsRates, NfseIbsCbsReduction } from './ibscbs-values.js';

// What the reform tables (fiscal/reform: CST, cClassTrib, rates per period) say about the IBS/CBS of a DPS:
// whether its classification exists for the NFS-e on the competence (Anexo I E0958), whether it needs the
// regular-taxation group (E0964 / E0965), and the rates and reductions Sefin computes with
// (docs/fiscal/nfse-reform.md). Without tables (their data not installed), CST 000 at the built-in 2026 rates.

/** E0958: the class, in force on the competence and marked for the NFS-e (indNFSe), or undefined. */
export function nfseClassOn(tables: ReformTables, cClassTrib: string, dCompet: string): ClassEntry | undefined {
  const c = classificationOn(tables, cClassTrib, dCompet);
  return c && c.documents.includes('nfse') ? c : undefined;
}

export interface NfseIbsCbsTerms {
  rates: NfseIbsCbsRates;
  /** pRedAliq of the IBS (UF and Mun) and of the CBS, when the class reduces the rate. */
  reduction?: NfseIbsCbsReduction;
}

/** Percent (60.00) -> hundredths of a percent (6000). */
const hundredths = (percent: number | null) => (percent === null ? undefined : Math.round(percent * 100));

/** The rates of the period in force on dCompet, undefined while any of them is not published. */
function ratesOf(tables: ReformTables, dCompet: string): NfseIbsCbsRates | undefined {
  const p = ratesOn(tables, dCompet);
  const [ibsUf, ibsMun, cbs] = [hundredths(p?.ibsState ?? null), hundredths(p?.ibsMunicipal ?? null), hundredths(p?.cbs ?? null)];
  return ibsUf !== undefined && ibsMun !== undefined && cbs !== undefined ? { ibsUf, ibsMun, cbs } : undefined;
}

/**
 * The rates and reductions for a DPS's CST / cClassTrib on its competence, or undefined when the values are not
 * computed: no such class for the NFS-e, a class without a rate ("Sem alíquota": immunity, export, ...), one
 * whose CST carries no gIBSCBS, or one needing groups not computed here (regular taxation, presumed credit).
 */
export function nfseIbsCbsTerms(tables: ReformTables | undefined, cst: string, cClassTrib: string, dCompet: string): NfseIbsCbsTerms | undefined {
  if (!tables) {
    const rates = nfseIbsCbsRatesOn(dCompet);
    return cst === '000' && rates ? { rates } : undefined;
  }
  const rates = ratesOf(tables, dCompet);
  const c = nfseClassOn(tables, cClassTrib, dCompet);
  if (!rates || !c || c.cst !== cst || c.rateType === 'Sem alíquota' || !cstEntry(tables, cst)?.indicators.ind_gIBSCBS) return undefined;
  if (c.indicators.ind_gTribRegular || c.indicators.ind_gCredPresOper) return undefined;
  const ibs = hundredths(c.pRedIBS)!;
  const cbs = hundredths(c.pRedCBS)!;
  return ibs > 0 || cbs > 0 ? { rates, reduction: { ibs, cbs } } : { rates };
}
