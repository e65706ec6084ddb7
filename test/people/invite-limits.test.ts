// Invites could mail anybody. Invite and revoke in a loop sent 5 e-mails to one
// address with an account name chosen by the sender in the subject. Now an account sends at most 20
// invitations in 24 hours and an address receives at most 3 (revoked ones count), 429
// invite_limit_reached with Retry-After; the account's name is quoted, one line, shortened, no link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ManualClock } from '../support/clock.js';
import { newEmail } from '../support/people.js';

const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
}, 60_000);
afterAll(async () => {
  await t.app.close();
});

type Auth = { authorization: string };
const invite = (auth: Auth, email: string) => t.app.inject({ method: 'POST', url: '/v1/team/invites', headers: auth, payload: { email, role: 'viewer' } });
const revoke = (auth: Auth, id: string) => t.app.inject({ method: 'DELETE', url: `/v1/team/invites/${id}`, headers: auth });

describe('invitation limits', () => {
  it('invite and revoke in a loop: the fourth mail to one address in 24 hours is 429 with Retry-After, from any account', async () => {
    const { auth } = await t.newAccount('Loop');
    const target = newEmail('target');
    const start = clock.now().getTime();
    for (let i = 0; i < 3; i++) {
      const sent = await invite(auth, target);
      expect(sent.statusCode, sent.body).toBe(201);
      expect((await revoke(auth, sent.json().id as string)).statusCode).toBe(204);
      clock.advance(60_000);
    }
    const refused = await invite(auth, target);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'invite_limit_reached', details: [{ field: 'email', message: '3 of 3 invitations in 24 hours' }] });
    // The first invitation leaves the window 24 hours after it was sent.
    expect(Number(refused.headers['retry-after'])).toBe((start + 86_400_000 - clock.now().getTime()) / 1000);
    const mails = await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM mail_messages WHERE lower(to_address) = $1', [target]);
    expect(mails.rows[0]!.c).toBe(3);

    // Another account cannot top it up either.
    expect((await invite((await t.newAccount('Other')).auth, target)).json().error).toBe('invite_limit_reached');
    clock.set(new Date(start + 86_400_000 + 1000));
    expect((await invite(auth, target)).statusCode).toBe(201);
  });

  it('an account sends at most 20 invitations in 24 hours', async () => {
    const { auth } = await t.newAccount('Many');
    for (let i = 0; i < 20; i++) expect((await invite(auth, newEmail(`n${i}`))).statusCode).toBe(201);
    const refused = await invite(auth, newEmail('n20'));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'invite_limit_reached', details: [{ field: 'account', message: '20 of 20 invitations in 24 hours' }] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('the account name chosen by the sender is quoted, on one line, short and not a link in the subject', async () => {
    const { auth } = await t.newAccount(`Seu banco: confirme em https://evil.example/login\r\nBcc: victim@example.com ${'x'.repeat(80)}`);
    const to = newEmail('named');
    expect((await invite(auth, to)).statusCode).toBe(201);
    const r = await t.db.query<{ subject: string }>('SELECT subject FROM mail_messages WHERE to_address = $1', [to]);
    const subject = r.rows[0]!.subject;
    expect(subject).toMatch(/^Convite para a equipe "Seu banco: confirme em https: \/\/evil\. example\/login Bcc: [^"]*…" no gateway fiscal$/);
    expect(subject.length).toBeLessThan(110);
    expect(subject).not.toMatch(/[\r\n]/);
    expect(subject).not.toContain('evil.example');
  });
});
