import { randomBytes } from 'node:crypto';
import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { ApiError } from '../../kernel/errors.js';
import { hashToken } from '../../infra/identity/opaque-token.js';
import { consumeChallenge, insertChallenge, recordPasskeyUse, type ChallengePurpose, type ChallengeRow, type PasskeyRow } from './storage/webauthn-repository.js';
import type { PeopleDeps } from './people-deps.js';

/** What the browser's `navigator.credentials.get()` answered, as JSON (base64url fields). */
export interface AssertionInput {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string | undefined };
  authenticatorAttachment?: string | undefined;
  clientExtensionResults?: Record<string, unknown> | undefined;
}

// Long enough for a person to find their phone, short enough that a stolen options answer is stale
// (WebAuthn L3 §5.4.7 and §13.4.3: the challenge is single-use and the ceremony has a timeout).
export const CEREMONY_SECONDS = 300;
// WebAuthn L3 §13.4.3: at least 16 random bytes; 32 like the rest of our tokens.
const CHALLENGE_BYTES = 32;

/** A fresh random challenge; the caller hands it to the options generator and stores it with `rememberChallenge`. */
export const newChallenge = (): Uint8Array<ArrayBuffer> => new Uint8Array(randomBytes(CHALLENGE_BYTES));

/** Stores the options' challenge (base64url, as the browser will echo it) bound to its purpose, for five minutes. */
export async function rememberChallenge(
  deps: Pick<PeopleDeps, 'db' | 'clock'>,
  challenge: string,
  bound: { purpose: ChallengePurpose; userId?: string; sessionId?: string; loginTokenHash?: Buffer },
): Promise<string> {
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + CEREMONY_SECONDS * 1000);
  await insertChallenge(deps.db, { hash: hashToken(challenge), ...bound, at: now, expiresAt });
  return expiresAt.toISOString();
}

const BAD_CLIENT_DATA = () => new ApiError('validation_error', 'response.clientDataJSON is not the browser\'s client data', [{ field: 'response.clientDataJSON', message: 'not base64url JSON with a challenge' }]);
export const BAD_CHALLENGE = () => new ApiError('invalid_token', 'This passkey challenge is unknown, expired or already used: ask for new options and try again', [{ field: 'response.clientDataJSON', message: 'not a live challenge' }]);

/** The challenge the browser signed: read from clientDataJSON (WebAuthn L3 §5.8.1), only to find our row. */
function challengeOf(clientDataJSON: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw BAD_CLIENT_DATA();
  }
  const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
  if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 128) throw BAD_CLIENT_DATA();
  return challenge;
}

/**
 * Takes the response's challenge if it is live and was issued for one of `purposes`. Spent whatever
 * the outcome of the verification that follows: a failed ceremony starts again with new options.
 */
export async function takeChallenge(
  deps: Pick<PeopleDeps, 'db' | 'clock'>,
  clientDataJSON: string,
  purposes: readonly ChallengePurpose[],
): Promise<{ challenge: string; row: ChallengeRow }> {
  const challenge = challengeOf(clientDataJSON);
  const row = await consumeChallenge(deps.db, hashToken(challenge), purposes, deps.clock.now());
  if (!row) throw BAD_CHALLENGE();
  return { challenge, row };
}

export const REFUSED = (why: string) => new ApiError('unauthorized', `The passkey was not accepted: ${why}`, [{ field: 'response', message: why }]);

/**
 * Verifies an assertion of `passkey` over `challenge` (origin, RP ID, type, user presence, the
 * signature; user verification when `requireUserVerification`), then the signature counter, then
 * records the use. Throws `unauthorized` when anything fails.
 */
export async function verifyAssertion(
  deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>,
  passkey: PasskeyRow,
  input: AssertionInput,
  challenge: string,
  requireUserVerification: boolean,
): Promise<void> {
  const { rpId, origins } = deps.config.people.webauthn;
  const response: AuthenticationResponseJSON = {
    id: input.id,
    rawId: input.rawId,
    type: 'public-key',
    response: input.response,
    clientExtensionResults: {},
  };
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      expectedType: 'webauthn.get',
      requireUserVerification,
      // The counter rule is ours, below, once the signature is proven: the library gets 0 so it
      // does not decide it first (and a forger learns nothing about the stored counter).
      credential: { id: passkey.credential_id, publicKey: new Uint8Array(passkey.public_key), counter: 0, transports: passkey.transports },
    });
  } catch (err) {
    throw REFUSED(describe(err));
  }
  if (!verified.verified) throw REFUSED('the signature does not match the passkey');
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  // WebAuthn L3 §7.2 (the signCount step) and §6.1.1: when either counter is non-zero the new one
  // must be greater than the stored one; otherwise two copies of the private key are in use (a
  // cloned authenticator), and this relying party refuses the ceremony.
  if ((newCounter > 0 || passkey.counter > 0) && newCounter <= passkey.counter) {
    throw REFUSED('its signature counter did not grow (a copied authenticator?); sign in another way and remove this passkey');
  }
  if (!(await recordPasskeyUse(deps.db, passkey.id, newCounter, credentialBackedUp, deps.clock.now()))) {
    throw REFUSED('another sign-in used the same counter value at the same time');
  }
}

/** The library's reason in a few words (never a secret: it names origins, types, flags). */
function describe(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/origin/i.test(text)) return 'it was made for another origin';
  if (/RP ID/i.test(text)) return 'it was made for another relying party (RP ID)';
  if (/user verification|could not be verified/i.test(text)) return 'the authenticator did not verify the user (PIN or biometrics)';
  if (/user not present/i.test(text)) return 'the authenticator did not see the user';
  if (/type/i.test(text)) return 'it is not an authentication response';
  return 'the response could not be verified';
}
