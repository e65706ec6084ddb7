// THE role matrix (src/infra/identity/roles.ts) held route by route against the
// served OpenAPI document (GET /docs/json), like test/security-routes.test.ts, so a route added later
// is swept without editing this file. One verified user per role in one account; the scope each
// operation needs is derived as the sweep derives it (one single-scope API key per scope: the keys
// that pass), and the session-only routes, which refuse every key, name theirs below. Each role's
// session gets a non-403 answer exactly when ROLE_SCOPES covers the scope, else 403 + the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES, ROLES, type Role } from '../../src/infra/identity/roles.js';
import { SCOPES, scopeCovers } from '../../src/infra/identity/scopes.js';
import { insertMembership } from '../../src/platform/people/storage/membership-repository.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { bearer, PASSWORD, verifiedUser, type Tokens } from '../support/people.js';
import { fillPath, keyWithScopes, opName, servedOperations, type Operation } from '../support/security-world.js';
import { signInTo } from '../support/team.js';

// What a session-only route needs of the member: null is any member (it acts on the person
// themselves); '*' is an owner (checked by the use case on the role: see team-members.ts).
const SESSION_ONLY: Record<string, string | null> = {
  'POST /v1/auth/logout': null, 'POST /v1/auth/verify-email/resend': null, 'POST /v1/auth/reauthenticate': null,
  'GET /v1/auth/session': null, 'GET /v1/auth/sessions': null, 'DELETE /v1/auth/sessions/{id}': null,
  'POST /v1/auth/2fa/setup': null, 'POST /v1/auth/2fa/verify': null, 'POST /v1/auth/2fa/disable': null,
  'POST /v1/team/invites/accept': null, 'POST /v1/team/leave': null, 'POST /v1/auth/switch-account': null,
  'POST /v1/auth/webauthn/registration/options': null, 'POST /v1/auth/webauthn/registration/verify': null,
  'POST /v1/auth/webauthn/reauthentication/options': null, 'POST /v1/auth/webauthn/reauthentication/verify': null,
  'GET /v1/auth/webauthn/credentials': null, 'DELETE /v1/auth/webauthn/credentials/{id}': null,
  'GET /v1/auth/factors': null, 'POST /v1/auth/factors/{id}/confirm': null, 'DELETE /v1/auth/factors/{id}': null,
  'POST /v1/team/transfer-ownership': '*', 'POST /v1/account/force-cancel': '*',
};
// Bodies that pass validation where the refusal of a role comes from the use case, after validation.
const BODIES: Record<string, object> = {
  'POST /v1/team/transfer-ownership': { user_id: 'usr_missing' },
  'POST /v1/account/force-cancel': { confirm: 'acc_not_this_one' },
};
// They end the session that calls them: each gets a fresh one, and they run last.
const ENDS_SESSION = new Set(['POST /v1/auth/logout', 'POST /v1/team/leave']);

let t: TestApp;
let base: string;
let ops: Operation[];
let accountId: string;
const members = new Map<Role, { email: string }>();

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  ops = (await servedOperations(t.app)).filter((o) => !o.isPublic);
  const owner = await verifiedUser(t.app);
  accountId = owner.session.account_id;
  members.set('owner', owner);
  for (const role of ROLES.filter((r) => r !== 'owner')) {
    const u = await verifiedUser(t.app);
    // Straight through the repository, for speed: test/people/team.test.ts walks invite + accept.
    await insertMembership(t.db, { accountId, userId: u.session.user_id, role, at: new Date() });
    members.set(role, u);
  }
}, 60_000);
afterAll(async () => {
  await t?.runtime.close();
});

/** One request over HTTP; a stream (the notification SSE) is read for its status and dropped. */
async function call(op: Operation, headers: Record<string, string>, body?: unknown) {
  const ctl = new AbortController();
  const path = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, 'xxx_missing'])));
  const res = await fetch(base + path, {
    method: op.method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: ctl.signal,
  });
  const text = op.isStream ? '' : await res.text();
  ctl.abort();
  return { status: res.status, text };
}
const bodyOf = (op: Operation) => BODIES[opName(op)] ?? (op.method === 'GET' || op.method === 'DELETE' ? undefined : {});

/** The scope each operation needs, derived from what single-scope keys may call (null: any caller). */
async function neededScopes(): Promise<Map<string, string | null>> {
  const { accountId: probe } = await t.newAccount('Role matrix probe');
  const single = SCOPES.filter((s) => s !== '*');
  const keys = await Promise.all(single.map((s) => keyWithScopes(t, probe, [s])));
  const needed = new Map<string, string | null>();
  for (const op of ops) {
    const covering: string[] = [];
    for (const [i, s] of single.entries()) if ((await call(op, keys[i]!, bodyOf(op))).status !== 403) covering.push(s);
    if (covering.length === 0) {
      expect(Object.keys(SESSION_ONLY), `${opName(op)} refuses every key: name what it needs in SESSION_ONLY`).toContain(opName(op));
      needed.set(opName(op), SESSION_ONLY[opName(op)]!);
    } else if (covering.length === single.length) {
      needed.set(opName(op), null); // reference data: any caller
    } else {
      // One scope (its read with its write), or each family's read scope with its write (`a:read|b:read`).
      const reads = covering.filter((s) => s.endsWith(':read'));
      const paired = reads.length > 0 && covering.length === 2 * reads.length && reads.every((r) => covering.includes(r.replace(':read', ':write')));
      expect(paired || covering.length === 1, `${opName(op)}: ${covering.join(', ')}`).toBe(true);
      needed.set(opName(op), paired ? reads.sort().join('|') : covering[0]!);
    }
  }
  return needed;
}

const grants = (role: Role, scope: string | null) =>
  scope === null || (scope === '*' ? ROLE_SCOPES[role].includes('*') : scope.split('|').some((s) => scopeCovers(ROLE_SCOPES[role], s)));

describe('the role matrix, route by route', () => {
  it('each role reaches exactly the operations whose scope its role covers', async () => {
    const needed = await neededScopes();
    expect([...needed.keys()].filter((n) => n in SESSION_ONLY).sort()).toEqual(Object.keys(SESSION_ONLY).sort());
    // The document says the same: exactly these operations list no API key in their security.
    expect(ops.filter((o) => o.sessionOnly).map(opName).sort()).toEqual(Object.keys(SESSION_ONLY).sort());
    expect(needed.get('PATCH /v1/team/members/{id}/role')).toBe('members:write');
    expect(needed.get('GET /v1/team/members')).toBe('members:read');
    const ordered = [...ops.filter((o) => !ENDS_SESSION.has(opName(o))), ...ops.filter((o) => ENDS_SESSION.has(opName(o)))];
    const seen: Record<Role, { allowed: number; refused: number }> = Object.fromEntries(ROLES.map((r) => [r, { allowed: 0, refused: 0 }])) as never;
    for (const role of ROLES) {
      const email = members.get(role)!.email;
      let session: Tokens = await signInTo(t.app, email, accountId);
      // A proof within the window, so that step-up is not what refuses (a fresh sign-in is one; said twice).
      expect((await t.app.inject({ method: 'POST', url: '/v1/auth/reauthenticate', headers: bearer(session), payload: { password: PASSWORD } })).statusCode).toBe(200);
      for (const op of ordered) {
        if (ENDS_SESSION.has(opName(op))) session = await signInTo(t.app, email, accountId);
        const scope = needed.get(opName(op))!;
        const res = await call(op, bearer(session), bodyOf(op));
        const what = `${role} ${opName(op)} (needs ${scope ?? 'nothing'}): ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, what).not.toBe(401);
        if (grants(role, scope)) {
          expect(res.status, what).not.toBe(403);
          seen[role].allowed++;
        } else {
          expect(res.status, what).toBe(403);
          const body = JSON.parse(res.text) as { error: string; message: string; request_id: string };
          expect(body.error, what).toBe('forbidden');
          expect(body.message, what).toMatch(new RegExp(`\\(${role}\\)`));
          expect(body.request_id, what).toMatch(/^req_/);
          seen[role].refused++;
        }
      }
    }
    // Not vacuous: the owner reaches everything, every other role is refused somewhere, viewer the most.
    expect(seen.owner.refused).toBe(0);
    for (const role of ROLES.filter((r) => r !== 'owner')) expect(seen[role].refused, role).toBeGreaterThan(0);
    expect(seen.viewer.refused).toBeGreaterThan(seen.developer.refused);
    expect(seen.developer.refused).toBeGreaterThan(seen.admin.refused);
  }, 120_000);
});
