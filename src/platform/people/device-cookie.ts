import { ApiError } from '../../kernel/errors.js';
import { hashToken, looksLikeToken, newOpaqueToken } from '../../infra/identity/opaque-token.js';
import {
  countDeviceTry, deleteDeviceToken, deleteExpiredDeviceTokens, insertDeviceToken, uncountDeviceTry,
} from './storage/device-token-repository.js';
import { emailKey } from '../../infra/storage/repositories/user-repository.js';
import type { PeopleDeps } from './people-deps.js';

/**
 * OWASP's device cookie. The per-e-mail delay slows a password guesser, but anyone
 * who knows the e-mail can keep it running from rotating addresses and so keep the user out. A
 * browser that completed a sign-in gets a random token bound to its user; presented with that user's
 * e-mail it skips the per-e-mail delay (per-address delays still apply). The token's own tries are
 * counted: after DEVICE_MAX_FAILURES inside DEVICE_WINDOW_MS it is refused until the window ends, so a
 * stolen cookie guesses no faster than that. Clients without the cookie (API clients) are unchanged.
 */
export const DEVICE_MAX_FAILURES = 10;
export const DEVICE_WINDOW_MS = 3600_000;
// A browser that has not signed in for half a year is a stranger again.
export const DEVICE_LIFETIME_SECONDS = 180 * 86_400;

/** A live device token of the user trying to sign in; its try is already counted. */
export interface TrustedDevice {
  tokenHash: Buffer;
}

/**
 * The device of `token` when it is a live one of `email`'s user, its try counted before the secret is
 * checked (atomic: parallel tries with one stolen cookie are counted one by one). Throws rate_limited
 * while the device is locked. null (no token, unknown, expired, another user's) means no exemption.
 */
export async function countTrustedDeviceTry(deps: Pick<PeopleDeps, 'db' | 'clock'>, token: string | null | undefined, email: string): Promise<TrustedDevice | null> {
  if (!token || !looksLikeToken(token, 'dv')) return null;
  const tokenHash = hashToken(token);
  const now = deps.clock.now();
  const tried = await countDeviceTry(deps.db, tokenHash, emailKey(email), now, DEVICE_WINDOW_MS, DEVICE_MAX_FAILURES);
  if (tried.outcome === 'unknown') return null;
  if (tried.outcome === 'locked') {
    const wait = Math.max(1, Math.ceil((tried.until.getTime() - now.getTime()) / 1000));
    throw new ApiError('rate_limited', `Too many failed sign-ins from this browser: try again in ${wait} s`, undefined, { 'Retry-After': String(wait) });
  }
  return { tokenHash };
}

/** The try was right, or was refused before the secret was checked: it does not count against the device. */
export async function uncountTrustedDeviceTry(deps: Pick<PeopleDeps, 'db'>, device: TrustedDevice | null): Promise<void> {
  if (device) await uncountDeviceTry(deps.db, device.tokenHash);
}

/**
 * A new device token after a completed sign-in; the one the browser presented (if it was this user's)
 * is spent, so a copy taken earlier stops working the next time the user signs in.
 */
export async function issueDeviceToken(deps: Pick<PeopleDeps, 'db' | 'clock'>, userId: string, presented: string | null | undefined): Promise<string> {
  const now = deps.clock.now();
  const token = newOpaqueToken('dv');
  await deps.db.transaction(async (tx) => {
    if (presented && looksLikeToken(presented, 'dv')) await deleteDeviceToken(tx, hashToken(presented), userId);
    await deleteExpiredDeviceTokens(tx, userId, now);
    await insertDeviceToken(tx, { tokenHash: hashToken(token), userId, at: now, expiresAt: new Date(now.getTime() + DEVICE_LIFETIME_SECONDS * 1000) });
  });
  return token;
}
