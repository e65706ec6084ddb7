import { ApiError } from '../../kernel/errors.js';
import type { Queryable } from '../../infra/storage/db.js';
import { emailKey } from '../../infra/storage/repositories/user-repository.js';
import { addLoginFailure, clearLoginFailures, getLoginFailures } from './storage/login-failure-repository.js';

/**
 * Growing delays after failed sign-ins, per e-mail and per client IP. After the
 * delay one more try is allowed, so a password guesser gets a handful of tries an hour. But whoever
 * knows the e-mail can send that one try each time the delay runs out and so keep everyone waiting
 * The user's own browser, with its device cookie, is therefore not held by the
 * e-mail's count (password-guard.ts, device-cookie.ts). Counts live in the database: every API
 * process sees the same ones.
 */
// After `free` failures, each further try waits 2^(n - free) seconds, at most `maxSeconds`. The free
// failures per address are LOGIN_IP_FREE_FAILURES (20): an office or a shop's NAT shares one address.
const EMAIL_RULE = { free: 5, maxSeconds: 60 };
const IP_MAX_SECONDS = 300;

// Failures older than this are forgotten.
const WINDOW_MS = 3600_000;

export function throttleKeys(email: string, ip: string | null): string[] {
  return [`email:${emailKey(email)}`, ...(ip ? [`ip:${ip}`] : [])];
}

export function delaySeconds(kind: 'email' | 'ip', failures: number, ipFree: number): number {
  const rule = kind === 'email' ? EMAIL_RULE : { free: ipFree, maxSeconds: IP_MAX_SECONDS };
  if (failures < rule.free) return 0;
  return Math.min(2 ** Math.min(failures - rule.free, 30), rule.maxSeconds);
}

/** Throws rate_limited (with Retry-After) while one of the keys is inside its delay. */
export async function checkLoginThrottle(db: Queryable, keys: string[], now: Date, ipFree: number): Promise<void> {
  let wait = 0;
  for (const row of await getLoginFailures(db, keys)) {
    if (now.getTime() - row.last_at.getTime() > WINDOW_MS) continue;
    const kind = row.key.startsWith('ip:') ? 'ip' : 'email';
    const delay = delaySeconds(kind, row.failures, ipFree);
    if (delay === 0) continue;
    const until = row.last_at.getTime() + delay * 1000;
    // Never more than the delay itself: a failure stamped by a process whose clock runs ahead must
    // not hold anyone for longer than the rule says.
    wait = Math.max(wait, Math.min(delay, Math.ceil((until - now.getTime()) / 1000)));
  }
  if (wait > 0) {
    throw new ApiError('rate_limited', `Too many failed sign-ins: try again in ${wait} s`, undefined, { 'Retry-After': String(wait) });
  }
}

export async function recordLoginFailure(db: Queryable, keys: string[], now: Date): Promise<void> {
  await addLoginFailure(db, keys, now, new Date(now.getTime() - WINDOW_MS));
}

/** A successful sign-in clears its e-mail's count (not the IP's: one good password does not bless a guesser's address). */
export async function clearEmailFailures(db: Queryable, email: string): Promise<void> {
  await clearLoginFailures(db, [`email:${emailKey(email)}`]);
}
