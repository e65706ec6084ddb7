import { ApiError, notFound } from '../../../kernel/errors.js';
import { page } from '../../../kernel/page.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { getReceived, listReceived, type ReceivedRow } from '../storage/nfe-received-repository.js';

type ReadDeps = Pick<Ports, 'db'>;

export async function findReceived(deps: ReadDeps, accountId: string, id: string): Promise<ReceivedRow> {
  const row = await getReceived(deps.db, accountId, id);
  if (!row) throw notFound('received NF-e');
  return row;
}

export async function listReceivedPage(deps: ReadDeps, accountId: string, q: { issuer_id?: string; limit?: number; starting_after?: string }) {
  const limit = q.limit ?? 20;
  const rows = await listReceived(deps.db, accountId, { issuerId: q.issuer_id, startingAfter: q.starting_after, limit: limit + 1 });
  return page(rows, limit);
}

/** The full nfeProc of a received NF-e; 409 until the national environment distributed it. */
export async function receivedXml(deps: ReadDeps, accountId: string, id: string): Promise<{ xml: string; fileName: string }> {
  const row = await findReceived(deps, accountId, id);
  if (!row.proc_xml) {
    throw new ApiError('invalid_state', `The full XML of ${row.access_key} is distributed after a ciencia or confirmacao manifestation (POST /v1/nfe/${id}/manifestation)`);
  }
  return { xml: row.proc_xml, fileName: `${row.access_key}-nfeProc.xml` };
}
