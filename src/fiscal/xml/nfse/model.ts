// The DPS 1.01 (NFS-e Padrão Nacional) as the layout sees it: every value already decided by the
// domain. Money is integer cents; percentages with two decimals are integer hundredths (7.60 % = 760),
// as TSDec1V2/TSDec2V2/TSDec3V2 allow exactly two decimals. Field names are the XSD's (TCInfDPS and
// the types it uses, tiposComplexos_v1.01.xsd); the writer only places them in XSD order.

/** Exactly one of CNPJ / CPF / NIF / cNaoNIF (xs:choice in TCInfoPrestador and TCInfoPessoa). */
export type DpsPartyId =
  | { CNPJ: string }
  | { CPF: string }
  /** Foreign tax id (TSNIF, 1-40 characters). */
  | { NIF: string }
  /** No NIF: 0 not in the source document, 1 exempt, 2 not required (TSCodNaoNIF). */
  | { cNaoNIF: 0 | 1 | 2 };

/** TCEndereco: a Brazilian (endNac) or foreign (endExt) address. */
export interface DpsAddress {
  place: { endNac: { cMun: string; CEP: string } } | { endExt: { cPais: string; cEndPost: string; xCidade: string; xEstProvReg: string } };
  xLgr: string;
  nro: string;
  xCpl?: string;
  xBairro: string;
}

/** TCRegTrib. */
export interface DpsRegTrib {
  /** 1 not opting for Simples Nacional, 2 MEI, 3 ME/EPP (TSOpSimpNac). */
  opSimpNac: 1 | 2 | 3;
  /** TSRegimeApuracaoSimpNac, ME/EPP only. */
  regApTribSN?: 1 | 2 | 3;
  /** TSRegEspTrib: 0 none, 1-6, 9. */
  regEspTrib: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 9;
}

/**
 * The provider. With tpEmit 1 (the only value Sefin accepts, E9996) the provider must send neither
 * xNome (E0121) nor end (E0128): Sefin takes them from its registers (docs/fiscal/nfse-national.md#dps), so the model has neither.
 */
export interface DpsPrestador {
  id: DpsPartyId;
  IM?: string;
  fone?: string;
  email?: string;
  regTrib: DpsRegTrib;
}

/** TCInfoPessoa: the taker (toma) or the intermediary (interm). */
export interface DpsPessoa {
  id: DpsPartyId;
  CAEPF?: string;
  IM?: string;
  xNome: string;
  end?: DpsAddress;
  fone?: string;
  email?: string;
}

export interface DpsServ {
  /** TCLocPrest: the municipality (IBGE, 7 digits) or the country (ISO alpha-2) where the service is provided. */
  locPrest: { cLocPrestacao: string } | { cPaisPrestacao: string };
  cTribNac: string; // 6 digits (item, sub-item, detail of LC 116)
  cTribMun?: string; // 3 digits
  xDescServ: string;
  /** NBS code, 9 digits; mandatory when IBSCBS is sent (E0322, docs/fiscal/nfse-national.md#dps). */
  cNBS?: string;
  cIntContrib?: string;
  /** TCComExterior: foreign trade, required in an export of services (Anexo I E0330). */
  comExt?: DpsComExt;
  /** TCInfoCompl in part (idDocTec and gItemPed are not modelled). */
  infoCompl?: { docRef?: string; xPed?: string; xInfComp?: string };
}

/**
 * TCComExterior, with the codes of Anexo I's layout sheet: mdPrestacao 1 cross-border, 2 consumption in
 * Brazil, 3 temporary movement of natural persons, 4 consumption abroad; vincPrest 0-6; movTempBens 1-3
 * (0 "unknown" is for municipalities sharing notes, refused by Sefin: E0333, E0345).
 */
export interface DpsComExt {
  mdPrestacao: 1 | 2 | 3 | 4;
  vincPrest: 0 | 1 | 2 | 3 | 4 | 5 | 6;
  tpMoeda: string; // 3 digits, Banco Central currency table
  vServMoeda: number; // cents
  mecAFComexP: string; // 01-08
  mecAFComexT: string; // 01-26
  movTempBens: 1 | 2 | 3;
  nDI?: string;
  nRE?: string;
  mdic: 0 | 1;
}

/**
 * Substitution: a new DPS naming the NFS-e it replaces; Sefin registers event 105102 on the original
 * itself (docs/fiscal/nfse-national.md#events). cMotivo per TSCodJustSubst: 01-05, 99; xMotivo 15-255 characters (TSMotivo).
 */
export interface DpsSubst {
  chSubstda: string; // 50-digit key
  cMotivo: '01' | '02' | '03' | '04' | '05' | '99';
  xMotivo?: string;
}

/** TCTribOutrosPisCofins. */
export interface DpsPisCofins {
  CST: string; // TSTipoCST, 2 digits
  vBCPisCofins?: number;
  pAliqPis?: number; // hundredths
  pAliqCofins?: number; // hundredths
  vPis?: number;
  vCofins?: number;
  /** TSTipoRetPISCofins 0-9 (which of PIS/COFINS/CSLL are withheld). */
  tpRetPisCofins?: number;
}

/** TCTribTotal (choice): amounts, percentages, indTotTrib=0 (Decreto 8.264/2014) or the Simples Nacional percentage. */
export type DpsTotTrib =
  | { vTotTrib: { vTotTribFed: number; vTotTribEst: number; vTotTribMun: number } }
  | { pTotTrib: { pTotTribFed: number; pTotTribEst: number; pTotTribMun: number } }
  | { indTotTrib: 0 }
  | { pTotTribSN: number };

export interface DpsValores {
  vReceb?: number;
  vServ: number;
  vDescIncond?: number;
  vDescCond?: number;
  /** TCInfoDedRed (choice); the document list (`documentos`) is not modelled. */
  dedRed?: { pDR: number } | { vDR: number };
  tribMun: {
    /** 1 taxable, 2 immunity, 3 export, 4 no incidence (TSTribISSQN). */
    tribISSQN: 1 | 2 | 3 | 4;
    cPaisResult?: string;
    /** TSTipoImunidadeISSQN, when tribISSQN = 2. */
    tpImunidade?: number;
    /** TCExigSuspensa: ISSQN with suspended enforceability, 1 judicial decision, 2 administrative process; nProcesso 30 digits. */
    exigSusp?: { tpSusp: 1 | 2; nProcesso: string };
    /** 1 not withheld, 2 withheld by the taker, 3 withheld by the intermediary (TSTipoRetISSQN). */
    tpRetISSQN: 1 | 2 | 3;
    /** ISSQN rate in hundredths (TSDec1V2: up to 9.99). */
    pAliq?: number;
  };
  /** TCTribFederal: PIS/COFINS and the federal withholdings (CP, IRRF, CSLL). */
  tribFed?: { piscofins?: DpsPisCofins; vRetCP?: number; vRetIRRF?: number; vRetCSLL?: number };
  totTrib: DpsTotTrib;
}

/** TCRTCInfoIBSCBS reduced to what a regular operation needs (v1.01 only, competence from 2026, docs/fiscal/nfse-national.md#hosts-and-transport). */
export interface DpsIbsCbs {
  finNFSe: 0; // TSRTCFinNFSe: 0 regular
  indFinal?: 0 | 1;
  cIndOp: string; // 6 digits
  indDest: 0 | 1;
  CST: string; // 3 digits
  cClassTrib: string; // 6 digits
}

export interface DpsModel {
  tpAmb: 1 | 2;
  dhEmi: string; // TSDateTimeUTC with offset, e.g. 2026-03-10T10:00:00-03:00
  verAplic: string;
  serie: string;
  nDPS: string;
  dCompet: string; // YYYY-MM-DD
  /** 1 = provider; 2/3 are refused by Sefin in this version (E9996, docs/fiscal/nfse-national.md#dps). */
  tpEmit: 1;
  cLocEmi: string;
  subst?: DpsSubst;
  prest: DpsPrestador;
  toma?: DpsPessoa;
  interm?: DpsPessoa;
  serv: DpsServ;
  valores: DpsValores;
  IBSCBS?: DpsIbsCbs;
}
