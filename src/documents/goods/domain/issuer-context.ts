import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import type { KeyObject } from 'node:crypto';

/** CRT: 1 Simples Nacional, 2 Simples excess of sub-limit, 3 regime normal, 4 MEI (XSD enumeration). */
export type Crt = 1 | 2 | 3 | 4;

export interface IssuerAddress {
  logradouro: string;
  numero: string;
  complemento?: string;
  bairro: string;
  codigo_municipio: string;
  municipio: string;
  cep: string;
  telefone?: string;
}

export interface Issuer {
  cnpj: string;
  ie: string;
  razao_social: string;
  nome_fantasia?: string;
  uf: string;
  crt: Crt;
  endereco: IssuerAddress;
}

/** Responsável técnico (infRespTec, NT 2018.005): the software house. */
export interface RespTec {
  cnpj: string;
  contato: string;
  email: string;
  fone: string;
  csrt?: { id: string; token: string };
}

export interface SigningKey {
  privateKey: KeyObject;
  certificateBase64: string;
}

/** What the content of a sale depends on: known before its number is reserved (prepareNfce). */
export interface SaleContext {
  issuer: Issuer;
  tpAmb: 1 | 2;
  /** Writes the 2026 reform groups (IBSCBS, IS, IBSCBSTot, vNFTot): needs layout PL_010. */
  taxReform: boolean;
  respTec?: RespTec;
  /** The issuer's local date the sale is prepared on (YYYY-MM-DD): the IBS/CBS rates it needs are those of its year. */
  today?: string;
  /** The UTC date the sale is prepared on: a batch may not be made after it (MOC I83-10, validate-medicine.ts). */
  processingDay?: string;
  /** The reform tables in force (fiscal/reform): rates by date, CST and cClassTrib. */
  reformTables: ReformTables;
}

/** What one numbered document adds to a prepared sale (buildPreparedNfce): ide, key and signature. */
export interface DocumentContext {
  serie: number;
  nNF: number;
  emittedAt: Date;
  signingKey: SigningKey;
  csc?: { id: string; token: string };
  /** 9 = NFC-e offline contingency; 4 = SP's NFC-e EPEC (docs/fiscal/offline-contingency.md#epec-sp). */
  tpEmis?: 1 | 4 | 9;
  contingency?: { at: Date; reason: string };
  /** cNF to reuse (a contingency note re-sent keeps its key); drawn at random when absent. */
  cNF?: string;
  /** Program name and version written to ide/verProc. */
  verProc?: string;
  /** The technical responsible's CSRT, opened: hashCSRT covers the access key (NT 2018.005). */
  csrt?: { id: string; token: string } | null | undefined;
}


export function isSimplesNacional(crt: Crt): boolean {
  return crt !== 3;
}
