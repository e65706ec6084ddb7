import { createHash } from 'node:crypto';

/** JSON with object keys sorted and no whitespace, so one object re-serialized hashes the same (DESIGN 4). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  if (Buffer.isBuffer(value)) return JSON.stringify('sha256:' + createHash('sha256').update(value).digest('hex'));
  const keys = Object.keys(value as object).sort();
  return (
    '{' +
    keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => JSON.stringify(k) + ':' + canonicalJson((value as Record<string, unknown>)[k]))
      .join(',') +
    '}'
  );
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
