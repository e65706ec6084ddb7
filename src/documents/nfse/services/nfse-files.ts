import { ApiError } from '../../../kernel/errors.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { findNote } from '../../notes/services/find-note.js';
import { NFSE_FAMILY } from './nfse-family.js';

/**
 * GET /v1/nfse/:id/xml: the NFS-e Sefin authorized (signed by Sefin, the provider's DPS inside), or with
 * `cancellation` the registered event (101101, or 105102 when a substitute replaced it); 409 until it exists.
 */
export async function nfseXml(deps: Pick<Ports, 'db'>, accountId: string, id: string, event?: 'cancellation'): Promise<{ xml: string; fileName: string }> {
  const row = await findNote(deps, NFSE_FAMILY, accountId, id, { full: true });
  const xml = event === 'cancellation' ? row.cancel_proc_xml : row.status === 'authorized' || row.status === 'canceled' ? row.proc_xml : null;
  if (!xml) {
    throw new ApiError(
      'invalid_state',
      event === 'cancellation' ? `NFS-e ${id} has no registered cancellation event` : `NFS-e ${id} is ${row.status}; its XML is available once authorized`,
    );
  }
  const tpEvento = /<(?:\w+:)?e(10[15]10[12])>/.exec(xml)?.[1] ?? 'evento';
  return { xml, fileName: event === 'cancellation' ? `${row.nfse_key}-evento-${tpEvento}.xml` : `${row.nfse_key}-nfse.xml` };
}
