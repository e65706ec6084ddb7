import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';

/** Helpers of the people tests: a user signs up through the API and reads their mail like a person would. */
export const newEmail = (tag = 'user') => `${tag}.${randomBytes(6).toString('hex')}@example.com`;
export const PASSWORD = 'correct horse battery staple';

export interface Tokens {
  session_token: string;
  refresh_token: string;
  session: { id: string; account_id: string; user_id: string };
}

export const bearer = (t: { session_token: string } | string) => ({ authorization: `Bearer ${typeof t === 'string' ? t : t.session_token}` });

export async function signupUser(app: FastifyInstance, email = newEmail(), password = PASSWORD): Promise<Tokens & { email: string }> {
  const r = await app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password, name: 'Ana Souza', account_name: 'Padaria Ana' } });
  if (r.statusCode !== 201) throw new Error(`signup: ${r.statusCode} ${r.body}`);
  return { ...r.json(), email };
}

/** The token of the newest captured e-mail whose subject matches, read as the user would (GET /v1/sandbox/mail). */
export async function tokenFromMail(app: FastifyInstance, session: string, subject: RegExp, prefix: string): Promise<string> {
  const r = await app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: bearer(session) });
  if (r.statusCode !== 200) throw new Error(`mail: ${r.statusCode} ${r.body}`);
  const mail = (r.json().data as { subject: string; text: string }[]).find((m) => subject.test(m.subject));
  const token = mail?.text.match(new RegExp(`[?&]token=(${prefix}_[A-Za-z0-9]+)`))?.[1];
  if (!token) throw new Error(`no ${subject} mail with a ${prefix}_ link`);
  return token;
}

export async function verifiedUser(app: FastifyInstance, email = newEmail()): Promise<Tokens & { email: string }> {
  const u = await signupUser(app, email);
  const token = await tokenFromMail(app, u.session_token, /Confirm/, 'evf');
  const r = await app.inject({ method: 'POST', url: '/v1/auth/verify-email', payload: { token } });
  if (r.statusCode !== 200) throw new Error(`verify: ${r.statusCode} ${r.body}`);
  return u;
}

/** The code an authenticator app shows at `atMs` for the secret (base32) of the setup answer. */
export function totpCode(secret: string, atMs: number): string {
  return new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: atMs });
}

/** The newest captured e-mail whose subject matches, as the user reads it (GET /v1/sandbox/mail), or undefined. */
export async function mailFor(app: FastifyInstance, session: string, subject: RegExp): Promise<{ to: string; subject: string; text: string } | undefined> {
  const r = await app.inject({ method: 'GET', url: '/v1/sandbox/mail', headers: bearer(session) });
  if (r.statusCode !== 200) throw new Error(`mail: ${r.statusCode} ${r.body}`);
  return (r.json().data as { to: string; subject: string; text: string }[]).find((m) => subject.test(m.subject));
}

/**
 * POST /v1/auth/password/forgot, then the reset token once the worker has sent the link (the link
 * leaves through a job whatever the address). Needs an app with a worker (role 'all').
 */
export async function forgotPasswordToken(app: FastifyInstance, email: string, readerSession: string): Promise<string> {
  const seen = async () => (await mailFor(app, readerSession, /Redefina sua senha/))?.text.match(/[?&]token=(pwr_[A-Za-z0-9]+)/)?.[1];
  const before = await seen();
  const r = await app.inject({ method: 'POST', url: '/v1/auth/password/forgot', payload: { email } });
  if (r.statusCode !== 202) throw new Error(`forgot: ${r.statusCode} ${r.body}`);
  const end = Date.now() + 20_000;
  for (;;) {
    const token = await seen();
    if (token && token !== before) return token;
    if (Date.now() > end) throw new Error('no reset mail after 20 s');
    await new Promise((res) => setTimeout(res, 20));
  }
}
