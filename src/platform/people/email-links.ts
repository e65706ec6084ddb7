import { hashToken, newOpaqueToken, type TokenPrefix } from '../../infra/identity/opaque-token.js';
import type { Queryable } from '../../infra/storage/db.js';
import { expireUserTokens, insertUserToken, type UserTokenPurpose } from './storage/user-token-repository.js';
import { queueMailTo } from '../mail/mail-outbox.js';
import type { PeopleDeps } from './people-deps.js';

// In Brazilian Portuguese, like every message people read.
const LINKS: Record<'verify_email' | 'reset_password', { prefix: TokenPrefix; path: string; hours: number; subject: string; body: string }> = {
  verify_email: {
    prefix: 'evf',
    path: '/verify-email',
    hours: 48,
    subject: 'Confirme seu endereço de e-mail',
    body: 'Confirme este endereço para a sua conta no gateway fiscal abrindo o link abaixo (válido por 48 horas):',
  },
  reset_password: {
    prefix: 'pwr',
    path: '/reset-password',
    hours: 1,
    subject: 'Redefina sua senha',
    body: 'Alguém (esperamos que você) pediu para redefinir a senha deste endereço. Abra o link abaixo em até uma hora para escolher uma nova; se não foi você, ignore esta mensagem:',
  },
};

/**
 * Sends a single-use link by e-mail in the caller's transaction; earlier links of the same kind stop
 * working. The token is in the message only (the outbox keeps the message: it is the e-mail itself,
 * as a mail server would keep it); the database keeps its hash. The link is returned for the one
 * caller allowed to show it (sign-up in a sandbox without SMTP: sandbox-verification.ts).
 */
export async function sendUserLink(
  tx: Queryable,
  deps: Pick<PeopleDeps, 'clock' | 'config' | 'secrets'>,
  l: { purpose: UserTokenPurpose & keyof typeof LINKS; userId: string; accountId: string; to: string },
): Promise<{ link: string; token: string }> {
  const spec = LINKS[l.purpose];
  const now = deps.clock.now();
  const token = newOpaqueToken(spec.prefix);
  await expireUserTokens(tx, l.userId, l.purpose, now);
  await insertUserToken(tx, { tokenHash: hashToken(token), userId: l.userId, purpose: l.purpose, accountId: l.accountId, at: now, expiresAt: new Date(now.getTime() + spec.hours * 3600_000) });
  const link = `${deps.config.people.dashboardUrl}${spec.path}?token=${token}`;
  await queueMailTo(tx, deps.secrets, {
    accountId: l.accountId,
    to: l.to,
    subject: spec.subject,
    text: `${spec.body}\n\n${link}\n\nSó o token, para clientes da API: ${token}\n`,
    sourceKey: `${l.purpose}:${hashToken(token).toString('hex').slice(0, 32)}`,
    at: now,
  });
  return { link, token };
}
