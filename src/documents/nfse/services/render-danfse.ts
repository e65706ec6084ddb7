import { ApiError } from '../../../kernel/errors.js';
import { renderDanfse } from '../../../danfe/nfse/index.js';
import type { NoteRow } from '../../../platform/storage/repositories/note-repository.js';
import type { Ports } from '../../../platform/ports/ports.js';

/** GET /v1/nfse/:id/danfse.pdf: the DANFSe of an authorized (or canceled, marked) NFS-e, drawn off the event loop. */
export async function renderNfseDanfse(_deps: Pick<Ports, 'db'>, row: NoteRow): Promise<Buffer> {
  if ((row.status !== 'authorized' && row.status !== 'canceled') || !row.proc_xml) {
    throw new ApiError('invalid_state', `NFS-e ${row.id} is ${row.status}; its DANFSe exists once authorized`);
  }
  return renderDanfse(row.proc_xml, { canceled: row.status === 'canceled' });
}
