import { sliceAll, sliceElement } from '../fiscal/sefaz/xml-slice.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';
import type { NoteRow } from './sim-store.js';

// MOC 7.0 section 4.2.1 group 3A (database: the referenced NF-e), optional for the states, applied
// by the simulator to a complementary NF-e (finNFe 2) only: it completes the issuer's own note
// (B25-50, 269), which the authority holds; the other purposes may reference a supplier's note the
// simulator never saw (a real authority holds it), so there the simulator checks nothing.
// For each refNFe of the emitter's UF and model 55, in the table's order:
//   3BA02-10 (267) the referenced NF-e does not exist (the contingency exception does not apply to finNFe 2);
//   3BA02-20 (268) it is itself a complementary NF-e (known for the notes the simulator authorized
//   since it keeps their finNFe); 3BA02-30 (686) it is canceled; 3BA02-40 (687) it is denied.

/** The simulator's notes, by access key. */
export type NoteLookup = (accessKey: string) => Promise<Pick<NoteRow, 'status' | 'tp_amb' | 'fin_nfe'> | null>;

export async function referenceRejection(f: NfeFacts, note: NoteLookup): Promise<Rejection | null> {
  if (f.mod !== '55' || f.finNFe !== '2') return null;
  const ide = sliceElement(sliceElement(f.xml, 'infNFe')?.inner ?? '', 'ide');
  const refs = sliceAll(ide?.inner ?? '', 'NFref').map((r) => sliceElement(r.inner, 'refNFe')?.inner ?? '');
  for (const [i, key] of refs.entries()) {
    if (key.length !== 44 || key.slice(0, 2) !== f.cUF || key.slice(20, 22) !== '55') continue;
    const found = await note(key);
    const nRef = `[nRef: ${i + 1}]`;
    // Another environment's note is not in this environment's records.
    if (!found || found.tp_amb !== Number(f.tpAmb)) return { cStat: 267, xMotivo: `${motivo(267)} ${nRef}`, detail: `refNFe ${key} is not in the records (MOC 3BA02-10)` };
    if (found.fin_nfe === 2) return { cStat: 268, xMotivo: motivo(268), detail: `refNFe ${key} is a complementary NF-e too (MOC 3BA02-20)` };
    if (found.status === 'canceled') return { cStat: 686, xMotivo: motivo(686), detail: `refNFe ${key} is canceled (MOC 3BA02-30)` };
    if (found.status === 'denied') return { cStat: 687, xMotivo: motivo(687), detail: `refNFe ${key} is denied (MOC 3BA02-40)` };
  }
  return null;
}
