import type { DiModel, IiModel } from './import-model.js';
// The NFC-e as the layout sees it: every value already computed and rounded by the domain
// (src/nfce). Money is integer cents, rates are integers of scale 4 (18% = 180000), quantities
// scale 4 and unit prices scale 10 (bigint). The writers only place values in XSD order.

import type { MedModel, RastroModel } from './med-rastro.js';
import type { VeicProdModel } from './veic-prod.js';
import type { IcmsMonoModel } from './mono-model.js';

export interface IdeModel {
  cUF: string;
  cNF: string;
  natOp: string;
  serie: number;
  nNF: number;
  dhEmi: string; // TDateTimeUTC with the issuer's offset
  cMunFG: string;
  /** 1 normal; 4 EPEC (SP's NFC-e EPEC, docs/fiscal/offline-contingency.md#epec-sp); 9 offline contingency. */
  tpEmis: 1 | 4 | 9;
  cDV: number;
  tpAmb: 1 | 2;
  indPres: 1 | 4;
  verProc: string;
  contingency?: { dhCont: string; xJust: string };
}

export interface AddressModel {
  xLgr: string;
  nro: string;
  xCpl?: string;
  xBairro: string;
  cMun: string;
  xMun: string;
  UF: string;
  CEP?: string;
  /** Model 55 recipient abroad: cPais/xPais of the country (default 1058 BRASIL). */
  cPais?: string;
  xPais?: string;
  fone?: string;
}

export interface EmitModel {
  CNPJ: string;
  xNome: string;
  xFant?: string;
  ender: AddressModel & { CEP: string };
  IE: string;
  CRT: 1 | 2 | 3 | 4;
}

export interface DestModel {
  CNPJ?: string;
  CPF?: string;
  /** Model 55: foreign recipient's id (5-20 characters, or empty). */
  idEstrangeiro?: string;
  xNome?: string;
  ender?: AddressModel;
  /** 1 ICMS taxpayer, 2 exempt from IE, 9 non-taxpayer (default 9: the NFC-e's only value). */
  indIEDest?: 1 | 2 | 9;
  IE?: string;
  email?: string;
}

export interface StModel {
  modBCST: number;
  pMVAST?: number;
  pRedBCST?: number;
  vBCST: number;
  pICMSST: number;
  vICMSST: number;
  fcp?: { vBCFCPST: number; pFCPST: number; vFCPST: number };
}

export interface StRetainedModel {
  vBCSTRet: number;
  pST: number;
  vICMSSubstituto?: number;
  vICMSSTRet: number;
}

export interface OwnIcmsModel {
  modBC: number;
  pRedBC?: number;
  vBC: number;
  pICMS: number;
  vICMS: number;
  fcp?: { vBCFCP: number; pFCP: number; vFCP: number };
}

export interface IcmsModel {
  /** CST (2 digits) or CSOSN (3 digits): picks the group. */
  code: string;
  orig: number;
  own?: OwnIcmsModel;
  st?: StModel;
  retained?: StRetainedModel;
  credit?: { pCredSN: number; vCredICMSSN: number };
  /**
   * Model 55: ICMS relief (desoneração) of CST 20/30/40/41/50/70/90: vICMSDeson, motDesICMS and
   * indDeduzDeson (NT 2023.004: 1 = the relief is deducted from the item value and from vNF).
   */
  relief?: { vICMSDeson: number; motDesICMS: number; indDeduzDeson: 0 | 1 };
  /** CST 51 (model 55): ICMS of the operation, deferred share and rate (own.vICMS = vICMSOp - vICMSDif). */
  deferral?: { vICMSOp: number; pDif: number; vICMSDif: number };
  /** Model 55, CST 10/90: ICMSPart (MOC N10a), the interstate split of the operation's ICMS: pBCOp and UFST. */
  partilha?: { pBCOp: number; UFST: string };
  /** Model 55, CST 41/60 with `retained`: ICMSST (MOC N10b), ST retained earlier repassed to the destination state. */
  repasse?: IcmsRepasseModel;
  /** CST 02/15/53/61: the monophase ICMS on fuels (NT 2023.001, groups N02a/N03a/N07a/N08a; docs/fiscal/icms-monophase.md). */
  mono?: IcmsMonoModel;
}

export interface IcmsRepasseModel {
  /** FCP retained earlier by ST (N27.1): written only in ICMSST. */
  fcpRet?: { vBCFCPSTRet: number; pFCPSTRet: number; vFCPSTRet: number };
  vBCSTDest: number;
  vICMSSTDest: number;
}

export interface PisCofinsModel {
  CST: string;
  vBC?: number;
  rate?: number;
  value?: number;
}

/** IPI (TIpi): IPITrib with CST 00/49/50/99 (vBC x pIPI) or IPINT with CST 01-05/51-55. */
export interface IpiModel {
  cEnq: string;
  CST: string;
  /** Present for IPITrib, absent for IPINT. */
  trib?: { vBC: number; pIPI: number; vIPI: number };
}

/** ICMSUFDest: DIFAL to the destination state (rates scale 4, values cents). */
export interface IcmsUfDestModel {
  vBCUFDest: number;
  fcp?: { vBCFCPUFDest: number; pFCPUFDest: number; vFCPUFDest: number };
  pICMSUFDest: number;
  /** 4.00, 7.00 or 12.00 (scale 4). */
  pICMSInter: number;
  pICMSInterPart: number;
  vICMSUFDest: number;
  vICMSUFRemet: number;
}

/** gRed (TRed): pRedAliq and the effective rate pAliqEfet = rate x (1 - pRedAliq/100), per tax. */
export interface IbsCbsReductionModel {
  /** The IBS's (gIBSUF and gIBSMun: the cClassTrib's pRedIBS). */
  pRedAliq: number;
  /** gCBS's when the cClassTrib's pRedCBS differs from its pRedIBS. */
  pRedAliqCBS?: number;
  pAliqEfetUF: number;
  pAliqEfetMun: number;
  pAliqEfetCBS: number;
}

/** gDif (TDif) of each sphere: one pDif (scale 4) and each sphere's deferred value vDif (cents). */
export interface IbsCbsDeferralModel {
  pDif: number;
  vDifUF: number;
  vDifMun: number;
  vDifCBS: number;
}

/** gTribRegular (TTribRegular): the taxation if the suspensive/resolutory condition is not met. */
export interface IbsCbsRegularModel {
  CSTReg: string;
  cClassTribReg: string;
  pAliqEfetRegIBSUF: number;
  vTribRegIBSUF: number;
  pAliqEfetRegIBSMun: number;
  vTribRegIBSMun: number;
  pAliqEfetRegCBS: number;
  vTribRegCBS: number;
}

/** gIBSCBS: the base, the rates and the values (vX = vBC x the effective rate). */
export interface IbsCbsGroupModel {
  vBC: number;
  pIBSUF: number;
  vIBSUF: number;
  pIBSMun: number;
  vIBSMun: number;
  pCBS: number;
  vCBS: number;
  gRed?: IbsCbsReductionModel;
  /** Deferral (CST 510, 515): vX is then vBC x the effective rate - vDif (NT 2025.002-RTC UB35-10). */
  gDif?: IbsCbsDeferralModel;
  /** Regular taxation (a cClassTrib with ind_gTribRegular, e.g. the CST 550 suspensions). */
  gTribRegular?: IbsCbsRegularModel;
  /** UB82a gTribCompraGov: the rates and values of a government purchase before LC 214/2025 art. 473 (reform-government-purchase.ts). */
  gTribCompraGov?: GovernmentPurchaseTaxModel;
}

/** TTribCompraGov: pAliq (scale 4) and vTrib (cents) per sphere. */
export interface GovernmentPurchaseTaxModel {
  pAliqIBSUF: number;
  vTribIBSUF: number;
  pAliqIBSMun: number;
  vTribIBSMun: number;
  pAliqCBS: number;
  vTribCBS: number;
}

/** TCredPres: pCredPres (scale 4) and vCredPres (cents). */
export interface PresumedCreditTaxModel {
  pCredPres: number;
  vCredPres: number;
}

/** gCredPresOper (TCredPresOper, UB120): base, cCredPres and the credit of each tax the code allows (reform-presumed-credit.ts). */
export interface PresumedCreditModel {
  vBCCredPres: number;
  cCredPres: string;
  gIBSCredPres?: PresumedCreditTaxModel;
  gCBSCredPres?: PresumedCreditTaxModel;
}

/** IBSCBS (TTribNFe): CST and cClassTrib, and gIBSCBS unless the code carries no rate (e.g. CST 410, immunity). */
export interface IbsCbsModel {
  CST: string;
  cClassTrib: string;
  gIBSCBS?: IbsCbsGroupModel;
  /** CST 800 (UB106 gTransfCred): the IBS and CBS credit transferred, in cents, instead of gIBSCBS (reform-credit-transfer.ts). */
  gTransfCred?: { vIBS: number; vCBS: number };
  gCredPresOper?: PresumedCreditModel;
}

export interface IsModel {
  CSTIS: string;
  cClassTribIS: string;
  vBCIS: number;
  pIS: number;
  vIS: number;
}

export interface DetModel {
  nItem: number;
  cProd: string;
  cEAN: string;
  xProd: string;
  NCM: string;
  CEST?: string;
  /** cBenef: the state's tax-benefit code (8 or 10 characters, or SEM CBENEF; leiauteNFe_v4.00.xsd, docs/fiscal/cbenef.md). */
  cBenef?: string;
  CFOP: string;
  uCom: string;
  qCom: bigint; // scale 4
  vUnCom: bigint; // scale 10
  vProd: number;
  /** Model 55: the item's share of freight, insurance and other expenses (prod/vFrete, vSeg, vOutro). */
  vFrete?: number;
  vSeg?: number;
  vDesc: number;
  vOutro?: number;
  vTotTrib?: number;
  /** An item of a credit or debit note (NT 2025.002-RTC B25-80, 1001): imposto carries IS and IBSCBS only. */
  reformOnly?: true;
  icms: IcmsModel;
  /** Model 55 only (IPI is rejected in an NFC-e, 742). */
  ipi?: IpiModel;
  /**
   * Absent: the item carries no PIS / COFINS group (XSD minOccurs 0), as an NFC-e dated 2027 or later
   * (both contributions end with 2026: documents/goods/domain/pis-cofins-schedule.ts).
   */
  pis?: PisCofinsModel;
  cofins?: PisCofinsModel;
  /** Model 55 only: DIFAL of an interstate sale to a non-taxpayer (ICMSUFDest, NT 2015.003). */
  icmsUfDest?: IcmsUfDestModel;
  is?: IsModel;
  ibscbs?: IbsCbsModel;
  infAdProd?: string;
  /** prod/comb: the fuel group (docs/fiscal/fuel.md). */
  comb?: CombModel;
  /** prod/DI: the import declarations of an imported item (docs/fiscal/vehicles-and-foreign-trade.md). */
  di?: DiModel[];
  /** imposto/II: the import tax of an imported item, money in cents. */
  ii?: IiModel;
  /** prod/detExport: the export detail of an item sold abroad (docs/fiscal/vehicles-and-foreign-trade.md). */
  detExport?: DetExportModel;
  /** prod/rastro and prod/med: batches and the medicine group (docs/fiscal/medicines.md). */
  rastro?: RastroModel[];
  med?: MedModel;
  /** prod/veicProd: the new-vehicle group (docs/fiscal/vehicles-and-foreign-trade.md). */
  veicProd?: VeicProdModel;
}

/** prod/detExport: nDraw (TString 1-20), exportInd (nRE [0-9]{0,12}, chNFe TChNFe, qExport TDec_1104v as 4-decimal units). */
export interface DetExportModel {
  nDraw?: string;
  exportInd?: { nRE: string; chNFe: string; qExport: bigint };
}

/** prod/comb of leiauteNFe_v4.00.xsd; decimal fields already written in their XSD type (fuel-item.ts), money in cents. */
export interface CombModel {
  cProdANP: string;
  descANP: string;
  pGLP?: string;
  pGNn?: string;
  pGNi?: string;
  vPart?: number;
  CODIF?: string;
  qTemp?: string;
  UFCons: string;
  CIDE?: { qBCProd: string; vAliqProd: string; vCIDE: number };
  encerrante?: { nBico: string; nBomba?: string; nTanque: string; vEncIni: string; vEncFin: string };
  pBio?: string;
}

export interface IcmsTotModel {
  vBC: number;
  vICMS: number;
  vICMSDeson: number;
  /** DIFAL totals (model 55, W04c/W04e/W04g): written only when defined. */
  vFCPUFDest?: number;
  vICMSUFDest?: number;
  vICMSUFRemet?: number;
  vFCP: number;
  vBCST: number;
  vST: number;
  vFCPST: number;
  vFCPSTRet: number;
  /** Monophase totals (NT 2023.001, W06b.1-W06e), written only when an item carries the group they add. Quantities in hundredths (TDec_1302). */
  qBCMono?: number;
  vICMSMono?: number;
  qBCMonoReten?: number;
  vICMSMonoReten?: number;
  qBCMonoRet?: number;
  vICMSMonoRet?: number;
  vProd: number;
  vFrete: number;
  vSeg: number;
  vDesc: number;
  vII: number;
  vIPI: number;
  vIPIDevol: number;
  vPIS: number;
  vCOFINS: number;
  vOutro: number;
  vNF: number;
  vTotTrib: number;
}

export interface ReformTotModel {
  vIS?: number;
  vBCIBSCBS: number;
  vIBSUF: number;
  vIBSMun: number;
  vIBS: number;
  vCBS: number;
  /** gIBS/vCredPres and gCBS/vCredPres (W48, W56a): the items' gIBSCredPres / gCBSCredPres vCredPres; 0 when absent. */
  vCredPresIBS?: number;
  vCredPresCBS?: number;
  vNFTot: number;
  /** The items' gDif/vDif of each sphere (W38, W43, W53); absent = 0. */
  vDifUF?: number;
  vDifMun?: number;
  vDifCBS?: number;
}

export interface DetPagModel {
  tPag: string;
  xPag?: string;
  vPag: number;
  card?: { tpIntegra: 1 | 2; CNPJ?: string; tBand?: string; cAut?: string };
}

export interface RespTecModel {
  CNPJ: string;
  xContato: string;
  email: string;
  fone: string;
  csrt?: { idCSRT: string; hashCSRT: string };
}

export interface NfceModel {
  accessKey: string;
  ide: IdeModel;
  emit: EmitModel;
  dest?: DestModel;
  det: DetModel[];
  total: IcmsTotModel;
  reformTotal?: ReformTotModel;
  /** Home delivery only (MOC X02-10, X03-10/20): modFrete and the carrier; absent = modFrete 9. */
  transp?: { modFrete: 0 | 1 | 2 | 3 | 4 | 9; transporta: TransportaModel };
  pag: { detPag: DetPagModel[]; vTroco: number };
  infAdic?: { infCpl: string };
  respTec?: RespTecModel;
}

/** The carrier (transporta, MOC X03): an NFC-e home delivery and an NF-e's transp share it. */
export interface TransportaModel { CNPJ?: string; CPF?: string; xNome?: string; IE?: string; xEnder?: string; xMun?: string; UF?: string }
