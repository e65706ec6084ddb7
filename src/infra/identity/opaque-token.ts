import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../kernel/ids.js';

/**
 * Bearer secrets of people (not of applications): `st_` session tokens, `rt_` refresh tokens, and
 * the single-use tokens sent by e-mail or held during a sign-in, `dv_` device cookies. 43 base62 characters carry about
 * 256 bits; only their SHA-256 is stored (a fast hash is enough for a secret nobody can guess).
 */
export type TokenPrefix = 'st' | 'rt' | 'evf' | 'pwr' | 'inv' | 'mfa' | 'rc' | 'dv';

export function newOpaqueToken(prefix: TokenPrefix): string {
  return `${prefix}_${randomBase62(43)}`;
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Length-independent comparison of two hashes. */
export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token has the prefix and shape we issue: anything else is refused before a database lookup. */
export function looksLikeToken(token: string, prefix: TokenPrefix): boolean {
  return token.length === prefix.length + 44 && token.startsWith(`${prefix}_`) && /^[A-Za-z0-9]+$/.test(token.slice(prefix.length + 1));
}
