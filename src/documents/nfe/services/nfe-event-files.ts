import { ApiError } from '../../../kernel/errors.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { registeredNfeEvent } from '../storage/nfe-event-repository.js';
import type { DistributableXml } from '../../notes/services/distributable-xml.js';
import { findNote } from '../../notes/services/find-note.js';
import { NFE_FAMILY } from './nfe-family.js';

/** The procEventoNFe of a registered correction letter (the one in force when no sequence is given); 409 until it exists. */
export async function correctionLetterXml(deps: Pick<Ports, 'db'>, accountId: string, id: string, sequence?: number): Promise<DistributableXml> {
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const seq = sequence ?? note.corrections?.current?.sequence;
  const ev = seq === undefined ? undefined : await registeredNfeEvent(deps.db, id, '110110', seq);
  if (!ev?.proc_xml) throw new ApiError('invalid_state', `NF-e ${id} has no registered correction letter${sequence ? ` ${sequence}` : ''}`);
  return { xml: ev.proc_xml, fileName: `${note.access_key}-cce-${String(ev.n_seq).padStart(2, '0')}-procEventoNFe.xml` };
}
