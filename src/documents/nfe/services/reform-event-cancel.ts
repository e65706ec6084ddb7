import { buildEventCancellation, EVENT_CANCELLATION_TP_EVENTO } from '../../../fiscal/xml/events/index.js';
import { textOf } from '../../../fiscal/sefaz/xml-slice.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { ApiError } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { enqueueJob } from '../../../infra/queue/queue.js';
import { sqlState } from '../../../infra/storage/db.js';
import { assertCertificateCurrent, loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { assertWithinQuota } from '../../../platform/billing/quota.js';
import { addHistory, getNoteForWork } from '../../notes/storage/note-repository.js';
import { getNfeEvent, insertNfeEvent } from '../storage/nfe-event-repository.js';
import { findNote } from '../../notes/services/find-note.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { REFORM_EVENT_TYPES } from '../domain/reform-event-request.js';
import { NFE_REFORM_EVENT_JOB } from './nfe-deps.js';
import { NFE_FAMILY } from './nfe-family.js';
import { eventsOf, VER_APLIC, view, type ReformEventView } from './reform-event-nfe.js';

// NT 2025.002-RTC 8.14 (docs/fiscal/reform-events.md): 110001 "Cancelamento de Evento" lets the author of an
// authorized event cancel it. The cancellation carries the cancelled event's type (tpEventoAut), protocol
// (nProtEvento) and sequence (nSeqEvento, so its Id is "ID110001" + key + that sequence), and is authored
// by the same CNPJ and cOrgaoAutor (rules 1P06-10 459, 1P10-10 1113, 1P20-10 1178, 1P24-10 460): all
// taken here from the event as it was registered, so none of them can be broken by the request.
const LIVE = new Set(['pending', 'registered']);
/** The unique index of live events per issuer, key, type and sequence (migration 14). */
const LIVE_EVENT_INDEX = 'nfe_events_live_seq';

/**
 * POST /v1/nfe/:id/reform-events/:eventId/cancel. 404 for an event that is not one of this note's reform
 * events (or is itself a cancellation); 409 for an event not registered, one whose cancellation is
 * pending or registered, or when another event of the note with the same sequence has a live
 * cancellation (the two would carry the same Id: NT P07, P15). Signed and queued like the event.
 */
export async function cancelReformEvent(deps: AuthorityDeps, accountId: string, id: string, eventId: string): Promise<ReformEventView> {
  const { db, clock } = deps;
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const target = await getNfeEvent(db, eventId);
  if (!target || target.note_id !== id || !(Object.values(REFORM_EVENT_TYPES) as string[]).includes(target.tp_evento)) {
    throw new ApiError('not_found', `NF-e ${id} has no reform event ${eventId}`);
  }
  if (target.status !== 'registered' || !target.protocolo) {
    throw new ApiError('invalid_state', `Reform event ${eventId} is ${target.status}; only a registered event can be cancelled (NT 2025.002-RTC 8.14)`);
  }
  await assertWithinQuota(deps, accountId, 'events');
  const issuer = await findIssuer(db, accountId, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, accountId, note.issuer_id));
  if (!issuer || !material?.certificate) throw new ApiError('issuer_not_ready', 'The issuer has no certificate to sign the event', [{ field: 'certificate', message: 'missing' }]);
  const now = clock.now();
  assertCertificateCurrent(material.certificate, now, 'the cancellation of a reform event');

  const cancellationId = newId('evt');
  await db.transaction(async (tx) => {
    // The note's row serializes the events of one note, as the other event requests do.
    await getNoteForWork(tx, id, true);
    const live = (await eventsOf(tx, id, EVENT_CANCELLATION_TP_EVENTO, true)).filter((e) => LIVE.has(e.status) && e.n_seq === target.n_seq);
    const same = live.find((e) => e.detail.cancels === eventId);
    if (same) throw new ApiError('invalid_state', `Reform event ${eventId} already has a cancellation ${same.id} (${same.status})`);
    if (live.length > 0) {
      throw new ApiError(
        'invalid_state',
        `Event ${live[0]!.detail.cancels as string} of this NF-e, also of sequence ${target.n_seq}, has a cancellation ${live[0]!.id}: ` +
          `a second one would carry the same Id ID110001 + key + ${String(target.n_seq).padStart(2, '0')} (NT 2025.002-RTC 8.14, P07 and P15)`,
      );
    }
    const registered = target.event_xml;
    const cnpj = textOf(registered, 'CNPJ');
    const cpf = textOf(registered, 'CPF');
    const event = buildEventCancellation(
      {
        cOrgao: textOf(registered, 'cOrgao') ?? '', cOrgaoAutor: textOf(registered, 'cOrgaoAutor') ?? '', tpAmb: note.tp_amb as 1 | 2,
        author: cnpj ? { CNPJ: cnpj } : { CPF: cpf ?? '' }, chNFe: note.access_key,
        dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text,
        nSeqEvento: target.n_seq, verAplic: VER_APLIC, tpEventoAut: target.tp_evento, nProtEvento: target.protocolo!,
      },
      material.certificate!,
    );
    await insertNfeEvent(tx, {
      id: cancellationId, account_id: accountId, issuer_id: note.issuer_id, access_key: note.access_key, note_id: id,
      tp_evento: EVENT_CANCELLATION_TP_EVENTO, n_seq: target.n_seq, status: 'pending',
      detail: { type: 'event_cancellation', cancels: eventId, tp_evento_aut: target.tp_evento }, event_xml: event.xml, created_at: now,
    });
    await addHistory(tx, id, { type: 'reform_event_requested', at: now, message: `Evento 110001 ${target.n_seq}: cancelamento do evento ${target.tp_evento} ${target.n_seq}` });
    await enqueueJob(tx, NFE_REFORM_EVENT_JOB, { eventId: cancellationId }, { runAt: now, now, dedupeKey: `reform-event:${cancellationId}`, maxAttempts: 10_000 });
  }).catch((err: unknown) => {
    // The last guard, should a writer ever skip the note's lock: the unique index of live events per
    // (issuer, key, type, sequence) lets one cancellation in; the other is the conflict checked above.
    if (sqlState(err) === '23505' && (err as { constraint?: unknown }).constraint === LIVE_EVENT_INDEX) {
      throw new ApiError('invalid_state', `Reform event ${eventId} already has a cancellation (sent at the same time)`);
    }
    throw err;
  });
  deps.wakeWorker();
  return view((await getNfeEvent(db, cancellationId))!);
}
