import type { SsoProviderName } from '../../config.js';
import { ApiError } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Queryable } from '../../infra/storage/db.js';
import { insertAccount } from './storage/account-repository.js';
import { insertMembership } from './storage/membership-repository.js';
import { findIdentity, insertIdentity } from './storage/sso-repository.js';
import { findUserByEmail, insertUser } from '../../infra/storage/repositories/user-repository.js';
import { sendUserLink } from './email-links.js';
import { auditPeopleEvent } from './people-audit.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { chooseAccount, startSession, type IssuedSession } from './session-lifecycle.js';
import { providerLabel } from './sso-client.js';

/** Who the provider says signed in, from a checked ID token. */
export interface ProviderIdentity {
  provider: SsoProviderName;
  /** `sub`: the provider's stable id of the person; the identity is provider + sub, never the e-mail. */
  subject: string;
  email: string | undefined;
  /** The provider asserts the person controls the e-mail (`email_verified: true`). */
  emailVerified: boolean;
  name: string | undefined;
}

/**
 * Signs in the user of a provider identity, opening a session with the method 'sso':
 * 1. a known identity (provider + subject) is its user;
 * 2. else a verified e-mail links to the user with that e-mail, if that user confirmed it too;
 * 3. else a new user is created (their own account, owner), with the e-mail verified only if the
 *    provider said so (an unverified one gets the usual verification link).
 * An unverified e-mail never links: whoever controls a provider account can type any address into
 * it. Nor does a verified one link to a user who never confirmed theirs: that user may be an
 * attacker's pre-registration of the victim's address (pre-account takeover), which the victim's
 * single sign-on would otherwise hand back to the attacker's password. Both are refused (403),
 * since a second user with the same e-mail cannot exist.
 */
export async function signInWithIdentity(deps: PeopleDeps, id: ProviderIdentity, wantedAccount: string | undefined, meta: RequestMeta): Promise<IssuedSession> {
  return deps.db.transaction(async (tx) => {
    const { userId, linked } = await userOf(tx, deps, id);
    const accountId = await chooseAccount(tx, userId, ['sso'], wantedAccount);
    if (linked) {
      await auditPeopleEvent(tx, {
        accountId, actor: userId, action: 'auth.sso.link', target: id.provider,
        route: `/v1/auth/oauth/${id.provider}/callback`, status: 200, meta, at: deps.clock.now(),
      });
    }
    return startSession(tx, deps, { userId, accountId, methods: ['sso'], meta });
  });
}

async function userOf(tx: Queryable, deps: PeopleDeps, id: ProviderIdentity): Promise<{ userId: string; linked: boolean }> {
  const known = await findIdentity(tx, id.provider, id.subject);
  if (known) return { userId: known.user_id, linked: false };
  const label = providerLabel(id.provider);
  if (!id.email) throw new ApiError('forbidden', `${label} did not share your e-mail address: allow it and sign in again`);
  const now = deps.clock.now();
  const existing = await findUserByEmail(tx, id.email);
  if (existing) {
    if (!id.emailVerified) {
      throw new ApiError('forbidden', `${label} does not confirm that ${id.email} is yours, so it is not linked to the user with that e-mail: sign in with your password`);
    }
    if (!existing.email_verified_at) {
      throw new ApiError('forbidden', `The user with ${id.email} has not confirmed that e-mail yet: confirm it (open the link we sent, or reset the password), then sign in with ${label}`);
    }
    await link(tx, id, existing.id, now);
    return { userId: existing.id, linked: true };
  }
  const userId = newId('usr');
  const name = id.name?.trim().slice(0, 100) ?? '';
  const user = await insertUser(tx, { id: userId, email: id.email, name, passwordHash: null, verifiedAt: id.emailVerified ? now : null, at: now });
  if (!user) throw new ApiError('email_taken', 'A user with this e-mail was created at the same moment: sign in again');
  const accountId = newId('acc');
  await insertAccount(tx, { id: accountId, name: name || user.email, environment: deps.config.env, notificationEmail: user.email, at: now });
  await insertMembership(tx, { accountId, userId, role: 'owner', at: now });
  await link(tx, id, userId, now);
  if (!id.emailVerified) await sendUserLink(tx, deps, { purpose: 'verify_email', userId, accountId, to: user.email });
  return { userId, linked: false };
}

async function link(tx: Queryable, id: ProviderIdentity, userId: string, at: Date): Promise<void> {
  if (!(await insertIdentity(tx, { provider: id.provider, subject: id.subject, userId, email: id.email ?? null, at }))) {
    // Another callback of the same person linked it a moment ago: their next attempt signs in.
    throw new ApiError('unauthorized', 'This identity was linked by another sign-in at the same moment: sign in again');
  }
}
