// The contingency record of a note (column notes.contingency, migration 18), apart so note-repository.ts
// stays a readable size.

/**
 * Why and when an NFC-e went to offline contingency (docs/fiscal/offline-contingency.md), its transmission deadline, and what
 * became of the normal-emission attempt it replaced (its number and key are no longer the note's).
 */
export interface NoteContingency {
  reason: string;
  /** dhCont: when the note entered contingency (ISO 8601). */
  entered_at: string;
  /** The transmission deadline (ISO 8601). */
  deadline_at: string;
  /** When the authority answered it for good (authorized, or refused: the note is then rejected). */
  transmitted_at?: string | null;
  /** Who issued it: the gateway's autopilot, or the point of sale itself (POST /v1/nfce/offline); absent = gateway. */
  source?: 'gateway' | 'client';
  /** A point of sale's note received past deadline_at (still transmitted: the authority may answer 150, docs/fiscal/offline-contingency.md). */
  late?: boolean;
  /** A contingency note the authority refused: when its number was voided (nfce.contingency-void). */
  number_voided_at?: string | null;
  /** When the QR code was signed again with the issuer's current CSC (462/463/464), once. */
  qr_refreshed_at?: string | null;
  /** When the gateway warned that the deadline is near (nfce.contingency_deadline), once. */
  deadline_warned_at?: string | null;
  first_attempt?: {
    serie: number;
    number: number;
    access_key: string;
    /**
     * pending until settled: canceled_by_substitution (it had been authorized: 110112), voided (inutilization),
     * or authorized_kept (authorized, and the contingency document refused: the first attempt is the sale's note).
     */
    outcome: 'pending' | 'canceled_by_substitution' | 'voided' | 'authorized_kept';
    protocolo?: string | null;
    settled_at?: string | null;
  } | null;
}
