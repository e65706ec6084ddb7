import type { IbsCbsGroupModel, IbsCbsRegularModel } from '../../../fiscal/xml/nfe/model.js';
import { mulDivRound, percentOf } from '../../../kernel/decimal.js';
import type { ReformRates } from './reform-rates.js';

// Deferral (gDif) and regular taxation (gTribRegular) of an item's gIBSCBS, NT 2025.002-RTC
// (docs/fiscal/tax-reform.md, "Deferral" and "Suspension"). Rates are percent scaled by 10^4, values cents.
//
// Deferral, CST 510 / 515 (ind_gDif 1): in each sphere (IBS UF, IBS Mun, CBS)
//   vDif = vBC x (rate / 100) x (pDif / 100)      UB23-10, UB42-10, UB61-10 (the pAliqEfet of gRed when there is one)
//   v    = vBC x (rate / 100) - vDif               UB35-10, UB54-10, UB67-10 (vDevTrib is never written)
// each value rounded half up to the cent; the NT accepts 0.01 either way.
//
// Regular taxation, a cClassTrib with ind_gTribRegular 1 (the CST 550 suspensions): the item's own rates are 0
// (UB18-10, UB37-10, UB56-10, exception) and gTribRegular says how it would be taxed without the suspension:
//   pAliqEfetRegX = the rate of the year x (1 - pRed of cClassTribReg / 100), 4 places
//   vTribRegX     = vBC x (pAliqEfetRegX / 100)   UB72-10, UB72b-10, UB72d-10

/** rate x (1 - reduction/100), both scaled by 10^4, rounded to the 4 decimals of TDec_0302_04RTC (UB28-10). */
export const effectiveRate = (rate4: number, red4: number): number => Number(mulDivRound(BigInt(rate4), BigInt(1_000_000 - red4), 1_000_000n));

/** vBC x rate% x pDif%, rounded half up to the cent. */
export const deferredValue = (vBC: number, rate4: number, pDif4: number): number => Number(mulDivRound(BigInt(vBC) * BigInt(rate4), BigInt(pDif4), 1_000_000_000_000n));

/** The group with gDif in its three spheres and each value less its deferred part. */
export function withDeferral(g: IbsCbsGroupModel, pDif: number): IbsCbsGroupModel {
  const vDifUF = deferredValue(g.vBC, g.gRed?.pAliqEfetUF ?? g.pIBSUF, pDif);
  const vDifMun = deferredValue(g.vBC, g.gRed?.pAliqEfetMun ?? g.pIBSMun, pDif);
  const vDifCBS = deferredValue(g.vBC, g.gRed?.pAliqEfetCBS ?? g.pCBS, pDif);
  return { ...g, vIBSUF: g.vIBSUF - vDifUF, vIBSMun: g.vIBSMun - vDifMun, vCBS: g.vCBS - vDifCBS, gDif: { pDif, vDifUF, vDifMun, vDifCBS } };
}

/** CSTReg / cClassTribReg and, when the regular CST reduces the rates (ind_gRed), the regular class's pRedIBS / pRedCBS (scale 4). */
export interface RegularPlan {
  CST: string;
  cClassTrib: string;
  reduction?: { ibs: number; cbs: number };
}

/** gTribRegular on the item's base at the rates the regular taxation would charge. */
export function regularTaxationOf(r: RegularPlan, vBC: number, rates: { [K in keyof ReformRates]: number }): IbsCbsRegularModel {
  const uf = effectiveRate(rates.ibsState, r.reduction?.ibs ?? 0);
  const mun = effectiveRate(rates.ibsMunicipal, r.reduction?.ibs ?? 0);
  const cbs = effectiveRate(rates.cbs, r.reduction?.cbs ?? 0);
  return {
    CSTReg: r.CST,
    cClassTribReg: r.cClassTrib,
    pAliqEfetRegIBSUF: uf,
    vTribRegIBSUF: percentOf(vBC, uf),
    pAliqEfetRegIBSMun: mun,
    vTribRegIBSMun: percentOf(vBC, mun),
    pAliqEfetRegCBS: cbs,
    vTribRegCBS: percentOf(vBC, cbs),
  };
}
