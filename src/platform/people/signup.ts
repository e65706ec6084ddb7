import { ApiError } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { hashPassword } from '../identity/password.js';
import { insertAccount } from '../storage/repositories/account-repository.js';
import { insertMembership } from '../storage/repositories/membership-repository.js';
import { insertUser } from '../storage/repositories/user-repository.js';
import { sendUserLink } from './email-links.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { startSession, type IssuedSession } from './session-lifecycle.js';

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
 */
export async function signup(deps: PeopleDeps, input: SignupInput, meta: RequestMeta): Promise<IssuedSession> {
  const passwordHash = await hashPassword(input.password); // before the transaction: 40 ms of hashing holds no lock
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const userId = newId('usr');
    const user = await insertUser(tx, { id: userId, email: input.email, name: input.name?.trim() ?? '', passwordHash, verifiedAt: null, at: now });
    if (!user) throw new ApiError('email_taken', 'A user with this e-mail already exists: sign in, or reset the password', [{ field: 'email', message: 'already registered' }]);
    const accountId = newId('acc');
    await insertAccount(tx, { id: accountId, name: input.account_name?.trim() || input.name?.trim() || user.email, environment: deps.config.env, notificationEmail: user.email, at: now });
    await insertMembership(tx, { accountId, userId, role: 'owner', at: now });
    await sendUserLink(tx, deps, { purpose: 'verify_email', userId, accountId, to: user.email });
    await auditPeopleEvent(tx, { accountId, actor: userId, action: 'auth.signup', target: userId, route: '/v1/auth/signup', status: 201, meta, at: now });
    return startSession(tx, deps, { userId, accountId, methods: ['password'], meta });
  });
}
