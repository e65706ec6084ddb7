// Which private keys may sign NFC-e. The authority verifies RSA-SHA1 XMLDSig only (the official
// xmldsig-core-schema_v1.01.xsd fixes the algorithm), and ICP-Brasil A1 certificates carry RSA 2048
// keys (4096 is tolerated). A larger key was accepted and each signature then held
// the event loop (16384 bits: about 250 ms per sale), so sizes outside 2048..4096 are refused.
import type { KeyObject } from 'node:crypto';

export const RSA_MIN_BITS = 2048;
export const RSA_MAX_BITS = 4096;

/** Why `key` cannot sign notes (a sentence for the uploader), or null when it can. */
export function signingKeyProblem(key: KeyObject): string | null {
  const type = key.asymmetricKeyType;
  if (type !== 'rsa') return nonRsaKeyProblem(type ?? 'unknown');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < RSA_MIN_BITS) {
    return `The certificate's key is RSA ${bits} bits, too weak: ICP-Brasil A1 certificates use RSA ${RSA_MIN_BITS} bits; the gateway accepts ${RSA_MIN_BITS} to ${RSA_MAX_BITS}.`;
  }
  if (bits > RSA_MAX_BITS) {
    return `The certificate's key is RSA ${bits} bits, larger than the ${RSA_MAX_BITS} the gateway accepts (each signature would take too long): ICP-Brasil A1 certificates use RSA ${RSA_MIN_BITS} bits.`;
  }
  return null;
}

/** The sentence for a key that is not RSA (forge cannot even read EC keys; Node names their type). */
export function nonRsaKeyProblem(type: string): string {
  return `The certificate's key is ${type.toUpperCase()}, not RSA: SEFAZ verifies only RSA-SHA1 signatures, so upload an RSA A1 certificate (ICP-Brasil A1: RSA ${RSA_MIN_BITS} bits).`;
}
