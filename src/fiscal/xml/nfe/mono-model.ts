// The model of the monophase ICMS groups on fuels (NT 2023.001), kept apart from model.ts for its size.

/**
 * Quantities scale 4 (TDec_1104v), ad rem rates scale 4 in reais per unit (TDec_0302a04), values in cents.
 * `own` is qBCMono/adRemICMS/vICMSMono (02, 15, 53), `reten` the retention of CST 15, `ret` the ICMS
 * charged earlier of CST 61; `dif` the deferral of CST 53 (vICMSMonoOp, pDif, vICMSMonoDif).
 */
export interface IcmsMonoModel {
  own?: { q: bigint; adRem: number; value: number };
  reten?: { q: bigint; adRem: number; value: number };
  reduction?: { pRedAdRem: number; motRedAdRem: 1 | 9 };
  dif?: { vICMSMonoOp: number; pDif: number; vICMSMonoDif: number };
  ret?: { q: bigint; adRem: number; value: number };
}
