import type { BreakerOutcome } from './breaker-outcome.js';
import type { BreakerTarget } from './breaker-key.js';
import type { SefazService } from './endpoints.js';
import type { CallTarget, SefazClient } from './sefaz-client.js';

/** What the observed client reports to (AuthorityBreaker.record). */
export interface BreakerRecorder {
  record(target: BreakerTarget & { certificate?: string | null }, outcome: BreakerOutcome): Promise<void>;
}

const forcedScenario = (headers: Record<string, string> | undefined) => Object.keys(headers ?? {}).some((h) => h.toLowerCase() === 'x-sandbox-scenario');

/**
 * The client AuthorityAccess hands out: the same calls, each outcome recorded against its endpoint's
 * breaker, so no use case changes. Not recorded: a call that forces a fault with X-Sandbox-Scenario
 * (one account's rehearsal says nothing of the endpoint, and must not put every other sandbox account
 * in contingency); the Ambiente Nacional's calls (manifestation, distribution), which no sale waits
 * for and which have no status service to probe. A call to an SVC (svc-endpoints.ts) counts against that SVC's
 * own breaker, never the state's (docs/fiscal/svc.md#when-the-svc-is-down-too).
 */
export function observedClient(client: SefazClient, recorder: BreakerRecorder, certificate: string): SefazClient {
  const watch =
    <T extends CallTarget, O extends BreakerOutcome>(service: SefazService, call: (t: T) => Promise<O>) =>
    async (t: T): Promise<O> => {
      const out = await call(t);
      // A call to an SVC is not the state's endpoint: it opens or closes the SVC's breaker, not the state's.
      if (!forcedScenario(t.headers)) await recorder.record({ uf: t.uf, model: t.model, tpAmb: t.tpAmb, service, certificate, ...(t.authorizer ? { authorizer: t.authorizer } : {}) }, out);
      return out;
    };
  return {
    ...client,
    authorize: watch('autorizacao', client.authorize),
    receipt: watch('retAutorizacao', client.receipt),
    consult: watch('consultaProtocolo', client.consult),
    status: watch('statusServico', client.status),
    inutilize: watch('inutilizacao', client.inutilize),
    sendEvent: watch('recepcaoEvento', client.sendEvent),
  };
}
