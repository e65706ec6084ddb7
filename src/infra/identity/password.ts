import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON2ID = 2;

/**
 * OWASP Password Storage Cheat Sheet, argon2id: 19 MiB of memory, 2 passes, 1 lane (its first
 * recommended configuration). A stored hash names its own parameters, so raising these later only
 * makes `needsRehash` true and the next successful sign-in stores the stronger hash.
 * @node-rs/argon2 hashes on libuv's thread pool: the event loop stays free meanwhile.
 */
export interface PasswordParams {
  algorithm: number;
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}
export const PASSWORD_PARAMS: Readonly<PasswordParams> = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** Bounds of a password (NIST SP 800-63B 5.1.1.2: at least 8; a long one is allowed but bounded). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

export async function hashPassword(password: string, params: Readonly<PasswordParams> = PASSWORD_PARAMS): Promise<string> {
  return hash(password.normalize('NFC'), { ...params, algorithm: params.algorithm as 2 });
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password.normalize('NFC'));
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

/** The stored hash was made with other parameters (or another algorithm) than today's. */
export function needsRehash(stored: string, params: Readonly<PasswordParams> = PASSWORD_PARAMS): boolean {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!m) return true;
  return Number(m[1]) !== params.memoryCost || Number(m[2]) !== params.timeCost || Number(m[3]) !== params.parallelism;
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password, made once per process: signing in with an unknown e-mail verifies
 * against it, so the answer takes as long as for a known e-mail with a wrong password.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`);
  return dummy;
}
