import { createHash } from 'node:crypto';
import { ApiError } from '../kernel/errors.js';

/** Deeper bodies are refused (400) rather than overflowing the stack (a 500). No real body nests this deep. */
export const MAX_JSON_DEPTH = 100;

/** JSON with object keys sorted and no whitespace, so one object re-serialized hashes the same (docs/decisions.md#api-conventions). */
export function canonicalJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (depth >= MAX_JSON_DEPTH) throw new ApiError('invalid_json', `The body is nested more than ${MAX_JSON_DEPTH} levels deep`);
  if (Array.isArray(value)) return '[' + value.map((v) => canonicalJson(v, depth + 1)).join(',') + ']';
  if (Buffer.isBuffer(value)) return JSON.stringify('sha256:' + createHash('sha256').update(value).digest('hex'));
  const keys = Object.keys(value as object).sort();
  return (
    '{' +
    keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => JSON.stringify(k) + ':' + canonicalJson((value as Record<string, unknown>)[k], depth + 1))
      .join(',') +
    '}'
  );
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
