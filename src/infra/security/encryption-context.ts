import type { EncryptionContext } from './key-provider.js';

/**
 * The encryption context as bytes for AES-GCM's additional data: JSON with the keys sorted, so the
 * same context always gives the same bytes whatever order the caller built it in (KMS too treats
 * the context as an unordered map).
 */
export function canonicalContext(context: EncryptionContext): Buffer {
  const sorted = Object.keys(context).sort().map((k) => [k, context[k]]);
  return Buffer.from(JSON.stringify(Object.fromEntries(sorted)), 'utf8');
}
