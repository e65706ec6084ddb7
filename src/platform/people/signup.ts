import { newId } from '../../kernel/ids.js';
import { hashPassword } from '../../infra/identity/password.js';
import { newOpaqueToken } from '../../infra/identity/opaque-token.js';
import { queueMailTo } from '../mail/mail-outbox.js';
import type { Queryable } from '../../infra/storage/db.js';
import { insertAccount } from './storage/account-repository.js';
import { insertMembership, listUserMemberships } from './storage/membership-repository.js';
import { findUserByEmail, insertUser } from '../../infra/storage/repositories/user-repository.js';
import { sendUserLink } from './email-links.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { decoyVerification, shownVerification, type SandboxVerification } from './sandbox-verification.js';
import { presentSession, startSession, type IssuedSession } from './session-lifecycle.js';

export interface SignupInput {
  email: string;
  password: string;
  name?: string | undefined;
  account_name?: string | undefined;
}

/**
 * A new user, their own account (they are its owner) and a first session, in one transaction; the
 * verification link leaves through the mail outbox. Until the e-mail is confirmed the session
 * reaches only the auth routes, the account and (sandbox) the captured mail.
 *
 * An e-mail that already has a user gets the same answer (201, a session of the same shape, after the
 * same password hashing) whose tokens open nothing, and the address's owner gets an e-mail saying
 * somebody tried: the sign-up form does not tell a stranger who has an account,
 * and whoever owns the address learns of the attempt. In a sandbox without SMTP the answer also
 * carries the verification link (the decoy's is one that confirms nothing): sandbox-verification.ts.
 */
/** The session, and in a sandbox without SMTP the verification link (sandbox-verification.ts). */
export type SignupAnswer = IssuedSession & { sandbox_verification?: SandboxVerification };

export async function signup(deps: PeopleDeps, input: SignupInput, meta: RequestMeta): Promise<SignupAnswer> {
  const passwordHash = await hashPassword(input.password); // before the transaction: 40 ms of hashing holds no lock
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const userId = newId('usr');
    const user = await insertUser(tx, { id: userId, email: input.email, name: input.name?.trim() ?? '', passwordHash, verifiedAt: null, at: now });
    if (!user) return attemptOnTakenEmail(tx, deps, input.email, meta);
    const accountId = newId('acc');
    await insertAccount(tx, { id: accountId, name: input.account_name?.trim() || input.name?.trim() || user.email, environment: deps.config.env, notificationEmail: user.email, at: now });
    await insertMembership(tx, { accountId, userId, role: 'owner', at: now });
    const sent = await sendUserLink(tx, deps, { purpose: 'verify_email', userId, accountId, to: user.email });
    await auditPeopleEvent(tx, { accountId, actor: userId, action: 'auth.signup', target: userId, route: '/v1/auth/signup', status: 201, meta, at: now });
    return { ...(await startSession(tx, deps, { userId, accountId, methods: ['password'], meta })), ...shownVerification(deps, sent) };
  });
}

/**
 * A sign-up with an address that has a user: a session-shaped answer that was never stored (its tokens
 * get 401 like any expired session), and one e-mail a day to the address's owner.
 */
async function attemptOnTakenEmail(tx: Queryable, deps: PeopleDeps, email: string, meta: RequestMeta): Promise<SignupAnswer> {
  const now = deps.clock.now();
  const owner = await findUserByEmail(tx, email);
  const [membership] = owner ? await listUserMemberships(tx, owner.id) : [];
  if (owner && membership) {
    const link = `${deps.config.people.dashboardUrl}/reset-password`;
    await queueMailTo(tx, deps.secrets, {
      accountId: membership.account_id,
      to: owner.email,
      subject: 'Alguém tentou criar uma conta com o seu e-mail',
      text: `Em ${now.toISOString()} alguém tentou criar uma conta no gateway fiscal com este endereço (IP ${meta.ip ?? 'desconhecido'}). `
        + 'Nenhuma conta nova foi criada e nada mudou na sua.\n\nSe foi você, entre com sua senha; se a esqueceu, peça outra em:\n'
        + `${link}\n\nSe não foi você, não é preciso fazer nada.\n`,
      // One a day per person: a stranger repeating the form does not flood the inbox.
      sourceKey: `signup_attempt:${owner.id}:${now.toISOString().slice(0, 10)}`,
      at: now,
    });
    await auditPeopleEvent(tx, { accountId: membership.account_id, actor: owner.id, action: 'auth.signup.email_taken', target: owner.id, route: '/v1/auth/signup', status: 201, meta, at: now });
  }
  const people = deps.config.people;
  const decoy = {
    id: newId('ses'), user_id: newId('usr'), account_id: newId('acc'), methods: ['password'], authenticated_at: now, created_at: now,
    last_used_at: now, expires_at: new Date(now.getTime() + people.sessionAbsoluteSeconds * 1000), ip: meta.ip, user_agent: meta.userAgent,
  };
  return {
    object: 'session',
    session: presentSession(decoy as Parameters<typeof presentSession>[0], people.sessionIdleSeconds),
    session_token: newOpaqueToken('st'),
    refresh_token: newOpaqueToken('rt'),
    ...decoyVerification(deps),
  };
}
