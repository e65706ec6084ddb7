import type { NfeModel } from '../../../fiscal/xml/nfe/model-55.js';

const reais = (cents: number | undefined): number => (cents ?? 0) / 100;

/** Per item, the figures of a signed NF-e the API shows, in reais, and the IBS/CBS CST / cClassTrib written (when it has IBSCBS). */
export function nfeItemFigures(model: NfeModel): Array<Record<string, number | { cst: string; class_code: string }>> {
  return model.det.map((d) => ({
    nItem: d.nItem, vProd: reais(d.vProd), vDesc: reais(d.vDesc), vICMS: reais(d.icms.own?.vICMS), vST: reais(d.icms.st?.vICMSST),
    vIPI: reais(d.ipi?.trib?.vIPI), vPIS: reais(d.pis?.value), vCOFINS: reais(d.cofins?.value),
    vIBS: reais(d.ibscbs?.gIBSCBS ? d.ibscbs.gIBSCBS.vIBSUF + d.ibscbs.gIBSCBS.vIBSMun : 0), vCBS: reais(d.ibscbs?.gIBSCBS?.vCBS), vIS: reais(d.is?.vIS), vTotTrib: reais(d.vTotTrib),
    ...(d.ibscbs ? { reform: { cst: d.ibscbs.CST, class_code: d.ibscbs.cClassTrib } } : {}),
  }));
}
