import type { Note } from '../../notes/domain/note.js';
import { findNote, noteWhenSettled } from '../../notes/services/find-note.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { NFCE_FAMILY } from './nfce-family.js';
import { contingencyReason, switchToContingency } from './switch-to-contingency.js';

// What the switch itself may take (read the sale, sign the tpEmis 9 document, XSD, one transaction):
// the answer must leave within the caller's bound plus 100 ms, so the wait stops this early.
const SWITCH_MARGIN_MS = 500;

/**
 * `POST /v1/nfce` with `Prefer: wait=N`: the customer is at the till. The note as it
 * stands when the authority answered within the bound; when it did not, the sale is issued in offline
 * contingency at once (the issuer allowing it) and that note answers: printable, its transmission queued.
 */
export async function nfceWithinBound(deps: AuthorityDeps, accountId: string, row: Note, waitMs: number): Promise<Note> {
  const settled = await noteWhenSettled(deps, NFCE_FAMILY, accountId, row.id, Math.max(0, waitMs - SWITCH_MARGIN_MS));
  if (settled.status !== 'processing') return settled;
  const switched = await switchToContingency(deps, row.id, contingencyReason(`sem resposta em ${Math.round(waitMs / 1000)} s`));
  return switched ?? (await findNote(deps, NFCE_FAMILY, accountId, row.id));
}
