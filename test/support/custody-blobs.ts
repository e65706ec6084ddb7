import { randomBytes } from 'node:crypto';

/** A blob as a process under KEY_PROVIDER=aws-kms writes it: its master key is one this process lacks. */
export function kmsBlob(): string {
  const b64 = (n: number) => randomBytes(n).toString('base64');
  return JSON.stringify({ v: 1, mode: 'aws-kms', kid: `aws-kms:${randomBytes(8).toString('hex')}`, dk: b64(184), iv: b64(12), tag: b64(16), ct: b64(1200) });
}

