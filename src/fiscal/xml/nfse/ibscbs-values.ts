import { percentOf } from '../../../kernel/decimal.js';

// The IBS/CBS figures of a national NFS-e (infNFSe/IBSCBS, TCRTCIBSCBS of tiposComplexos_v1.01.xsd), which
// Sefin Nacional computes from the DPS: the DPS carries only the classification (TCRTCInfoIBSCBS has no
// value field). Formulas from the XSD's own documentation of each field, checked against the real NFS-e
// Sefin issued in restricted production (test/fixtures/samples/nfse/nfse_v1.01_RJ_...); docs/fiscal/nfse-reform.md.
// Amounts in cents; rates and reductions in hundredths of a percent (0.90 % = 90, 60.00 % = 6000).

/** The rates "parametrizadas no sistema" for a competence: pIBSUF, pIBSMun, pCBS. */
export interface NfseIbsCbsRates {
  ibsUf: number;
  ibsMun: number;
  cbs: number;
}

/** pRedAliqUF / pRedAliqMun (the IBS reduction of the cClassTrib) and pRedAliqCBS; absent when none. */
export interface NfseIbsCbsReduction {
  ibs: number;
  cbs: number;
}

/** What the base is made of (TCRTCValoresIBSCBS/vBC), in cents. */
export interface NfseIbsCbsBaseParts {
  /** The competence (dCompet), YYYY-MM-DD: PIS and COFINS leave the base after 2026. */
  dCompet: string;
  vServ: number;
  vDescIncond: number;
  /** vCalcReeRepRes: the reimbursed, passed-on or repaid amounts of IBSCBS/valores/gReeRepRes. */
  vCalcReeRepRes: number;
  /** The ISSQN of the NFS-e (valores/vISSQN), withheld or not. */
  vISSQN: number;
  /** PIS and COFINS due (DPS tribFed/piscofins vPis, vCofins; not what is withheld, NT SE/CGNFS-e 007). */
  vPis: number;
  vCofins: number;
}

export interface NfseIbsCbsRate {
  /** pIBSUF, pIBSMun or pCBS. */
  rate: number;
  /** pRedAliqUF, pRedAliqMun or pRedAliqCBS: written only when the classification reduces the rate. */
  reduction?: number;
  /** pAliqEfetUF, pAliqEfetMun or pAliqEfetCBS, 2 decimals (TSDec2V2). */
  effective: number;
}

export interface NfseIbsCbsValues {
  vBC: number;
  vCalcReeRepRes: number;
  uf: NfseIbsCbsRate;
  mun: NfseIbsCbsRate;
  fed: NfseIbsCbsRate;
  vIBSUF: number;
  vIBSMun: number;
  vIBSTot: number;
  vCBS: number;
  vTotNF: number;
}

/** The year of the last competence whose base still excludes PIS and COFINS (XSD vBC: "até 2026"). */
export const PIS_COFINS_IN_BASE_UNTIL = 2026;

/**
 * XSD TCRTCValoresIBSCBS/vBC: vServ - descIncond - vCalcReeRepRes - vISSQN - vPIS - vCOFINS for competences
 * up to 2026, and vServ - descIncond - vCalcReeRepRes - vISSQN from 2027 to 2032 (PIS and COFINS end with
 * 2026, EC 132/2023). Never below zero.
 */
export function nfseIbsCbsBase(p: NfseIbsCbsBaseParts): number {
  const federal = Number(p.dCompet.slice(0, 4)) <= PIS_COFINS_IN_BASE_UNTIL ? p.vPis + p.vCofins : 0;
  return Math.max(0, p.vServ - p.vDescIncond - p.vCalcReeRepRes - p.vISSQN - federal);
}

/**
 * XSD pAliqEfetUF = pIBSUF x (1 - pRedAliqUF) x (1 - pRedutor), "se pRedAliqUF não for informado, a própria
 * pIBSUF" (the same for Mun and CBS); rounded half up to the 2 decimals of TSDec2V2. pRedutor (government
 * purchases) is not offered.
 */
function rateOf(rate: number, reduction: number | undefined): NfseIbsCbsRate {
  if (reduction === undefined) return { rate, effective: rate };
  return { rate, reduction, effective: Math.round((rate * (10_000 - reduction)) / 10_000) };
}

/** The values group and the totals (TCRTCTotalCIBS) of a competence, given its rates and the net value vLiq. */
export function nfseIbsCbsValues(p: NfseIbsCbsBaseParts, rates: NfseIbsCbsRates, vLiq: number, reduction?: NfseIbsCbsReduction): NfseIbsCbsValues {
  const vBC = nfseIbsCbsBase(p);
  const uf = rateOf(rates.ibsUf, reduction?.ibs);
  const mun = rateOf(rates.ibsMun, reduction?.ibs);
  const fed = rateOf(rates.cbs, reduction?.cbs);
  // XSD vIBSUF = vBC x (pIBSUF ou pAliqEfetUF); vIBSMun, vCBS alike; vIBSTot = vIBSUF + vIBSMun.
  const vIBSUF = percentOf(vBC, uf.effective * 100);
  const vIBSMun = percentOf(vBC, mun.effective * 100);
  const vCBS = percentOf(vBC, fed.effective * 100);
  const vIBSTot = vIBSUF + vIBSMun;
  // XSD vTotNF: "vTotNF = vLiq (em 2026); vTotNF = vLiq + vCBS + vIBSTot (a partir de 2027)": taxes charged on top.
  const vTotNF = Number(p.dCompet.slice(0, 4)) <= 2026 ? vLiq : vLiq + vCBS + vIBSTot;
  return { vBC, vCalcReeRepRes: p.vCalcReeRepRes, uf, mun, fed, vIBSUF, vIBSMun, vIBSTot, vCBS, vTotNF };
}
