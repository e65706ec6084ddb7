import type { DetModel } from '../../../fiscal/xml/nfe/model.js';

// The IBS/CBS base of an item (gIBSCBS/vBC), NT 2025.002-RTC rule UB16-10 (cStat 1104, "base de
// cálculo difere do somatório"), in the terms of LC 214/2025 art. 12: the value of the operation
// with freight, insurance and other charges (par. 1 IV, VI), without unconditional discounts
// (par. 2 III), the IPI (par. 2 II) nor, during the transition, the ICMS, ISS, PIS and COFINS of
// the operation (par. 2 V). Which field enters in which year is the official calculator's catalogue
// of the "base unificada" for models 55/65 (Receita Federal/SERPRO calculadora RTC,
// ElementoBaseCalculo): docs/fiscal/tax-reform.md, "The base".
//
//   regime normal:  vProd + vFrete + vSeg + vOutro + vII + vIS(2027+) - vDesc
//                   - vPIS - vCOFINS (2026 only: both end in 2027)
//                   - vICMS - vFCP - vICMSUFDest - vFCPUFDest - vICMSMono (until 2032)
//   Simples (SN):   vProd + vFrete + vSeg + vOutro + vII + vIS(2027+) - vDesc
//
// vII is the item's import tax (imposto/II of an NF-e import). The calculator's SN list leaves it out, but
// on an import the law adds it for every importer (LC 214/2025 art. 69 I: "valor aduaneiro acrescido de:
// I - Imposto sobre a Importação") and so does UB16-10, which has no Simples exception; an SN item carries
// one only on an import note. vICMSMono and vISSQN are never written by this gateway (no monophase fuels
// nor ISSQN items), so they are zero here.

/** In cents. vIS is the item's selective tax, computed before (its own base does not hold IBS/CBS). */
export function ibsCbsBase(d: DetModel, year: number, simples: boolean, vIS: number): number {
  let base = d.vProd + (d.vFrete ?? 0) + (d.vSeg ?? 0) + (d.vOutro ?? 0) - d.vDesc;
  if (year >= 2027) base += vIS;
  base += d.ii?.vII ?? 0;
  if (simples) return base;
  if (year <= 2026) base -= (d.pis?.value ?? 0) + (d.cofins?.value ?? 0);
  if (year <= 2032) {
    base -= (d.icms.own?.vICMS ?? 0) + (d.icms.own?.fcp?.vFCP ?? 0);
    base -= (d.icmsUfDest?.vICMSUFDest ?? 0) + (d.icmsUfDest?.fcp?.vFCPUFDest ?? 0);
  }
  return Math.max(0, base);
}
