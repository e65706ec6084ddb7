import type { NfceModel } from '../../../fiscal/xml/nfe/model.js';

// What buildNfce hands back: the signed document plus the figures the API and DANFE show.
// Amounts here are JSON numbers in reais (2 decimals), derived from the integer cents written.

export interface BuiltNfceItem {
  nItem: number;
  vProd: number;
  vDesc: number;
  vICMS: number;
  vST: number;
  vPIS: number;
  vCOFINS: number;
  vIBS: number;
  vCBS: number;
  vIS: number;
  vTotTrib: number;
  /** The IBS/CBS CST and cClassTrib written in the item's IBSCBS (absent when the note carries no reform group). */
  reform?: { cst: string; class_code: string };
}

export interface BuiltNfceTotals {
  vProd: number;
  vDesc: number;
  vICMS: number;
  vST: number;
  vFCPST: number;
  vPIS: number;
  vCOFINS: number;
  vNF: number;
  vTroco: number;
  vTotTrib: number;
  vIBS: number;
  vCBS: number;
  vIS: number;
  /** vNF + IBS + CBS + IS (only with the reform group; otherwise equal to vNF). */
  vNFTot: number;
}

export interface BuiltNfce {
  /** `<NFe xmlns="http://www.portalfiscal.inf.br/nfe">` with infNFe, infNFeSupl and Signature. */
  xml: string;
  accessKey: string;
  cNF: string;
  nNF: number;
  serie: number;
  tpEmis: 1 | 4 | 9;
  /** dhEmi as written (issuer local offset). */
  dhEmi: string;
  /** base64 SHA-1 of the canonical infNFe (protNFe/digVal must match it). */
  digestValue: string;
  qrCodeUrl: string;
  urlChave: string;
  /** The XSD package the document is meant for (PL_010 when reform groups or an alphanumeric CNPJ). */
  schemaPackage: 'PL_009' | 'PL_010';
  totals: BuiltNfceTotals;
  items: BuiltNfceItem[];
}

const reais = (cents: number | undefined): number => (cents ?? 0) / 100;

export function builtNfceSummary(
  model: NfceModel,
  out: Pick<BuiltNfce, 'xml' | 'qrCodeUrl' | 'urlChave' | 'digestValue' | 'schemaPackage'>,
): BuiltNfce {
  const t = model.total;
  const r = model.reformTotal;
  return {
    ...out,
    accessKey: model.accessKey,
    cNF: model.ide.cNF,
    nNF: model.ide.nNF,
    serie: model.ide.serie,
    tpEmis: model.ide.tpEmis,
    dhEmi: model.ide.dhEmi,
    totals: {
      vProd: reais(t.vProd), vDesc: reais(t.vDesc), vICMS: reais(t.vICMS), vST: reais(t.vST), vFCPST: reais(t.vFCPST),
      vPIS: reais(t.vPIS), vCOFINS: reais(t.vCOFINS), vNF: reais(t.vNF), vTroco: reais(model.pag.vTroco), vTotTrib: reais(t.vTotTrib),
      vIBS: reais(r?.vIBS), vCBS: reais(r?.vCBS), vIS: reais(r?.vIS), vNFTot: reais(r ? r.vNFTot : t.vNF),
    },
    items: model.det.map((d) => ({
      nItem: d.nItem, vProd: reais(d.vProd), vDesc: reais(d.vDesc), vICMS: reais(d.icms.own?.vICMS), vST: reais(d.icms.st?.vICMSST),
      vPIS: reais(d.pis?.value), vCOFINS: reais(d.cofins?.value), vIBS: reais(d.ibscbs?.gIBSCBS ? d.ibscbs.gIBSCBS.vIBSUF + d.ibscbs.gIBSCBS.vIBSMun : 0),
      vCBS: reais(d.ibscbs?.gIBSCBS?.vCBS), vIS: reais(d.is?.vIS), vTotTrib: reais(d.vTotTrib),
      ...(d.ibscbs ? { reform: { cst: d.ibscbs.CST, class_code: d.ibscbs.cClassTrib } } : {}),
    })),
  };
}
