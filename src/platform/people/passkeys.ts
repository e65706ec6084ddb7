import { generateRegistrationOptions, verifyRegistrationResponse, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import { ApiError, notFound } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { deleteUserPasskey, insertPasskey, listUserPasskeys, type PasskeyRow } from './storage/webauthn-repository.js';
import { announceFactorNotice, writeFactorNotice, type NoticeDeps } from './factor-notice.js';
import { getUser } from '../../infra/storage/repositories/user-repository.js';
import { BAD_CHALLENGE, CEREMONY_SECONDS, newChallenge, REFUSED, rememberChallenge, takeChallenge } from './passkey-ceremony.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import type { SessionActor } from './session-auth.js';

/** What the browser's `navigator.credentials.create()` answered, as JSON, and a name for the list. */
export interface RegistrationInput {
  id: string;
  rawId: string;
  type: 'public-key';
  response: {
    clientDataJSON: string;
    attestationObject: string;
    transports?: string[] | undefined;
    authenticatorData?: string | undefined;
    publicKey?: string | undefined;
    publicKeyAlgorithm?: number | undefined;
  };
  authenticatorAttachment?: string | undefined;
  clientExtensionResults?: Record<string, unknown> | undefined;
  name?: string | undefined;
}

export interface PasskeyView {
  id: string;
  object: 'passkey';
  name: string;
  device_type: string | null;
  backed_up: boolean;
  transports: string[];
  created_at: string;
  last_used_at: string | null;
  /** A password reset suspended it (added in the 24 hours before): it signs nobody in until confirmed. */
  suspended: boolean;
}

// A person's phones, laptops and keys; the list also rides in every options answer (excludeCredentials).
export const MAX_PASSKEYS = 20;
// COSE algorithms (RFC 9053): EdDSA, ES256, RS256, what authenticators make today.
const ALGORITHMS = [-8, -7, -257];
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

export function presentPasskey(p: PasskeyRow): PasskeyView {
  return {
    id: p.id,
    object: 'passkey',
    name: p.name,
    device_type: p.device_type,
    backed_up: p.backed_up,
    transports: p.transports,
    created_at: p.created_at.toISOString(),
    last_used_at: p.last_used_at?.toISOString() ?? null,
    suspended: p.suspended_at !== null,
  };
}

/**
 * Options for `navigator.credentials.create()`: a discoverable credential (residentKey required, so
 * it can sign in without an e-mail), user verification preferred, none of the user's passkeys again.
 */
export async function passkeyRegistrationOptions(
  deps: Pick<PeopleDeps, 'db' | 'clock' | 'config'>,
  actor: SessionActor,
): Promise<{ object: 'passkey_registration_options'; expires_at: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const user = await getUser(deps.db, actor.userId);
  if (!user) throw new ApiError('unauthorized', 'Sign in again');
  const existing = await listUserPasskeys(deps.db, user.id);
  if (existing.length >= MAX_PASSKEYS) throw new ApiError('invalid_state', `You have ${MAX_PASSKEYS} passkeys: remove one first`);
  const { rpId, rpName } = deps.config.people.webauthn;
  const options = await generateRegistrationOptions({
    rpName,
    rpID: rpId,
    userName: user.email,
    userDisplayName: user.name || user.email,
    // WebAuthn L3 §14.6.1: the user handle carries no personal data; our opaque user id does not.
    userID: new Uint8Array(Buffer.from(user.id, 'utf8')),
    challenge: newChallenge(),
    timeout: CEREMONY_SECONDS * 1000,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  const expiresAt = await rememberChallenge(deps, options.challenge, { purpose: 'registration', userId: user.id, sessionId: actor.sessionId });
  return { object: 'passkey_registration_options', expires_at: expiresAt, options };
}

/**
 * Checks the browser's answer to the registration options and stores the new passkey; the person is
 * told by e-mail and notification. Like the options, the route asks for a recent
 * proof and a confirmed e-mail; adding a passkey proves nothing about the session in turn.
 */
export async function verifyPasskeyRegistration(
  deps: NoticeDeps,
  actor: SessionActor,
  input: RegistrationInput,
  meta: RequestMeta,
): Promise<PasskeyView> {
  const { challenge, row } = await takeChallenge(deps, input.response.clientDataJSON, ['registration']);
  // The challenge was made for this user in this session: another session's options prove nothing here.
  if (row.user_id !== actor.userId || row.session_id !== actor.sessionId) throw BAD_CHALLENGE();
  const { rpId, origins } = deps.config.people.webauthn;
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: {
        id: input.id,
        rawId: input.rawId,
        type: 'public-key',
        response: { clientDataJSON: input.response.clientDataJSON, attestationObject: input.response.attestationObject, transports: input.response.transports },
        clientExtensionResults: {},
      },
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      expectedType: 'webauthn.create',
      requireUserVerification: false, // 'preferred' at registration; a sign-in without a password demands it (passkey-login.ts)
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch (err) {
    throw REFUSED(err instanceof Error && /origin/i.test(err.message) ? 'it was made for another origin' : 'the registration response could not be verified');
  }
  if (!verified.verified) throw REFUSED('the registration response could not be verified');
  // Two option answers used one after the other could pass the cap checked when they were made.
  if ((await listUserPasskeys(deps.db, actor.userId)).length >= MAX_PASSKEYS) throw new ApiError('invalid_state', `You have ${MAX_PASSKEYS} passkeys: remove one first`);
  const info = verified.registrationInfo;
  const name = input.name?.trim() || `Passkey ${deps.clock.now().toISOString().slice(0, 10)}`;
  const now = deps.clock.now();
  const { stored, woken } = await deps.db.transaction(async (tx) => {
    const row = await insertPasskey(tx, {
      id: newId('pky'),
      userId: actor.userId,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: (input.response.transports ?? []).filter((t) => TRANSPORTS.has(t)),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name,
      at: now,
    });
    if (!row) throw new ApiError('invalid_state', 'This passkey is already registered', [{ field: 'id', message: 'already registered' }]);
    return { stored: row, woken: await writeFactorNotice(tx, deps, { userId: actor.userId, change: { kind: 'passkey_added', name }, ip: meta.ip, at: now }) };
  });
  await announceFactorNotice(deps, woken);
  return presentPasskey(stored);
}

export async function listMyPasskeys(deps: Pick<PeopleDeps, 'db'>, actor: SessionActor): Promise<{ data: PasskeyView[]; has_more: false }> {
  return { data: (await listUserPasskeys(deps.db, actor.userId)).map(presentPasskey), has_more: false };
}

export async function deleteMyPasskey(deps: NoticeDeps, actor: SessionActor, id: string, meta: RequestMeta): Promise<void> {
  const now = deps.clock.now();
  const woken = await deps.db.transaction(async (tx) => {
    const removed = await deleteUserPasskey(tx, actor.userId, id);
    if (!removed) throw notFound('Passkey');
    return writeFactorNotice(tx, deps, { userId: actor.userId, change: { kind: 'passkey_removed', name: removed.name }, ip: meta.ip, at: now });
  });
  await announceFactorNotice(deps, woken);
}
