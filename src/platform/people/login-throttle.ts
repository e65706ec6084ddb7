import { ApiError } from '../../kernel/errors.js';
import type { Queryable } from '../storage/db.js';
import { emailKey } from '../storage/repositories/user-repository.js';
import { addLoginFailure, clearLoginFailures, getLoginFailures } from '../storage/repositories/login-failure-repository.js';

/**
 * Growing delays after failed sign-ins (issue 14 item 1), per e-mail and per client IP. Never a
 * lock: after the delay one more try is allowed, so an attacker who knows a victim's e-mail can slow
 * their sign-in by at most a minute, never keep them out; a password guesser gets a handful of tries
 * an hour. Counts live in the database: every API process sees the same ones.
 */
const RULES = [
  // after `free` failures, each further try waits 2^(n - free) seconds, at most `maxSeconds`
  { kind: 'email', free: 5, maxSeconds: 60 },
  { kind: 'ip', free: 20, maxSeconds: 300 },
] as const;

// Failures older than this are forgotten.
const WINDOW_MS = 3600_000;

export function throttleKeys(email: string, ip: string | null): string[] {
  return [`email:${emailKey(email)}`, ...(ip ? [`ip:${ip}`] : [])];
}

export function delaySeconds(kind: 'email' | 'ip', failures: number): number {
  const rule = RULES.find((r) => r.kind === kind)!;
  if (failures < rule.free) return 0;
  return Math.min(2 ** (failures - rule.free), rule.maxSeconds);
}

/** Throws rate_limited (with Retry-After) while one of the keys is inside its delay. */
export async function checkLoginThrottle(db: Queryable, keys: string[], now: Date): Promise<void> {
  let wait = 0;
  for (const row of await getLoginFailures(db, keys)) {
    if (now.getTime() - row.last_at.getTime() > WINDOW_MS) continue;
    const kind = row.key.startsWith('ip:') ? 'ip' : 'email';
    const until = row.last_at.getTime() + delaySeconds(kind, row.failures) * 1000;
    wait = Math.max(wait, Math.ceil((until - now.getTime()) / 1000));
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
