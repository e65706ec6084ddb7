import { ApiError } from '../../../kernel/errors.js';
import { sqlState } from '../../../infra/storage/db.js';
import { EXTERNAL_REF_INDEX, findNoteHoldingExternalRef } from '../storage/note-repository.js';
import type { Ports } from '../../../platform/ports/ports.js';

/**
 * A sale retried without an Idempotency-Key issued a second fiscal document for the
 * same external_ref. A note issued through the API holds its external_ref among its issuer's live
 * notes of its model (processing, contingency, authorized; migration 40): the statement storing a
 * second one breaks that unique index, stores nothing, and the sale is refused naming the first note.
 * A rejected, denied or canceled note lets go of it, so a sale the authority refused may be sent again
 * with the same external_ref; `allow_duplicate_external_ref: true` issues another document anyway.
 */
export function breaksExternalRef(err: unknown): boolean {
  return sqlState(err) === '23505' && (err as { constraint?: unknown }).constraint === EXTERNAL_REF_INDEX;
}

/** The refusal naming the live note that holds the external_ref, or undefined when it let go of it meanwhile. */
export async function duplicateExternalRef(
  deps: Pick<Ports, 'db'>,
  accountId: string,
  sale: { issuerId: string; model: number; externalRef: string; label: string },
): Promise<ApiError | undefined> {
  const held = await findNoteHoldingExternalRef(deps.db, accountId, sale.issuerId, sale.model, sale.externalRef);
  if (!held) return undefined;
  return new ApiError(
    'duplicate_external_ref',
    `external_ref ${sale.externalRef} is already held by ${sale.label} ${held.id} (${held.status}) of this issuer; ` +
      'send allow_duplicate_external_ref: true to issue another document for it',
    [{ field: 'external_ref', message: `already issued as ${held.id} (${held.status})`, note_id: held.id }],
  );
}
