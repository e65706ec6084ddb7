import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'acc' | 'usr' | 'app' | 'iss' | 'nfce' | 'nfe' | 'nfer' | 'nfse' | 'whk' | 'dlv' | 'evt' | 'ntf' | 'aud' | 'req' | 'job' | 'inu' | 'ses' | 'pky' | 'ivt' | 'inv' | 'pch' | 'exp';

// Random bytes drawn a few KB at a time: every call into the CSPRNG has a fixed cost, and a sale
// takes half a dozen ids.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolAt = 0;
function randomByte(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Random base62 text; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 4 x 62: bytes above it would favour the first characters.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** docs/decisions.md#api-conventions: ids are a prefix plus random base62 (about 119 bits with 20 characters). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
