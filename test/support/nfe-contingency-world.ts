// The world of the NF-e contingency tests (SVC and EPEC: docs/fiscal/svc.md, docs/fiscal/epec.md): one gateway
// with its worker and simulator on a manual clock, the breaker opening after 3 failures, and the helpers each of
// those tests needs: an issuer of a fresh account, moving the clock until a condition holds, and the breakers
// of an account's NF-e authorization at the state and at its SVC.
import type { ManualClock } from './clock.js';
import { createTestApp, type TestApp } from './app.js';
import { readyIssuer } from './nfce-flow.js';
import { eventually } from './webhook-receiver.js';

export interface Issuing {
  accountId: string;
  auth: { authorization: string };
  issuerId: string;
  cnpj: string;
}

export interface NfeContingencyWorld {
  t: TestApp;
  /** A fresh account with a ready issuer (readyIssuer's overrides: state, nfe_contingency, ...). */
  issuing(overrides?: Parameters<typeof readyIssuer>[2]): Promise<Issuing>;
  /**
   * Moves the clock 2 s at a time (the worker's retries and backoffs) and wakes the worker until `probe` holds;
   * `probeBreakers` also runs the breakers' due probes before each look.
   */
  until<T>(probe: () => Promise<T | null | false | undefined>, what: string, o?: { probeBreakers?: boolean; timeoutMs?: number }): Promise<T>;
  /** The state of the account's NF-e authorization breaker at the state, or at an SVC (`svc-an`, `svc-rs`). */
  breaker(accountId: string, at: 'state' | 'svc-an' | 'svc-rs'): Promise<string | null>;
  /** The note's row as stored (key, number, status, tpEmis). */
  stored(id: string): Promise<{ access_key: string; number: number; status: string; tp_emis: number }>;
  /** GET /v1/nfe/:id/events. */
  history(who: Issuing, id: string): Promise<Array<{ type: string; code: string | null; message: string }>>;
  close(): Promise<void>;
}

export async function startNfeContingencyWorld(clock: ManualClock, env: Record<string, string> = {}): Promise<NfeContingencyWorld> {
  const t = await createTestApp({ role: 'all', clock, env: { AUTHORITY_BREAKER_FAILURES: '3', ...env } });
  // The simulator on the gateway's clock: the test moves both (retries, the breaker's cool-down).
  t.simulator.setClock(() => clock.now());
  await t.db.query('DELETE FROM authority_breakers');
  await t.ctx.breaker.refresh();

  return {
    t,
    async issuing(overrides = {}) {
      const { accountId, auth } = await t.newAccount();
      const issuerId = await readyIssuer(t, auth, overrides);
      const cnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj as string;
      return { accountId, auth, issuerId, cnpj };
    },
    until(probe, what, o = {}) {
      return eventually(async () => {
        if (o.probeBreakers) await t.ctx.breaker.probeDueNow();
        const v = await probe();
        if (!v) {
          clock.advance(2_000);
          t.ctx.wakeWorker();
        }
        return v;
      }, o.timeoutMs ?? 120_000, what);
    },
    async breaker(accountId, at) {
      const states = await t.ctx.breaker.states();
      const atSvc = (endpoint: string) => (at === 'state' ? !endpoint.includes('/svc-') : endpoint.includes(`/${at}/`));
      return states.find((s) => s.service === 'NFeAutorizacao4' && s.endpoint.endsWith(`/${accountId}`) && atSvc(s.endpoint))?.state ?? null;
    },
    async stored(id) {
      return (await t.db.query<{ access_key: string; number: number; status: string; tp_emis: number }>('SELECT access_key, number, status, tp_emis FROM notes WHERE id = $1', [id])).rows[0]!;
    },
    async history(who, id) {
      return (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/events`, headers: who.auth })).json().data;
    },
    async close() {
      t.simulator.setClock(() => new Date());
      t.simulator.setScenario(null);
      t.simulator.endOutage();
      await t.db.query('DELETE FROM authority_breakers');
      await t.runtime.close();
    },
  };
}
