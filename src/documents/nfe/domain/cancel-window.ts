// NF-e cancellation deadline (docs/fiscal/events.md): 24 hours after authorization (Ajuste SINIEF 07/05, via Ato
// COTEPE 33/08 and 35/10). A state may accept a late cancellation (cStat 151/155) under its own
// rules; none is sourced here, so every UF keeps the national window (data: fiscal/states/states.ts).
import { stateFacts } from '../../../fiscal/states/states.js';

const NATIONAL_HOURS = 24;

export function nfeCancellationWindowHours(uf: string): number {
  return stateFacts(uf)?.nfeCancelHours ?? NATIONAL_HOURS;
}

/** The last instant an NF-e authorized at `authorizedAt` may be cancelled (110111). */
export function nfeCancellationDeadline(uf: string, authorizedAt: Date): Date {
  return new Date(authorizedAt.getTime() + nfeCancellationWindowHours(uf) * 3_600_000);
}

// docs/fiscal/events.md: a correction letter (110110) may be sent within 720 hours (30 days) of authorization.
export const CCE_WINDOW_HOURS = 720;
// e110110: nSeqEvento 1..20 per note.
export const CCE_MAX_SEQUENCE = 20;
