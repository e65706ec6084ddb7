// The AN's consumption rule for NFeDistribuicaoDFe (docs/fiscal/nfe-model-55.md#distribution-and-throttling; NT 2014.002 as quoted): after an
// answer 137 (nothing found), or when ultNSU == maxNSU (caught up), wait ONE HOUR before the next
// distNSU; ask always from the ultNSU last received (never out of sequence). Breaking it answers
// 656 and blocks the interested party for an hour. Pure: the caller stores the last answer and
// hands in its clock.
import { padNsu } from './distribution.js';

export const DISTRIBUTION_WAIT_MS = 3600_000;

/** What the download job keeps of its last distNSU call. */
export interface LastDistribution {
  /** cStat of the answer: 138 found, 137 nothing, 656 consumption rule broken; anything else. */
  cStat: number;
  /** The ultNSU the call asked from. */
  askedUltNSU: string;
  /** ultNSU and maxNSU of the answer (a 656 answer carries zeros: they are ignored). */
  ultNSU: string;
  maxNSU: string;
  /** When the answer arrived. */
  at: Date;
}

export interface NextDistribution {
  /** The ultNSU to ask from. */
  ultNSU: string;
  /** The earliest moment of the next call (the past means: now). */
  notBefore: Date;
  reason: 'first-call' | 'more-documents' | 'caught-up' | 'nothing-found' | 'throttled' | 'failed';
}

const max = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? padNsu(a) : padNsu(b));

/** When, and from which NSU, the next distNSU call may be made. `firstNSU` starts a party never asked (0). */
export function nextDistribution(last: LastDistribution | null, firstNSU: string | number = 0): NextDistribution {
  if (!last) return { ultNSU: padNsu(firstNSU), notBefore: new Date(0), reason: 'first-call' };
  const later = new Date(last.at.getTime() + DISTRIBUTION_WAIT_MS);
  if (last.cStat === 138 || last.cStat === 137) {
    // The answer's ultNSU is the sequence point; it never moves the cursor backwards.
    const ultNSU = max(last.askedUltNSU, last.ultNSU);
    if (last.cStat === 137) return { ultNSU, notBefore: later, reason: 'nothing-found' };
    if (BigInt(last.ultNSU) >= BigInt(last.maxNSU)) return { ultNSU, notBefore: later, reason: 'caught-up' };
    return { ultNSU, notBefore: last.at, reason: 'more-documents' };
  }
  // 656 blocks for an hour; any other answer (rejection, service stopped) is not retried faster:
  // a loop of failing calls is itself improper consumption (MOC 7.0 4.3.6, docs/fiscal/nfe-model-55.md#distribution-and-throttling).
  return { ultNSU: padNsu(last.askedUltNSU), notBefore: later, reason: last.cStat === 656 ? 'throttled' : 'failed' };
}

/** Milliseconds to wait before the next call at `now` (0 = call now). */
export function distributionWaitMs(next: NextDistribution, now: Date): number {
  return Math.max(0, next.notBefore.getTime() - now.getTime());
}
