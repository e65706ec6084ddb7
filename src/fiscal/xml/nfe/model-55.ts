import type { DestModel, DetModel, DetPagModel, EmitModel, IcmsTotModel, IdeModel, ReformTotModel, RespTecModel, TransportaModel } from './model.js';

// The NF-e (model 55) as the layout sees it. It shares emit, det, totals, pag and infRespTec with
// the NFC-e (model.ts); what only model 55 has is here: the ide choices the NFC-e fixes, a
// mandatory recipient, authorized downloaders, freight, billing and the tax authority's notes.

export interface NfeIdeModel extends Omit<IdeModel, 'indPres' | 'tpEmis'> {
  mod: 55;
  /** 0 inbound, 1 outbound. */
  tpNF: 0 | 1;
  /** 1 internal, 2 interstate, 3 abroad. */
  idDest: 1 | 2 | 3;
  /** 1 portrait DANFE (4/5 are NFC-e only, 710). */
  tpImp: 0 | 1 | 2 | 3;
  /** 1 normal, 4 EPEC, 6 SVC-AN, 7 SVC-RS (contingency needs dhCont/xJust, MOC B28-20). */
  tpEmis: 1 | 4 | 6 | 7;
  /** 1 normal, 2 complementary, 3 adjustment, 4 return, 5 credit note, 6 debit note (PL_010). */
  finNFe: 1 | 2 | 3 | 4 | 5 | 6;
  /** TTpNFDebito (01-08), with finNFe 6 only (NT 2025.002-RTC B25.1). */
  tpNFDebito?: string;
  /** TTpNFCredito (01-06), with finNFe 5 only (NT 2025.002-RTC B25.2). */
  tpNFCredito?: string;
  indFinal: 0 | 1;
  /** 0 n/a, 1 presential, 2 internet, 3 telephone, 5 presential outside, 9 other (4 is NFC-e only, 794). */
  indPres: 0 | 1 | 2 | 3 | 5 | 9;
  /** Required (NT 2020.006, B25c-10) when indPres is 2, 3 or 9; forbidden otherwise (435). */
  indIntermed?: 0 | 1;
  /** Access keys of the referenced NF-e (refNFe), 0..999. */
  NFref: string[];
  /** gCompraGov (B31, TCompraGov): a purchase by a public entity (reform-government-purchase.ts). */
  gCompraGov?: { tpEnteGov: number; pRedutor: number; tpOperGov: number };
}

export interface AutXmlModel {
  CNPJ?: string;
  CPF?: string;
}

export interface VolModel {
  qVol?: number;
  esp?: string;
  marca?: string;
  nVol?: string;
  /** Kilograms, scale 3 (TDec_1203). */
  pesoL?: number;
  pesoB?: number;
}

export interface TranspModel {
  /** 0 sender (CIF), 1 recipient (FOB), 2 third party, 3 own by sender, 4 own by recipient, 9 no freight. */
  modFrete: 0 | 1 | 2 | 3 | 4 | 9;
  transporta?: TransportaModel;
  veicTransp?: { placa: string; UF?: string; RNTC?: string };
  vol: VolModel[];
}

export interface CobrModel {
  fat?: { nFat: string; vOrig: number; vDesc: number; vLiq: number };
  dup: Array<{ nDup: string; dVenc: string; vDup: number }>;
}

export interface NfeModel {
  accessKey: string;
  ide: NfeIdeModel;
  emit: EmitModel;
  dest: DestModel;
  autXML: AutXmlModel[];
  det: DetModel[];
  total: IcmsTotModel;
  reformTotal?: ReformTotModel;
  transp: TranspModel;
  cobr?: CobrModel;
  pag: { detPag: DetPagModel[]; vTroco: number };
  /** Marketplace of the sale (NT 2020.006): with ide/indIntermed 1 only (MOC YB01-10/20, 438/439). */
  infIntermed?: { CNPJ: string; idCadIntTran: string };
  infAdic?: { infAdFisco?: string; infCpl?: string };
  /** Export (MOC ZA01): state and place the goods leave the country from, customs dispatch place. */
  exporta?: ExportaModel;
  respTec?: RespTecModel;
}

export interface ExportaModel {
  /** TUfEmi: a Brazilian state, never EX (MOC ZA02). */
  UFSaidaPais: string;
  xLocExporta: string;
  xLocDespacho?: string;
}
