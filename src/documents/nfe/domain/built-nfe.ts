import type { NfeModel } from '../../../fiscal/xml/nfe/model-55.js';

// The figures of a built NF-e the API answers and the DANFE show: JSON numbers in reais
// (2 decimals), derived from the integer cents the XML carries.

export interface BuiltNfeTotals {
  vProd: number; vDesc: number; vICMSDeson: number; vBC: number; vICMS: number; vST: number; vFCPST: number;
  vFrete: number; vSeg: number; vOutro: number; vIPI: number; vPIS: number; vCOFINS: number;
  vFCPUFDest: number; vICMSUFDest: number; vICMSUFRemet: number; vNF: number; vTroco: number; vTotTrib: number;
  vIBS: number; vCBS: number; vIS: number;
  /** vNFTot: vNF + IBS + CBS + IS on a note dated 2027 or later with the reform group; otherwise vNF (NT VB01-10, W60-10). */
  vNFTot: number;
}

const reais = (cents: number | undefined): number => (cents ?? 0) / 100;

export function builtNfeTotals(model: NfeModel): BuiltNfeTotals {
  const t = model.total;
  const r = model.reformTotal;
  return {
    vProd: reais(t.vProd), vDesc: reais(t.vDesc), vICMSDeson: reais(t.vICMSDeson), vBC: reais(t.vBC), vICMS: reais(t.vICMS), vST: reais(t.vST),
    vFCPST: reais(t.vFCPST), vFrete: reais(t.vFrete), vSeg: reais(t.vSeg), vOutro: reais(t.vOutro), vIPI: reais(t.vIPI), vPIS: reais(t.vPIS),
    vCOFINS: reais(t.vCOFINS), vFCPUFDest: reais(t.vFCPUFDest), vICMSUFDest: reais(t.vICMSUFDest), vICMSUFRemet: reais(t.vICMSUFRemet),
    vNF: reais(t.vNF), vTroco: reais(model.pag.vTroco), vTotTrib: reais(t.vTotTrib), vIBS: reais(r?.vIBS), vCBS: reais(r?.vCBS), vIS: reais(r?.vIS),
    vNFTot: reais(r ? r.vNFTot : t.vNF),
  };
}
