// Which routes ask a session for a recent proof (step-up), swept over the served
// OpenAPI document: an owner's session whose last proof is 11 minutes old gets 403
// reauthentication_required on exactly these, and nothing else; after POST /v1/auth/reauthenticate
// it passes; API keys are never asked (they cannot re-authenticate).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { bearer, PASSWORD, verifiedUser } from '../support/people.js';
import { fillPath, opName, servedOperations } from '../support/security-world.js';

const STEP_UP = [
  'POST /v1/applications', 'POST /v1/applications/{id}/rotate', 'POST /v1/issuers/{id}/certificate',
  'PATCH /v1/team/members/{id}/role', 'POST /v1/team/transfer-ownership', 'POST /v1/account/force-cancel', 'POST /v1/auth/2fa/disable',
  'DELETE /v1/auth/webauthn/credentials/{id}', 'POST /v1/issuers/{id}/migrate-cert-to-kms', 'POST /v1/issuers/migrate-cert-to-kms',
  'POST /v1/billing/upgrade', 'PATCH /v1/billing/subscription',
  // Enrolling a factor, and the review of factors after a password reset.
  'POST /v1/auth/2fa/setup', 'POST /v1/auth/2fa/verify', 'POST /v1/auth/webauthn/registration/options',
  'POST /v1/auth/webauthn/registration/verify', 'POST /v1/auth/factors/{id}/confirm', 'DELETE /v1/auth/factors/{id}',
];
// They end the calling session; neither asks for step-up (their own tests walk them).
const ENDS_SESSION = new Set(['POST /v1/auth/logout', 'POST /v1/team/leave']);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.app.close();
});

describe('step-up', () => {
  it('a session proven more than 10 minutes ago is asked again on exactly the sensitive routes', async () => {
    const owner = await verifiedUser(t.app);
    await t.db.query("UPDATE sessions SET authenticated_at = authenticated_at - interval '11 minutes' WHERE id = $1", [owner.session.id]);
    const ops = (await servedOperations(t.app)).filter((o) => !o.isPublic && !o.isStream && !ENDS_SESSION.has(opName(o)));
    const asked: string[] = [];
    for (const op of ops) {
      const url = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, 'xxx_missing'])));
      const res = await t.app.inject({ method: op.method as 'GET', url, headers: bearer(owner), ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: {} }) });
      // Some answers are not objects (a GET of an unset setting answers null).
      if ((res.json() as { error?: string } | null)?.error === 'reauthentication_required') {
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toMatch(/\/v1\/auth\/reauthenticate/);
        asked.push(opName(op));
      }
    }
    expect(asked.sort()).toEqual([...STEP_UP].sort());

    // A fresh proof lets the same session through; an API key is never asked.
    const proof = await t.app.inject({ method: 'POST', url: '/v1/auth/reauthenticate', headers: bearer(owner), payload: { password: PASSWORD } });
    expect(proof.statusCode, proof.body).toBe(200);
    const created = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: bearer(owner), payload: { name: 'POS', scopes: ['*'] } });
    expect(created.statusCode, created.body).toBe(201);
    const key = { authorization: `Bearer ${created.json().key as string}` };
    const rotated = await t.app.inject({ method: 'POST', url: `/v1/applications/${created.json().id as string}/rotate`, headers: key });
    expect(rotated.statusCode, rotated.body).toBe(200);
  });
});
