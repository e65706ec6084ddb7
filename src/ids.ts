import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'acc' | 'usr' | 'app' | 'iss' | 'nfce' | 'nfe' | 'nfse' | 'whk' | 'dlv' | 'evt' | 'ntf' | 'aud' | 'req' | 'job' | 'inu';

/** Random base62 text; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** DESIGN 4: ids are a prefix plus random base62 (about 119 bits with 20 characters). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
