import type { Queryable } from '../../../infra/storage/db.js';

// NT 2021.001 and NT 2023.005, 5.1 (826; docs/fiscal/delivery-events.md): an NF-e with a proof of delivery (110130) or a
// failed delivery (110192) that no cancellation (110131 / 110193) voids cannot be cancelled. The gateway says so first.
const PAIRS = [
  { event: '110130', cancel: '110131', name: 'proof of delivery', type: 'proof_cancel' },
  { event: '110192', cancel: '110193', name: 'failed delivery', type: 'failure_cancel' },
] as const;

/** Why the note's cancellation would be refused with 826, or null. A pending event counts: it may be registered. */
export async function deliveryBlocksCancellation(db: Queryable, noteId: string): Promise<string | null> {
  const r = await db.query<{ tp_evento: string; status: string; protocolo: string | null; detail: Record<string, unknown> }>(
    `SELECT tp_evento, status, protocolo, detail FROM nfe_events WHERE note_id = $1 AND tp_evento IN ('110130', '110131', '110192', '110193') AND status <> 'rejected'`,
    [noteId],
  );
  for (const p of PAIRS) {
    const voided = new Set(r.rows.filter((e) => e.tp_evento === p.cancel && e.status === 'registered').map((e) => String(e.detail.protocol)));
    const standing = r.rows.find((e) => e.tp_evento === p.event && (e.status === 'pending' || !voided.has(e.protocolo ?? '')));
    if (standing) {
      return `NF-e ${noteId} has a ${p.name} (${p.event}${standing.protocolo ? `, protocol ${standing.protocolo}` : ', pending'}) that is not cancelled; ` +
        `cancel it first (POST /v1/nfe/${noteId}/delivery-events with type ${p.type}): the authority refuses the cancellation with 826`;
    }
  }
  return null;
}
