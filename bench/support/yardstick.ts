// What benches report beside their own figures: RSA-2048 signatures per second on one core of the
// same machine in the same run (absolute figures vary up to 2x between machines, the ratio less),
// and percentiles of sorted samples.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/** RSA-2048 SHA-1 signatures (what an NFC-e's signature costs) per second, over 2 s. */
export function rsaSignaturesPerSecond(): number {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const data = randomBytes(512);
  const end = performance.now() + 2000;
  let n = 0;
  while (performance.now() < end) {
    sign('sha1', data, privateKey);
    n++;
  }
  return n / 2;
}

/** The p-th percentile (nearest rank) of ascending samples. */
export const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
