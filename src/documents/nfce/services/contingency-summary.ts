import { outstandingContingency, type OutstandingContingency } from '../../notes/storage/note-repository.js';
import type { Ports } from '../../../platform/ports/ports.js';

/**
 * GET /v1/contingency: per issuer, the NFC-e issued in offline contingency that the
 * authority has not taken yet (how many, the oldest, the nearest deadline) and the first attempts still
 * to cancel or void. The notes themselves: GET /v1/nfce?status=contingency&issuer_id=...
 */
export async function contingencySummary(deps: Pick<Ports, 'db'>, accountId: string): Promise<OutstandingContingency[]> {
  return outstandingContingency(deps.db, accountId);
}
