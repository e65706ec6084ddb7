import { generateAuthenticationOptions, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { ApiError } from '../../kernel/errors.js';
import { hashToken, looksLikeToken, sameHash } from '../../infra/identity/opaque-token.js';
import { getSession, markAuthenticated } from './storage/session-repository.js';
import { getUser } from '../../infra/storage/repositories/user-repository.js';
import { lockLiveUserToken } from './storage/user-token-repository.js';
import { findPasskeyByCredentialId, listUserPasskeys, type PasskeyRow } from './storage/webauthn-repository.js';
import { BAD_CHALLENGE, CEREMONY_SECONDS, newChallenge, REFUSED, rememberChallenge, takeChallenge, verifyAssertion, type AssertionInput } from './passkey-ceremony.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { answerLoginChallenge } from './second-factor.js';
import { chooseAccount, presentSession, startSession, type IssuedSession, type SessionView } from './session-lifecycle.js';
import type { SessionActor } from './session-auth.js';

export interface PasskeyOptionsAnswer {
  object: 'passkey_authentication_options';
  expires_at: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

const BAD_LOGIN_CHALLENGE = () => new ApiError('invalid_token', 'The sign-in challenge is unknown, expired or spent: sign in again', [{ field: 'challenge_token', message: 'not a live challenge' }]);
const allowed = (keys: PasskeyRow[]) => keys.filter((p) => !p.suspended_at).map((p) => ({ id: p.credential_id, transports: p.transports }));

async function options(deps: Pick<PeopleDeps, 'config'>, keys: PasskeyRow[] | null, userVerification: 'required' | 'preferred') {
  return generateAuthenticationOptions({
    rpID: deps.config.people.webauthn.rpId,
    challenge: newChallenge(),
    timeout: CEREMONY_SECONDS * 1000,
    userVerification,
    // null: a discoverable sign-in, the authenticator offers the passkeys it holds for this RP ID
    ...(keys ? { allowCredentials: allowed(keys) } : {}),
  });
}

/**
 * Options for `navigator.credentials.get()`. Without a challenge token: a sign-in with a passkey
 * alone (discoverable; the user is who the passkey says). With the `challenge_token` of a password
 * sign-in: the passkey is its second factor, and only that user's passkeys are allowed.
 */
export async function passkeyAuthenticationOptions(
  deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>,
  body: { challenge_token?: string | undefined },
): Promise<PasskeyOptionsAnswer> {
  const token = body.challenge_token;
  if (token === undefined) {
    // A passkey alone is the whole proof: it must be multi-factor (possession + PIN or biometrics),
    // NIST SP 800-63B §5.1.8; the verification requires the UV flag.
    const opts = await options(deps, null, 'required');
    return { object: 'passkey_authentication_options', expires_at: await rememberChallenge(deps, opts.challenge, { purpose: 'authentication' }), options: opts };
  }
  if (!looksLikeToken(token, 'mfa')) throw BAD_LOGIN_CHALLENGE();
  const login = await lockLiveUserToken(deps.db, hashToken(token), 'login_challenge', deps.clock.now());
  if (!login) throw BAD_LOGIN_CHALLENGE();
  const keys = (await listUserPasskeys(deps.db, login.user_id)).filter((p) => !p.suspended_at);
  if (keys.length === 0) throw new ApiError('validation_error', 'This user has no passkey: answer the challenge with a code', [{ field: 'challenge_token', message: 'the user has no passkey' }]);
  const opts = await options(deps, keys, 'preferred');
  const expiresAt = await rememberChallenge(deps, opts.challenge, { purpose: 'login_challenge', userId: login.user_id, loginTokenHash: hashToken(token) });
  return { object: 'passkey_authentication_options', expires_at: expiresAt, options: opts };
}

/**
 * The stored passkey the response names, after WebAuthn L3 §7.2's identity checks (steps 5 and 6):
 * a credential we registered, of the user being authenticated; when no user was identified before
 * the ceremony (a discoverable sign-in, `userId` null) the user handle must be present, and when
 * present it must name the passkey's owner.
 */
async function passkeyOf(deps: Pick<PeopleDeps, 'db'>, input: AssertionInput, userId: string | null): Promise<PasskeyRow> {
  if (input.id !== input.rawId) throw new ApiError('validation_error', 'id and rawId differ', [{ field: 'rawId', message: 'must equal id' }]);
  const passkey = await findPasskeyByCredentialId(deps.db, input.id);
  if (!passkey || (userId !== null && passkey.user_id !== userId)) throw REFUSED('this passkey is not registered here');
  // Added in the 24 hours before a password reset, perhaps by whoever the reset shut out.
  if (passkey.suspended_at) throw REFUSED('a password reset suspended this passkey: sign in with the password and confirm or remove it on the security page');
  const handle = input.response.userHandle;
  if (userId === null && !handle) throw REFUSED('the authenticator did not say whose passkey it is (no user handle)');
  if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== passkey.user_id) throw REFUSED('the user handle does not match the passkey');
  return passkey;
}

/**
 * Verifies the browser's answer to authentication options and signs in: with the passkey alone
 * (methods ['passkey']) or, for a password sign-in's challenge, as its second factor (['password',
 * 'passkey']). An account that requires single sign-on refuses both, as it refuses a password.
 */
export async function verifyPasskeyAuthentication(
  deps: PeopleDeps,
  input: AssertionInput & { challenge_token?: string | undefined; account_id?: string | undefined },
  meta: RequestMeta,
): Promise<IssuedSession> {
  const { challenge, row } = await takeChallenge(deps, input.response.clientDataJSON, ['authentication', 'login_challenge']);
  if (row.purpose === 'login_challenge') {
    const token = input.challenge_token;
    if (!token) throw new ApiError('validation_error', 'These options answer a password sign-in: send its challenge_token too', [{ field: 'challenge_token', message: 'is required' }]);
    if (!row.login_token_hash || !sameHash(Buffer.from(row.login_token_hash), hashToken(token))) throw BAD_CHALLENGE();
    return answerLoginChallenge(deps, token, async (user) => {
      const passkey = await passkeyOf(deps, input, user.id);
      await verifyAssertion(deps, passkey, input, challenge, false);
      return 'passkey';
    }, meta);
  }
  const passkey = await passkeyOf(deps, input, null);
  await verifyAssertion(deps, passkey, input, challenge, true);
  const user = await getUser(deps.db, passkey.user_id);
  if (!user) throw REFUSED('this passkey is not registered here');
  return deps.db.transaction(async (tx) => {
    const accountId = await chooseAccount(tx, user.id, ['passkey'], input.account_id);
    return startSession(tx, deps, { userId: user.id, accountId, methods: ['passkey'], meta });
  });
}

/** Options for a step-up with a passkey: the signed-in user's passkeys only. */
export async function passkeyStepUpOptions(deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>, actor: SessionActor): Promise<PasskeyOptionsAnswer> {
  const keys = (await listUserPasskeys(deps.db, actor.userId)).filter((p) => !p.suspended_at);
  if (keys.length === 0) throw new ApiError('invalid_state', 'You have no passkey: confirm with your password or TOTP code at POST /v1/auth/reauthenticate');
  const opts = await options(deps, keys, 'preferred');
  const expiresAt = await rememberChallenge(deps, opts.challenge, { purpose: 'step_up', userId: actor.userId, sessionId: actor.sessionId });
  return { object: 'passkey_authentication_options', expires_at: expiresAt, options: opts };
}

/** Step-up with a passkey: the session counts as freshly authenticated. */
export async function verifyPasskeyStepUp(deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>, actor: SessionActor, input: AssertionInput): Promise<SessionView> {
  const { challenge, row } = await takeChallenge(deps, input.response.clientDataJSON, ['step_up']);
  if (row.session_id !== actor.sessionId || row.user_id !== actor.userId) throw BAD_CHALLENGE();
  const passkey = await passkeyOf(deps, input, actor.userId);
  await verifyAssertion(deps, passkey, input, challenge, false);
  await markAuthenticated(deps.db, actor.sessionId, 'passkey', deps.clock.now());
  const session = await getSession(deps.db, actor.sessionId);
  if (!session) throw new ApiError('unauthorized', 'Sign in again');
  return presentSession(session, deps.config.people.sessionIdleSeconds);
}
