import { ApiError } from '../../../kernel/errors.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { findNote } from './find-note.js';
import type { NoteFamily } from './note-family.js';

export interface DistributableXml {
  xml: string;
  /** The file name the authority's own tools use: access key and document kind. */
  fileName: string;
}

/**
 * The XML a note's buyer or accountant keeps: the nfeProc (signed NFe + protNFe) of an authorized
 * or canceled note, or with `cancellation` the procEventoNFe of its cancellation; 409 until it exists.
 */
export async function distributableXml(
  deps: Pick<Ports, 'db'>,
  family: NoteFamily,
  accountId: string,
  id: string,
  event?: 'cancellation',
): Promise<DistributableXml> {
  const row = await findNote(deps, family, accountId, id, { full: true });
  // In offline contingency the signed NFe itself is the document (docs/fiscal/offline-contingency.md); nfeProc comes with the authorization.
  const inContingency = row.status === 'contingency' && !event;
  const xml = event === 'cancellation' ? row.cancel_proc_xml : inContingency ? row.signed_xml : row.status === 'authorized' || row.status === 'canceled' ? row.proc_xml : null;
  if (!xml) {
    throw new ApiError(
      'invalid_state',
      event === 'cancellation' ? `${family.label} ${id} has no registered cancellation` : `${family.label} ${id} is ${row.status}; its XML is available once authorized`,
    );
  }
  const fileName = event === 'cancellation' ? `${row.access_key}-procEventoNFe.xml` : inContingency ? `${row.access_key}-NFe.xml` : `${row.access_key}-nfeProc.xml`;
  return { xml, fileName };
}
