// A sandbox without SMTP sends no e-mail, so a new user waited for a verification
// message that never left. There (and only there) sign-up answers its link, and the new session reads
// its own captured mail before it is confirmed. Thought as an attacker: an address that already has a
// user gets a link of the same shape that confirms nothing; the unconfirmed session reads none of the
// account's other mail; with SMTP configured, or in production, no link is ever in an answer: the
// e-mail carries it. Over HTTP, with a real SMTP server for the configured case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueMailTo } from '../../src/platform/mail/mail-outbox.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { bearer, newEmail, PASSWORD } from '../support/people.js';
import { startSmtpCatcher, type SmtpCatcher } from '../support/smtp-server.js';

const LINK = /^http:\/\/\S+\/verify-email\?token=(evf_[A-Za-z0-9]{43})$/;

async function signup(t: TestApp, email: string) {
  const r = await t.app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password: PASSWORD, account_name: 'Padaria Ana' } });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { session_token: string; session: { account_id: string }; sandbox_verification?: { url: string; token: string } };
}
const verify = (t: TestApp, token: string) => t.app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token } });
const mailOf = async (t: TestApp, session: string) => {
  const r = await t.app.inject({ method: 'GET', url: '/v1/sandbox/mail?limit=100', headers: bearer(session) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data as { to: string | null; subject: string; text: string }[];
};

describe('sign-up in a sandbox without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  }, 60_000);
  afterAll(async () => t.app.close());

  it('answers the verification link of the address just signed up, which confirms it', async () => {
    const email = newEmail('first-mile');
    const answer = await signup(t, email);
    const shown = answer.sandbox_verification!;
    expect(shown.url).toMatch(LINK);
    expect(shown.url.match(LINK)![1]).toBe(shown.token);
    // The same link as the captured e-mail, which the new session reads before confirming.
    const [mail] = await mailOf(t, answer.session_token);
    expect(mail).toMatchObject({ to: email });
    expect(mail!.text).toContain(shown.url);
    const r = await verify(t, shown.token);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ email });
  });

  it('an address that already has a user gets a link of the same shape that confirms nothing, and the owner\'s link still works', async () => {
    const email = newEmail('taken');
    const owner = await signup(t, email); // not confirmed yet: its link is live
    const stranger = await signup(t, email.toUpperCase());
    const decoy = stranger.sandbox_verification!;
    expect(decoy.url).toMatch(LINK);
    expect(decoy.token).not.toBe(owner.sandbox_verification!.token);
    // The owner's mailbox holds only the owner's link (and the notice of the attempt), never the decoy's.
    const ownerMail = (await mailOf(t, owner.session_token)).map((m) => m.text).join('\n');
    expect(ownerMail).not.toContain(decoy.token);
    const r = await verify(t, decoy.token);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: 'invalid_token' });
    expect((await verify(t, owner.sandbox_verification!.token)).statusCode).toBe(200);
  });

  it('before confirming, the session reads only the mail to its own address, not the rest of its account\'s', async () => {
    const email = newEmail('own-mail');
    const answer = await signup(t, email);
    const other = newEmail('someone-else');
    await queueMailTo(t.db, t.ctx.secrets, {
      accountId: answer.session.account_id, to: other, subject: 'Redefina sua senha', text: `Link: http://x/reset-password?token=pwr_${'a'.repeat(43)}\n`,
      sourceKey: `test:${other}`, at: new Date(),
    });
    const before = await mailOf(t, answer.session_token);
    expect(before.map((m) => m.to)).toEqual([email]);
    // Confirmed, the owner reads the account's mail again, another's tokens redacted.
    expect((await verify(t, answer.sandbox_verification!.token)).statusCode).toBe(200);
    const after = await mailOf(t, answer.session_token);
    expect(after.find((m) => m.to === other)?.text).toContain('pwr_[redacted]');
  });
});

describe('sign-up with SMTP configured, and in production', () => {
  let smtp: SmtpCatcher;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    t = await createTestApp({ role: 'all', env: { SMTP_URL: smtp.url } }); // with the worker that sends the mail
  }, 60_000);
  afterAll(async () => {
    await t.runtime.close();
    await smtp.close();
  });

  it('a sandbox with SMTP answers no link: the e-mail carries it', async () => {
    const email = newEmail('smtp');
    const answer = await signup(t, email);
    expect(answer).not.toHaveProperty('sandbox_verification');
    // The session, unconfirmed, reads its captured copy with the token redacted: the inbox is the proof.
    const copy = (await mailOf(t, answer.session_token)).find((m) => m.to === email);
    expect(copy?.text).toContain('token=evf_[redacted]');
    const mail = await smtp.waitFor(email);
    // Quoted-printable: soft line breaks and escapes undone before the link is read.
    const text = mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    const token = text.match(/verify-email\?token=(evf_[A-Za-z0-9]{43})/)![1]!;
    expect((await verify(t, token)).statusCode).toBe(200);
  });

  it('a taken address with SMTP answers no link either', async () => {
    const email = newEmail('smtp-taken');
    await signup(t, email);
    expect(await signup(t, email)).not.toHaveProperty('sandbox_verification');
  });

  it('production answers no link, without SMTP too', async () => {
    const prod = await createTestApp({ env: { GATEWAY_ENV: 'production' } });
    try {
      expect(await signup(prod, newEmail('prod'))).not.toHaveProperty('sandbox_verification');
    } finally {
      await prod.app.close();
    }
  });
});
