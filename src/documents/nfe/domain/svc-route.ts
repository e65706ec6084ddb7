// Where an NF-e goes when its state's authorizer may be down (docs/fiscal/svc.md): to the state, to
// its SVC (tpEmis 6 SVC-AN / 7 SVC-RS), to a consultation first, or nowhere because it is final.
// Pure: the caller passes the breaker's state and what became of any earlier send.
import { svcTpEmis } from './nfe-context.js';

export type SvcName = 'SVC-AN' | 'SVC-RS';
export type NfeAuthorizer = 'state' | SvcName;

/** What became of the last send of this note. */
export type PreviousSend =
  /** Never left the gateway (breaker open, connection refused before the request was written). */
  | { outcome: 'not_sent'; tpEmis: 1 | 6 | 7 }
  /** Reached, or may have reached, the authorizer and no answer came (timeout, reset after writing). */
  | { outcome: 'unknown'; tpEmis: 1 | 6 | 7 }
  /** The authorizer answered with a rejection: the key was not used (docs/fiscal/svc.md#retries). */
  | { outcome: 'rejected'; tpEmis: 1 | 6 | 7 }
  /** Authorized (100/150) or denied (110/301/302): final wherever it happened. */
  | { outcome: 'final'; tpEmis: 1 | 6 | 7 };

export type NfeRoute =
  | { action: 'send'; to: NfeAuthorizer; tpEmis: 1 | 6 | 7 }
  /** Ask the authorizer that may hold it (same key, same tpEmis) before any other send. */
  | { action: 'consult'; at: NfeAuthorizer; tpEmis: 1 | 6 | 7 }
  | { action: 'none' };

export function svcOf(uf: string): SvcName {
  return svcTpEmis(uf) === 7 ? 'SVC-RS' : 'SVC-AN';
}

export function authorizerOfTpEmis(uf: string, tpEmis: 1 | 6 | 7): NfeAuthorizer {
  return tpEmis === 1 ? 'state' : tpEmis === 7 ? 'SVC-RS' : tpEmis === 6 ? 'SVC-AN' : svcOf(uf);
}

/**
 * The route of one send. A note whose earlier send has an unknown outcome is consulted where it went,
 * under the key it had: re-issuing it under another tpEmis (another key) could authorize the same sale
 * twice, once at the state and once at the SVC. A final note (authorized in SVC too) is never re-sent
 * (docs/fiscal/nfe-model-55.md#svc-contingency). Only a note that never left, or that was rejected, is
 * issued again, to the state if its breaker is closed and to the state's SVC if it is open.
 */
export function nfeRoute(input: { uf: string; stateBreakerOpen: boolean; previous?: PreviousSend | null }): NfeRoute {
  const previous = input.previous ?? null;
  if (previous?.outcome === 'final') return { action: 'none' };
  if (previous?.outcome === 'unknown') {
    return { action: 'consult', at: authorizerOfTpEmis(input.uf, previous.tpEmis), tpEmis: previous.tpEmis };
  }
  if (!input.stateBreakerOpen) return { action: 'send', to: 'state', tpEmis: 1 };
  const tpEmis = svcTpEmis(input.uf);
  return { action: 'send', to: tpEmis === 7 ? 'SVC-RS' : 'SVC-AN', tpEmis };
}

/**
 * Where a later service of a note goes by the tpEmis it was authorized with: a note authorized in SVC is
 * consulted and cancelled at that SVC, which takes only authorization, consultation and cancellation
 * (docs/fiscal/svc.md#services); a note authorized at the state stays with the state.
 */
export function nfeServiceAuthorizer(uf: string, authorizedTpEmis: 1 | 6 | 7, service: 'consult' | 'cancel' | 'other'): NfeAuthorizer | null {
  const at = authorizerOfTpEmis(uf, authorizedTpEmis);
  if (at === 'state') return 'state';
  return service === 'other' ? null : at;
}
