// The import groups of an NF-e item (docs/fiscal/vehicles-and-foreign-trade.md).

/** prod/DI of leiauteNFe_v4.00.xsd; money in cents (vAFRMM TDec_1302, vDescDI TDec_1302Opc). */
export interface DiModel {
  nDI: string;
  dDI: string;
  xLocDesemb: string;
  UFDesemb: string;
  dDesemb: string;
  tpViaTransp: string;
  vAFRMM?: number;
  tpIntermedio: string;
  CNPJ?: string;
  CPF?: string;
  UFTerceiro?: string;
  cExportador: string;
  adi: { nAdicao?: string; nSeqAdic: string; cFabricante: string; vDescDI?: number; nDraw?: string }[];
}

/** imposto/II: vBC, vDespAdu, vII, vIOF (TDec_1302), in cents. */
export interface IiModel {
  vBC: number;
  vDespAdu: number;
  vII: number;
  vIOF: number;
}
