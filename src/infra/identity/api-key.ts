import { createHash } from 'node:crypto';
import type { GatewayEnv } from '../../config.js';
import { randomBase62 } from '../../kernel/ids.js';

/** The fixed public key of the shared sandbox account (docs/guides/api.md#contract-sandbox-and-secrets, docs/decisions.md#components). */
export const SANDBOX_PUBLIC_KEY = 'sk_sandbox_public';
export const SANDBOX_ACCOUNT_ID = 'acc_sandbox';

/** `sk_live_...` in production, `sk_test_...` in the sandbox; 32 base62 characters (~190 bits). */
export function generateApiKey(env: GatewayEnv): string {
  return `${env === 'production' ? 'sk_live_' : 'sk_test_'}${randomBase62(32)}`;
}

// Keys are long random secrets, so one SHA-256 is enough to make the stored value useless to a
// thief (a slow password hash would only slow every request down).
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** What we show later to recognise a key without revealing it. */
export function keyPrefix(key: string): string {
  return key.slice(0, 12);
}
