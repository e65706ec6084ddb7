import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { Secret, TOTP } from 'otpauth';
import { ApiError } from '../../kernel/errors.js';
import { hashToken, looksLikeToken } from '../../infra/identity/opaque-token.js';
import {
  claimTotpStep,
  deleteRecoveryCodes,
  enableTotp,
  getUser,
  replaceRecoveryCodes,
  setTotpSecret,
  totpActive,
  useRecoveryCode,
  type UserRow,
} from '../../infra/storage/repositories/user-repository.js';
import { countUserTokenAttempt, lockLiveUserToken, useUserToken } from './storage/user-token-repository.js';
import { countTrustedDeviceTry, type TrustedDevice } from './device-cookie.js';
import { announceFactorNotice, writeFactorNotice, type NoticeDeps } from './factor-notice.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import { secondFactorProven, throttledSecondFactor } from './second-factor-throttle.js';
import { startSession, type AuthMethod, type IssuedSession } from './session-lifecycle.js';
import type { SessionActor } from './session-auth.js';

// RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30-second steps.
const PERIOD = 30;
const ISSUER = 'Fiscal gateway';
// One step either side: a phone's clock a little off still works (RFC 6238 section 5.2).
const WINDOW = 1;
const RECOVERY_CODES = 10;
// Wrong answers one login challenge takes before it is spent.
const MAX_CHALLENGE_ATTEMPTS = 5;

const aad = (userId: string) => `user:${userId}:totp_secret`;

function totpFor(base32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(base32) });
}

async function secretOf(deps: Pick<PeopleDeps, 'secrets'>, user: UserRow): Promise<string | null> {
  if (!user.totp_secret_blob) return null;
  return (await deps.secrets.decrypt(user.totp_secret_blob, aad(user.id))).toString('utf8');
}

/** The time step a code belongs to, or null when it is not a current code. */
function stepOf(base32: string, label: string, code: string, nowMs: number): number | null {
  const delta = totpFor(base32, label).validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD) + delta;
}

/**
 * True when `code` is a current TOTP code of the user's enabled secret and its time step was not
 * used before: a code seen once (by us, or by someone looking over a shoulder) never works again.
 */
export async function checkTotpCode(deps: Pick<PeopleDeps, 'db' | 'clock' | 'secrets'>, user: UserRow, code: string): Promise<boolean> {
  if (!totpActive(user) || !/^[0-9]{6}$/.test(code)) return false;
  const secret = await secretOf(deps, user);
  const step = secret ? stepOf(secret, user.email, code, deps.clock.now().getTime()) : null;
  return step !== null && claimTotpStep(deps.db, user.id, step);
}

/** `xxxx-xxxx-xxxx-xxxx` over 32 letters and digits: 80 random bits, so one SHA-256 keeps it safe at rest. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789AB'; // 32 symbols, no 0/o/1/l/i look-alikes
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i++) out += alphabet[bytes[i]! & 31] + (i % 4 === 3 && i < 15 ? '-' : '');
  return out;
}

const normalizeRecovery = (code: string) => code.trim().replace(/\s+/g, '');

export async function setupTotp(deps: PeopleDeps, actor: SessionActor) {
  const user = await getUser(deps.db, actor.userId);
  if (!user) throw new ApiError('unauthorized', 'Sign in again');
  if (user.totp_enabled_at) throw new ApiError('invalid_state', 'TOTP is already enabled; disable it first to set up another authenticator');
  const secret = new Secret({ size: 20 }).base32;
  await setTotpSecret(deps.db, user.id, await deps.secrets.encrypt(Buffer.from(secret, 'utf8'), aad(user.id)), deps.clock.now());
  const uri = totpFor(secret, user.email).toString();
  return {
    object: 'totp_setup' as const,
    secret,
    otpauth_uri: uri,
    qr_code: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2 }),
    next: 'POST /v1/auth/2fa/verify with a code from the app enables TOTP',
  };
}

/**
 * Enables TOTP with a first code; answers the recovery codes, shown this once (stored hashed). The
 * route asks for a recent proof, and this proves nothing in turn: the session's
 * `authenticated_at` stays where the last real proof put it, or enrolling would be a step-up.
 */
export async function verifyTotpSetup(deps: NoticeDeps, actor: SessionActor, code: string, meta: RequestMeta) {
  const user = await getUser(deps.db, actor.userId);
  if (!user) throw new ApiError('unauthorized', 'Sign in again');
  if (user.totp_enabled_at) throw new ApiError('invalid_state', 'TOTP is already enabled');
  const secret = await secretOf(deps, user);
  if (!secret) throw new ApiError('invalid_state', 'Start with POST /v1/auth/2fa/setup');
  const now = deps.clock.now();
  const step = stepOf(secret, user.email, code, now.getTime());
  if (step === null) throw new ApiError('validation_error', 'The code does not match: check the phone\'s clock and type the current code', [{ field: 'code', message: 'not the current code' }]);
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const woken = await deps.db.transaction(async (tx) => {
    await enableTotp(tx, user.id, step, now);
    await replaceRecoveryCodes(tx, user.id, codes.map((c) => hashToken(normalizeRecovery(c))), now);
    return writeFactorNotice(tx, deps, { userId: user.id, change: { kind: 'totp_enabled' }, ip: meta.ip, at: now });
  });
  await announceFactorNotice(deps, woken);
  return { object: 'totp_enabled' as const, enabled: true as const, recovery_codes: codes };
}

/** Turns the second factor off: needs a step-up (route) and a fresh code or recovery code. */
export async function disableTotp(deps: NoticeDeps, actor: SessionActor, proof: { code?: string | undefined; recovery_code?: string | undefined }, meta: RequestMeta) {
  const user = await getUser(deps.db, actor.userId);
  if (!user) throw new ApiError('unauthorized', 'Sign in again');
  if (!user.totp_enabled_at) throw new ApiError('invalid_state', 'TOTP is not enabled');
  if (user.totp_suspended_at) throw new ApiError('invalid_state', 'A password reset suspended this TOTP: confirm it or remove it at /v1/auth/factors/totp');
  if (!(await proveSecondFactor(deps, user, proof))) {
    throw new ApiError('unauthorized', 'Wrong or already used code', [{ field: proof.code !== undefined ? 'code' : 'recovery_code', message: 'not valid' }]);
  }
  const woken = await deps.db.transaction(async (tx) => {
    await setTotpSecret(tx, user.id, null, deps.clock.now());
    await deleteRecoveryCodes(tx, user.id);
    return writeFactorNotice(tx, deps, { userId: user.id, change: { kind: 'totp_disabled' }, ip: meta.ip, at: deps.clock.now() });
  });
  await announceFactorNotice(deps, woken);
  return { object: 'totp_disabled' as const, enabled: false as const };
}

/** A TOTP code or a recovery code, counted per user across challenges (second-factor-throttle.ts). */
async function proveSecondFactor(
  deps: Pick<PeopleDeps, 'db' | 'clock' | 'secrets'>,
  user: UserRow,
  proof: { code?: string | undefined; recovery_code?: string | undefined },
  device: TrustedDevice | null = null,
): Promise<AuthMethod | null> {
  if ((proof.code === undefined) === (proof.recovery_code === undefined)) {
    throw new ApiError('validation_error', 'Send either code or recovery_code', [{ field: 'code', message: 'send exactly one of code and recovery_code' }]);
  }
  return throttledSecondFactor<AuthMethod>(deps, user.id, device, async () => {
    if (proof.code !== undefined) return (await checkTotpCode(deps, user, proof.code)) ? 'totp' : null;
    // Recovery codes belong to the TOTP secret: suspended with it by a password reset.
    if (!totpActive(user)) return null;
    const spent = await useRecoveryCode(deps.db, user.id, hashToken(normalizeRecovery(proof.recovery_code!)), deps.clock.now());
    return spent ? 'recovery_code' : null;
  });
}

const BAD_CHALLENGE = () => new ApiError('invalid_token', 'The sign-in challenge is unknown, expired or spent: sign in again', [{ field: 'challenge_token', message: 'not a live challenge' }]);

/**
 * The second step of a sign-in: `check` proves the factor for the challenge's user (a TOTP code, a
 * recovery code here; a passkey assertion in webauthn). Five wrong answers spend the challenge; codes
 * are also counted per user across challenges (second-factor-throttle.ts), and any proven factor resets that count.
 */
export async function answerLoginChallenge(
  deps: PeopleDeps,
  challengeToken: string,
  check: (user: UserRow) => Promise<AuthMethod | null>,
  meta: RequestMeta,
): Promise<IssuedSession> {
  if (!looksLikeToken(challengeToken, 'mfa')) throw BAD_CHALLENGE();
  const hash = hashToken(challengeToken);
  const challenge = await lockLiveUserToken(deps.db, hash, 'login_challenge', deps.clock.now());
  if (!challenge || challenge.attempts >= MAX_CHALLENGE_ATTEMPTS || !challenge.account_id) throw BAD_CHALLENGE();
  const user = await getUser(deps.db, challenge.user_id);
  if (!user) throw BAD_CHALLENGE();
  const method = await check(user);
  if (method) await secondFactorProven(deps, user.id);
  if (!method) {
    const attempts = await countUserTokenAttempt(deps.db, hash);
    throw new ApiError('unauthorized', `Wrong or already used code (${Math.max(0, MAX_CHALLENGE_ATTEMPTS - attempts)} tries left for this sign-in)`, [{ field: 'code', message: 'not valid' }]);
  }
  return deps.db.transaction(async (tx) => {
    if (!(await useUserToken(tx, hash, deps.clock.now()))) throw BAD_CHALLENGE();
    return startSession(tx, deps, { userId: user.id, accountId: challenge.account_id!, methods: [(challenge.data.first as AuthMethod | undefined) ?? 'password', method], meta });
  });
}

/** TOTP code or recovery code for a login challenge. */
export function answerWithCode(deps: PeopleDeps, body: { challenge_token: string; code?: string | undefined; recovery_code?: string | undefined }, meta: RequestMeta) {
  return answerLoginChallenge(deps, body.challenge_token, async (user) => {
    if (!totpActive(user)) return null;
    // The user's own browser (device cookie) is not held by the delay an attacker keeps up.
    return proveSecondFactor(deps, user, body, await countTrustedDeviceTry(deps, meta.deviceToken, user.email));
  }, meta);
}
