// An authorized NFS-e (NFSe_v1.01.xsd, TCNFSe/TCInfNFSe) read into plain values: what the API record
// and the DANFSe show. Field names are the XSD's so a reader can find each one in the layout.
// Money is integer cents; percentages are integer hundredths (5.00 % = 500), as in the DPS model
// (model.ts): every amount and rate of the 1.01 layout has at most two decimals (TSDec*V2).
import type { DpsPartyId } from './model.js';

/** TCEnderecoEmitente: the issuer's address as Sefin filled it from its registers. */
export interface NfseEmitAddress {
  xLgr: string;
  nro: string;
  xCpl?: string;
  xBairro: string;
  cMun: string;
  UF: string;
  CEP: string;
}

/** TCEmitente: who issued the NFS-e (the provider, with tpEmit 1), completed by Sefin. */
export interface NfseEmit {
  id: { CNPJ: string } | { CPF: string };
  IM?: string;
  xNome: string;
  xFant?: string;
  enderNac?: NfseEmitAddress;
  fone?: string;
  email?: string;
}

/** TCEndereco of a DPS party: national (endNac) or foreign (endExt). */
export interface NfsePartyAddress {
  endNac?: { cMun: string; CEP: string };
  endExt?: { cPais: string; cEndPost: string; xCidade: string; xEstProvReg: string };
  xLgr: string;
  nro: string;
  xCpl?: string;
  xBairro: string;
}

/** TCInfoPrestador / TCInfoPessoa as the DPS carried them (prest has no xNome nor end with tpEmit 1). */
export interface NfseParty {
  id: DpsPartyId;
  CAEPF?: string;
  IM?: string;
  xNome?: string;
  end?: NfsePartyAddress;
  fone?: string;
  email?: string;
  /** TCRegTrib of the provider: opSimpNac, regApTribSN, regEspTrib (codes as written). */
  regTrib?: { opSimpNac: string; regApTribSN?: string; regEspTrib: string };
}

export interface NfseServ {
  /** TCLocPrest: the municipality (IBGE) or the country (ISO alpha-2) of provision. */
  cLocPrestacao?: string;
  cPaisPrestacao?: string;
  cTribNac: string;
  cTribMun?: string;
  xDescServ: string;
  cNBS?: string;
  cIntContrib?: string;
  /** serv/infoCompl/xInfComp. */
  xInfComp?: string;
}

/** TCTribOutrosPisCofins. */
export interface NfsePisCofins {
  CST: string;
  vBCPisCofins?: number;
  pAliqPis?: number;
  pAliqCofins?: number;
  vPis?: number;
  vCofins?: number;
  /** TSTipoRetPISCofins: 0-9, which of PIS/COFINS/CSLL were withheld. */
  tpRetPisCofins?: string;
}

/** The DPS values (TCInfoValores) and Sefin's computed ones (TCValoresNFSe), in cents / hundredths. */
export interface NfseValues {
  vServ: number;
  vReceb?: number;
  /** Unconditional and conditional discounts (TCVDescCondIncond); 0 when absent. */
  vDescIncond: number;
  vDescCond: number;
  /** Deduction/reduction (TCInfoDedRed): a rate pDR or an amount vDR; Sefin's vCalcDR. */
  pDR?: number;
  vDR?: number;
  vCalcDR?: number;
  /** Municipal tax benefit (tpBM, vCalcBM). */
  tpBM?: string;
  vCalcBM?: number;
  vBC?: number;
  pAliqAplic?: number;
  vISSQN?: number;
  /** TSTribISSQN: 1 taxable, 2 immunity, 3 export, 4 non-incidence. */
  tribISSQN: string;
  /** TSTipoRetISSQN: 1 not withheld, 2 by the taker, 3 by the intermediary. */
  tpRetISSQN: string;
  /** The rate the DPS informed (tribMun/pAliq), when any. */
  pAliq?: number;
  pisCofins?: NfsePisCofins;
  /** Federal withholdings (TCTribFederal); 0 when absent. */
  vRetCP: number;
  vRetIRRF: number;
  vRetCSLL: number;
  /** Sefin's total withheld and net value (TCValoresNFSe). */
  vTotalRet: number;
  vLiq: number;
  /** Approximate taxes (TCTribTotal): amounts, rates, indTotTrib or the Simples rate, as the DPS chose. */
  totTrib?:
    | { vTotTribFed: number; vTotTribEst: number; vTotTribMun: number }
    | { pTotTribFed: number; pTotTribEst: number; pTotTribMun: number }
    | { indTotTrib: string }
    | { pTotTribSN: number };
}

/** infNFSe/IBSCBS (TCRTCIBSCBS) with the DPS's classification (gIBSCBS CST/cClassTrib). */
export interface NfseIbsCbs {
  cLocalidadeIncid: string;
  xLocalidadeIncid: string;
  pRedutor?: number;
  vBC: number;
  pIBSUF: number;
  pAliqEfetUF: number;
  pIBSMun: number;
  pAliqEfetMun: number;
  pCBS: number;
  pAliqEfetCBS: number;
  vTotNF: number;
  vIBSTot: number;
  vIBSUF: number;
  vIBSMun: number;
  vCBS: number;
  CST?: string;
  cClassTrib?: string;
}

export interface NfseDps {
  Id: string;
  tpAmb: 1 | 2;
  dhEmi: string;
  verAplic: string;
  serie: string;
  nDPS: string;
  dCompet: string;
  tpEmit: string;
  cLocEmi: string;
  subst?: { chSubstda: string; cMotivo: string; xMotivo?: string };
  prest: NfseParty;
  toma?: NfseParty;
  interm?: NfseParty;
  serv: NfseServ;
}

export interface NfseView {
  /** The 50-character key (infNFSe/@Id without its "NFS" prefix; docs/fiscal/nfse-national.md#access-key). */
  accessKey: string;
  nNFSe: string;
  nDFSe?: string;
  cStat: string;
  dhProc: string;
  /** 1 municipal system, 2 Sefin Nacional (TSAmbGeradorNFSe). */
  ambGer: string;
  tpEmis?: string;
  procEmi?: string;
  /** The environment, from the embedded DPS (1 production, 2 restricted production). */
  tpAmb: 1 | 2;
  xLocEmi: string;
  xLocPrestacao: string;
  cLocIncid?: string;
  xLocIncid?: string;
  xTribNac: string;
  xTribMun?: string;
  xNBS?: string;
  verAplic: string;
  /** infNFSe/xOutInf: Sefin's other information. */
  xOutInf?: string;
  emit: NfseEmit;
  dps: NfseDps;
  values: NfseValues;
  ibsCbs?: NfseIbsCbs;
}
