// The sandbox's captured mail was a takeover channel. Any member with
// notifications:read (viewer, billing, developer) read GET /v1/sandbox/mail, including the owner's
// password-reset link and pending invite tokens. Now a member reads only the mail addressed to them;
// owners, admins and API keys read the account's mail with every token redacted; the invitee reads
// their invite in their own mailbox. Over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { bearer, forgotPasswordToken, newEmail, verifiedUser, type Tokens } from '../support/people.js';
import { keyWithScopes } from '../support/security-world.js';
import { inviteToken, joinTeam } from '../support/team.js';

let t: TestApp;
beforeAll(async () => {
  // The reset mail is written by the worker (password/forgot only queues a job).
  t = await createTestApp({ role: 'all' });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

type Mail = { to: string | null; subject: string; text: string; redacted: boolean };
const mailOf = async (who: Tokens | { authorization: string }): Promise<Mail[]> => {
  const r = await t.app.inject({ method: 'GET', url: '/v1/sandbox/mail?limit=100', headers: 'authorization' in who ? who : bearer(who) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data;
};
const TOKEN = /\b(pwr|inv|evf)_[A-Za-z0-9]{43}\b/;

describe('sandbox mail is a mailbox, not a takeover channel', () => {
  it('a viewer reads none of the owner\'s reset link or pending invites; admins and keys read them redacted', async () => {
    const owner = await verifiedUser(t.app);
    const viewer = await joinTeam(t.app, owner, 'viewer');
    const developer = await joinTeam(t.app, owner, 'developer');
    const admin = await joinTeam(t.app, owner, 'admin');
    const outsider = newEmail('outsider');
    expect((await t.app.inject({ method: 'POST', url: '/v1/team/invites', headers: bearer(owner), payload: { email: outsider, role: 'developer' } })).statusCode).toBe(201);
    await forgotPasswordToken(t.app, owner.email, owner.session_token);

    // The account's mail holds the owner's reset link and the outsider's invite...
    const all = await mailOf(owner);
    expect(all.some((m) => m.to === owner.email && /senha/i.test(m.subject))).toBe(true);
    expect(all.some((m) => m.to === outsider)).toBe(true);

    // ...which a viewer or a developer no longer sees: only their own mail (their invite), nothing with another's token.
    for (const member of [viewer, developer]) {
      const seen = await mailOf(member);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((m) => m.to?.toLowerCase() === member.email.toLowerCase())).toBe(true);
      expect(seen.map((m) => m.text).join('\n')).not.toMatch(/pwr_/);
    }

    // An admin and an API key read the account's mail, every token of another's mail redacted.
    for (const reader of [admin, await keyWithScopes(t, owner.session.account_id, ['notifications:read'])]) {
      const seen = await mailOf(reader);
      const reset = seen.find((m) => m.to === owner.email && /senha/i.test(m.subject));
      const invite = seen.find((m) => m.to === outsider);
      expect(reset).toMatchObject({ redacted: true, text: expect.stringContaining('token=pwr_[redacted]') });
      expect(invite).toMatchObject({ redacted: true, text: expect.stringContaining('token=inv_[redacted]') });
      const others = seen.filter((m) => 'authorization' in reader || m.to?.toLowerCase() !== admin.email.toLowerCase());
      expect(others.map((m) => m.text).join('\n')).not.toMatch(TOKEN);
    }

    // The owner reads their own reset link intact; the invite sent to someone else stays redacted.
    const mine = await mailOf(owner);
    expect(mine.find((m) => m.to === owner.email && /senha/i.test(m.subject))).toMatchObject({ redacted: false, text: expect.stringMatching(/token=pwr_[A-Za-z0-9]{43}/) });
    expect(mine.find((m) => m.to === outsider)?.text).not.toMatch(TOKEN);

    // The outsider, once signed up and confirmed, reads the invite in their own mailbox and accepts it.
    const invitee = await verifiedUser(t.app, outsider);
    const token = await inviteToken(t.app, invitee.session_token, outsider);
    const accepted = await t.app.inject({ method: 'POST', url: '/v1/team/invites/accept', headers: bearer(invitee), payload: { token } });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });
});
