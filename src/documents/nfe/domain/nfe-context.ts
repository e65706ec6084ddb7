import { stateFacts } from '../../../fiscal/states/states.js';
import type { SaleContext, SigningKey } from '../../goods/domain/issuer-context.js';

/**
 * What the content of an NF-e depends on, known before its number is reserved (prepareNfe): the goods sale's
 * context. Its `today` also bounds the installments (MOC Y09-20, 900: none may fall due before it).
 */
export type NfeContext = SaleContext;

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
   * EPEC (kind `epec`, docs/fiscal/epec.md): tpEmis 4, the note's summary registered at the Ambiente Nacional
   * first and the note sent to the state once it answers again.
   */
  contingency?: { at: Date; reason: string; kind?: 'svc' | 'epec' };
  /** The technical responsible's CSRT, opened: hashCSRT covers the access key (NT 2018.005). */
  csrt?: { id: string; token: string } | null | undefined;
}

/** The state's SVC (docs/fiscal/states.md, data in fiscal/states/states.ts): SVC-RS is tpEmis 7, SVC-AN 6. */
export function svcTpEmis(uf: string): 6 | 7 {
  return stateFacts(uf)?.svc === 'SVC-RS' ? 7 : 6;
}
