// NFC-e cancellation deadline (FACTS 5): at most 30 minutes after authorization, Ajuste SINIEF
// 19/16 cl. 15 (wording of Ajuste SINIEF 07/18); a state may set a shorter one. No state in our
// sources sets a shorter window for NFC-e, so every UF uses the national one until one is sourced.
const NATIONAL_MINUTES = 30;
const BY_UF: Readonly<Record<string, number>> = {};

export function cancellationWindowMinutes(uf: string): number {
  return BY_UF[uf] ?? NATIONAL_MINUTES;
}

/** The last instant a note authorized at `authorizedAt` may be cancelled (110111). */
export function cancellationDeadline(uf: string, authorizedAt: Date): Date {
  return new Date(authorizedAt.getTime() + cancellationWindowMinutes(uf) * 60_000);
}
