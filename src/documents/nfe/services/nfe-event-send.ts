import type { Note } from '../../notes/domain/note.js';
import { asModel } from '../../../fiscal/sefaz/endpoints.js';
import { buildProcEventoNFe, DELIVERY_EVENT_CORGAO } from '../../../fiscal/xml/events/index.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import type { Job } from '../../../infra/queue/queue.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNoteForWork } from '../../notes/storage/note-repository.js';
import type { NfeEventRow } from '../storage/nfe-event-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';

/** What the authority made of an issuer's event on its own NF-e. */
export type NfeEventOutcome =
  | { kind: 'registered'; proc: string; protocolo: string; code: string }
  | { kind: 'rejected'; rejection: { code: string; message: string } };

/**
 * The worker's send step shared by the issuer's events on its NF-e (correction letter, reform events):
 * the signed event sent to the note's authorizer, an answer that never came retried later (RetryLater,
 * backing off to a minute), and a 573 (duplicate: registered by an earlier attempt whose answer was
 * lost) repaired from the authority's record of the note's events. `label` names the event in the
 * note's history. Null when the event is no longer pending (settled by another run).
 */
export async function sendPendingNfeEvent(
  deps: AuthorityDeps,
  job: Job<{ eventId: string }>,
  ev: NfeEventRow,
  label: string,
): Promise<{ note: Note; outcome: NfeEventOutcome } | null> {
  if (ev.status !== 'pending' || !ev.note_id) return null;
  const note = (await getNoteForWork(deps.db, ev.note_id))!;
  const issuer = await findIssuer(deps.db, ev.account_id, ev.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(deps.db, deps.secrets, ev.account_id, ev.issuer_id));
  if (!issuer || !material?.certificate) throw new Error(`issuer ${ev.issuer_id} has no certificate`);
  const client = deps.authority.clientFor(material.certificate, ev.account_id);
  const target = { uf: issuer.uf, model: asModel(note.model), tpAmb: note.tp_amb as 1 | 2 };
  // docs/fiscal/delivery-events.md: the proof events are received only by the Ambiente Nacional (91), the failure events only by SVRS (92).
  const receiver = DELIVERY_EVENT_CORGAO[ev.tp_evento];
  const outcome = receiver === '91' ? await client.sendNationalEvent({ tpAmb: target.tpAmb, signedEventXml: ev.event_xml })
    : receiver === '92' ? await client.sendSvrsEvent({ tpAmb: target.tpAmb, signedEventXml: ev.event_xml })
    : await client.sendEvent({ ...target, signedEventXml: ev.event_xml });
  if (outcome.kind === 'timeout' || outcome.kind === 'unavailable' || outcome.kind === 'unknown') {
    await addHistory(deps.db, note.id, { type: 'authority_unavailable', at: deps.clock.now(), message: `${label} not confirmed: ${outcome.kind}` });
    throw new RetryLater(Math.min(60_000, 1000 * 2 ** Math.min(6, job.attempts - 1)), `event ${outcome.kind}`);
  }
  const answer = outcome.event;
  const code = String(answer?.cStat ?? outcome.cStat);
  if (outcome.kind === 'registered' && answer) {
    return { note, outcome: { kind: 'registered', proc: buildProcEventoNFe(ev.event_xml, answer.retEventoXml), protocolo: answer.nProt ?? '', code } };
  }
  if (code === '573') {
    // Registered by an earlier attempt whose answer was lost: the consultation lists the note's events.
    const known = await client.consult({ ...target, accessKey: note.access_key });
    const proc = 'events' in known
      ? known.events.find((e) => e.includes(`<tpEvento>${ev.tp_evento}</tpEvento>`) && new RegExp(`<nSeqEvento>0?${ev.n_seq}</nSeqEvento>`).test(e))
      : undefined;
    if (proc) return { note, outcome: { kind: 'registered', proc, protocolo: /<retEvento[\s\S]*?<nProt>(\d+)<\/nProt>/.exec(proc)?.[1] ?? '', code } };
  }
  return { note, outcome: { kind: 'rejected', rejection: { code, message: answer?.xMotivo ?? outcome.xMotivo } } };
}
