// Found by bench:chaos-contingency: the transmission of a contingency NFC-e and the settlement
// of its first attempt run as two jobs, possibly in two worker processes. When the first attempt was voided
// while the contingency note was on its way to the authority, the authorization's settlement wrote back
// the contingency record it had read before sending, first attempt `pending` included: the note stayed
// with a first attempt pending for good (GET /v1/contingency listed it forever) though the authority had
// registered the voiding. Here the voiding is made to land exactly in that window.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeNoteJob } from '../src/documents/notes/services/authorize-note.js';
import { NFCE_FAMILY } from '../src/documents/nfce/services/nfce-family.js';
import { settleFirstAttemptJob } from '../src/documents/nfce/services/settle-first-attempt.js';
import type { AuthorityAccess } from '../src/fiscal/sefaz/authority-access.js';
import type { SefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import type { Job } from '../src/infra/queue/queue.js';
import { createTestApp, type TestApp } from './support/app.js';
import { readyIssuer, sale } from './support/nfce-flow.js';

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;

// The API role runs no worker: the sale waits unsent, and this test runs its jobs by hand.
beforeAll(async () => {
  t = await createTestApp({ role: 'api' });
  ({ auth } = await t.newAccount());
  issuerId = await readyIssuer(t, auth, { contingency: { mode: 'offline', wait_seconds: 1 } });
});
afterAll(async () => {
  await t.runtime.close();
});

const job = <P>(kind: string, payload: P): Job<P> => ({ id: `job_${kind}`, kind, payload, attempts: 1, max_attempts: 10, run_at: new Date() });

it('a first attempt voided while its contingency note is being authorized stays voided', async () => {
  // Nobody transmits within the 1 s bound: the answer is the sale in contingency, its first attempt pending.
  const posted = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1' }, payload: sale(issuerId) });
  expect(posted.statusCode, posted.body).toBe(201);
  const note = posted.json();
  expect(note.status).toBe('contingency');
  expect(note.contingency.first_attempt.outcome).toBe('pending');

  // The authority's client, with the first attempt settled (voided: it never reached the authority)
  // between the transmission job's read of the note and the authority's answer.
  const real = t.ctx.authority;
  const authority = new Proxy(real, {
    get(target, prop) {
      if (prop !== 'clientFor') return Reflect.get(target, prop);
      return (...args: Parameters<AuthorityAccess['clientFor']>) => {
        const client = target.clientFor(...args);
        return new Proxy(client, {
          get(c, p) {
            if (p !== 'authorize') return Reflect.get(c, p);
            return async (request: Parameters<SefazClient['authorize']>[0]) => {
              await settleFirstAttemptJob(t.ctx, job('nfce.first-attempt', { noteId: note.id }));
              return c.authorize(request);
            };
          },
        });
      };
    },
  });
  await authorizeNoteJob({ ...t.ctx, authority }, NFCE_FAMILY, job('nfce.authorize', { noteId: note.id, contingency: true }));

  const after = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}`, headers: auth })).json();
  expect(after.status).toBe('authorized');
  expect(after.contingency.transmitted_at).not.toBeNull();
  expect(after.contingency.first_attempt.outcome).toBe('voided');
  const outstanding = (await t.app.inject({ method: 'GET', url: '/v1/contingency', headers: auth })).json();
  expect(outstanding.data.filter((o: { issuer_id: string }) => o.issuer_id === issuerId)).toEqual([]);
});
