// NFC-e cancellation deadline (docs/fiscal/events.md): at most 30 minutes after authorization, Ajuste SINIEF
// 19/16 cl. 15 (wording of Ajuste SINIEF 07/18); a state may set a shorter one. No state in our
// sources sets a shorter window for NFC-e; the per-state figure is data (fiscal/states/states.ts).
import { stateFacts } from '../../../fiscal/states/states.js';

const NATIONAL_MINUTES = 30;

export function cancellationWindowMinutes(uf: string): number {
  return stateFacts(uf)?.nfceCancelMinutes ?? NATIONAL_MINUTES;
}

/** The last instant a note authorized at `authorizedAt` may be cancelled (110111). */
export function cancellationDeadline(uf: string, authorizedAt: Date): Date {
  return new Date(authorizedAt.getTime() + cancellationWindowMinutes(uf) * 60_000);
}
