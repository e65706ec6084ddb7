import type { NfeModel } from '../../../fiscal/xml/nfe/model.js';

const reais = (cents: number | undefined): number => (cents ?? 0) / 100;

/**
 * The figures of a signed NF-e the API shows, in reais, read from the model that was written (the
 * XML holds the same integers): ICMSTot with DIFAL, freight, insurance, IPI; per item its taxes.
 */
export function nfeFigures(model: NfeModel): { totals: Record<string, number>; items: Array<Record<string, number>> } {
  const t = model.total;
  const r = model.reformTotal;
  const totals: Record<string, number> = {
    vProd: reais(t.vProd), vDesc: reais(t.vDesc), vICMS: reais(t.vICMS), vICMSDeson: reais(t.vICMSDeson), vFCP: reais(t.vFCP),
    vBCST: reais(t.vBCST), vST: reais(t.vST), vFCPST: reais(t.vFCPST),
    ...(t.vICMSUFDest !== undefined ? { vFCPUFDest: reais(t.vFCPUFDest), vICMSUFDest: reais(t.vICMSUFDest), vICMSUFRemet: reais(t.vICMSUFRemet) } : {}),
    vFrete: reais(t.vFrete), vSeg: reais(t.vSeg), vOutro: reais(t.vOutro), vII: reais(t.vII), vIPI: reais(t.vIPI), vIPIDevol: reais(t.vIPIDevol),
    vPIS: reais(t.vPIS), vCOFINS: reais(t.vCOFINS), vNF: reais(t.vNF), vTroco: reais(model.pag.vTroco), vTotTrib: reais(t.vTotTrib),
    vIBS: reais(r?.vIBS), vCBS: reais(r?.vCBS), vIS: reais(r?.vIS), vNFTot: reais(r ? r.vNFTot : t.vNF),
  };
  const items = model.det.map((d) => ({
    nItem: d.nItem, vProd: reais(d.vProd), vDesc: reais(d.vDesc), vICMS: reais(d.icms.own?.vICMS), vST: reais(d.icms.st?.vICMSST),
    vIPI: reais(d.ipi?.trib?.vIPI), vPIS: reais(d.pis.value), vCOFINS: reais(d.cofins.value),
    vIBS: reais(d.ibscbs ? d.ibscbs.vIBSUF + d.ibscbs.vIBSMun : 0), vCBS: reais(d.ibscbs?.vCBS), vIS: reais(d.is?.vIS), vTotTrib: reais(d.vTotTrib),
  }));
  return { totals, items };
}
