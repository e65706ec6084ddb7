import type { AuthorizationOutcome, ConsultOutcome, EventOutcome, InutilizationOutcome, StatusOutcome } from './outcomes.js';
import { UNAVAILABLE_CODES } from './outcomes.js';

/** Any outcome of a call to a state's authorizer. */
export type BreakerOutcome = AuthorizationOutcome | ConsultOutcome | EventOutcome | InutilizationOutcome | StatusOutcome;

/**
 * What counts against an endpoint's breaker: null when the authority answered with a cStat (a
 * rejection or denial is an answer: the service works, the note does not), otherwise why it did not
 * serve the request. Failures: no answer in time (timeout), no connection (refused, reset, TLS),
 * HTTP 5xx or a SOAP fault, an unreadable answer (a proxy's HTML page), and cStat 108/109, the
 * authorizer saying itself that the service is stopped (docs/fiscal/cstat.md) - the cases in which SEFAZ allows
 * offline contingency (docs/fiscal/offline-contingency.md: authorization technically impossible).
 */
export function breakerFailureOf(outcome: BreakerOutcome): string | null {
  switch (outcome.kind) {
    case 'timeout':
      return `no answer: ${outcome.phase} timeout`;
    case 'unknown':
      return outcome.httpStatus === null ? `no answer: ${outcome.reason}` : `HTTP ${outcome.httpStatus}: ${outcome.reason}`;
    case 'unavailable':
      return outcome.cStat === null ? `HTTP ${outcome.httpStatus ?? '?'}: ${outcome.xMotivo}` : `cStat ${outcome.cStat}: ${outcome.xMotivo}`;
    default:
      return 'cStat' in outcome && UNAVAILABLE_CODES.has(outcome.cStat) ? `cStat ${outcome.cStat}: ${outcome.xMotivo}` : null;
  }
}
