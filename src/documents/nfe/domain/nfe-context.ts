import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { stateFacts } from '../../../fiscal/states/states.js';
import type { Issuer, RespTec, SigningKey } from '../../goods/domain/issuer-context.js';

/** What the content of an NF-e depends on: known before its number is reserved (prepareNfe). */
export interface NfeContext {
  issuer: Issuer;
  tpAmb: 1 | 2;
  /** Writes the 2026 reform groups (IBSCBS, IS, IBSCBSTot, vNFTot): needs layout PL_010. */
  taxReform: boolean;
  respTec?: RespTec;
  /** The issuer's local date of emission (YYYY-MM-DD): installments may not fall due before it (MOC Y09-20, 900). */
  today?: string;
  /** The UTC date the note is prepared on: a batch may not be made after it (MOC I83-10, validate-medicine.ts). */
  processingDay?: string;
  /** The reform tables in force (fiscal/reform): rates by date, CST and cClassTrib. */
  reformTables: ReformTables;
}

/** What one numbered NF-e adds to a prepared one (buildPreparedNfe): ide, key and signature. */
export interface NfeDocumentContext {
  serie: number;
  nNF: number;
  emittedAt: Date;
  signingKey: SigningKey;
  /** cNF to reuse (a note re-sent keeps its key); drawn at random when absent. */
  cNF?: string;
  /** Program name and version written to ide/verProc. */
  verProc?: string;
  /**
   * SVC contingency (the state's authority is down): the note goes to SVC-AN (tpEmis 6) or SVC-RS
   * (tpEmis 7) by the issuer's state, with dhCont and xJust (MOC B28, docs/fiscal/nfe-model-55.md#svc-contingency).
   */
  contingency?: { at: Date; reason: string };
  /** The technical responsible's CSRT, opened: hashCSRT covers the access key (NT 2018.005). */
  csrt?: { id: string; token: string } | null | undefined;
}

/** The state's SVC (docs/fiscal/states.md, data in fiscal/states/states.ts): SVC-RS is tpEmis 7, SVC-AN 6. */
export function svcTpEmis(uf: string): 6 | 7 {
  return stateFacts(uf)?.svc === 'SVC-RS' ? 7 : 6;
}
