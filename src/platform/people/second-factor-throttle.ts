import { ApiError } from '../../kernel/errors.js';
import {
  clearSecondFactorFailures, countSecondFactorTry, getSecondFactorFailures, type SecondFactorRule,
} from './storage/second-factor-failure-repository.js';
import { uncountTrustedDeviceTry, type TrustedDevice } from './device-cookie.js';
import type { PeopleDeps } from './people-deps.js';

/**
 * Wrong TOTP and recovery codes per user, wherever they are sent: the answer to a
 * sign-in challenge, step-up, disabling TOTP. A correct password starts a new challenge, so counting
 * per challenge let someone who knew the password check codes as fast as they could sign in; the
 * count lives with the user, is taken before the code is checked (atomically: see the repository)
 * and only a successful second factor resets it.
 *
 * 5 free tries, then 1, 2, 4 ... seconds after the last, at most 15 minutes. For an attacker who
 * knows the password: 17 tries in the first hour (15 of them in the first 17 minutes), then 4 an
 * hour; each try matches 3 of the 10^6 codes (the current step and one either side), so about 1
 * chance in 83,000 per hour once the delay is at its cap.
 * A browser with the user's device cookie is counted but not held (the attacker cannot keep the
 * user out); its own count bounds it (device-cookie.ts).
 */
export const SECOND_FACTOR_RULE: SecondFactorRule = { free: 5, maxSeconds: 900 };

export function secondFactorDelaySeconds(failures: number): number {
  if (failures < SECOND_FACTOR_RULE.free) return 0;
  return Math.min(2 ** Math.min(failures - SECOND_FACTOR_RULE.free, 30), SECOND_FACTOR_RULE.maxSeconds);
}

/** Runs `check` (true-ish: the factor is proven) once the user's count allows a try; 429 while it says wait. */
export async function throttledSecondFactor<T>(
  deps: Pick<PeopleDeps, 'db' | 'clock'>,
  userId: string,
  device: TrustedDevice | null,
  check: () => Promise<T | null>,
): Promise<T | null> {
  const now = deps.clock.now();
  const counted = await countSecondFactorTry(deps.db, userId, now, SECOND_FACTOR_RULE, device !== null);
  if (counted === null) {
    const row = await getSecondFactorFailures(deps.db, userId);
    const delay = secondFactorDelaySeconds(row?.failures ?? 0);
    // Never more than the delay itself, whatever clock stamped the last failure.
    const wait = Math.max(1, Math.min(delay, Math.ceil(((row?.last_at.getTime() ?? 0) + delay * 1000 - now.getTime()) / 1000)));
    throw new ApiError('rate_limited', `Too many wrong codes: try again in ${wait} s`, undefined, { 'Retry-After': String(wait) });
  }
  const proven = await check();
  if (proven) await secondFactorProven(deps, userId, device);
  return proven;
}

/** A second factor proven (a code, a recovery code, a passkey): the user's count starts again. */
export async function secondFactorProven(deps: Pick<PeopleDeps, 'db'>, userId: string, device: TrustedDevice | null = null): Promise<void> {
  await clearSecondFactorFailures(deps.db, userId);
  await uncountTrustedDeviceTry(deps, device);
}
