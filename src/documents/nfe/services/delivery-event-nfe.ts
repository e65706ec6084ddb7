import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import {
  buildDeliveryCancelEvent, buildDeliveryFailureEvent, buildDeliveryProofEvent, DELIVERY_EVENT_CORGAO, deliveryImageHash, gpsCoordinate,
  type SignedEvent,
} from '../../../fiscal/xml/events/index.js';
import { ApiError } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { enqueueJob, type Job } from '../../../infra/queue/queue.js';
import { assertCertificateCurrent, loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNoteForWork } from '../../notes/storage/note-repository.js';
import { getNfeEvent, insertNfeEvent, settleNfeEvent, type NfeEventRow } from '../storage/nfe-event-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import { meterUsage } from '../../../infra/storage/repositories/billing-repository.js';
import { periodOf } from '../../../platform/billing/period.js';
import { assertWithinQuota, quotaAfterMetering } from '../../../platform/billing/quota.js';
import type { Queryable } from '../../../infra/storage/db.js';
import { findNote } from '../../notes/services/find-note.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import {
  DELIVERY_EVENT_TP, deliveryEventRequestProblems, FAILURE_REASONS, type DeliveryEventRequest, type DeliveryEventType,
} from '../domain/delivery-event-request.js';
import { NFE_DELIVERY_EVENT_JOB } from './nfe-deps.js';
import { NFE_FAMILY } from './nfe-family.js';
import { sendPendingNfeEvent } from './nfe-event-send.js';

// The issuer's delivery events on its NF-e (docs/fiscal/delivery-events.md): proof of delivery 110130 and failed
// delivery 110192, each cancelled by 110131 / 110193 naming its protocol. Signed here, sent by job nfe.delivery_event.
const VER_APLIC = 'fiscal-gateway-1.0';
const TYPE_OF: Readonly<Record<string, DeliveryEventType>> = Object.fromEntries(Object.entries(DELIVERY_EVENT_TP).map(([t, tp]) => [tp, t as DeliveryEventType]));
/** Which event a cancellation cancels. */
const CANCELS: Partial<Record<DeliveryEventType, DeliveryEventType>> = { proof_cancel: 'proof', failure_cancel: 'failure' };

export interface DeliveryEventView {
  id: string;
  type: DeliveryEventType;
  tp_evento: string;
  sequence: number;
  status: NfeEventRow['status'];
  protocolo: string | null;
  rejection: { code: string; message: string } | null;
  /** For a proof or failure: the protocol of the registered cancellation that voids it, if any. */
  canceled_by: string | null;
  detail: Record<string, string | number | null>;
  requested_at: string;
  updated_at: string;
}

function view(ev: NfeEventRow, all: NfeEventRow[]): DeliveryEventView {
  const type = TYPE_OF[ev.tp_evento]!;
  const cancelTp = Object.entries(CANCELS).find(([, of]) => of === type)?.[0] as DeliveryEventType | undefined;
  const canceledBy = ev.protocolo && cancelTp
    ? all.find((c) => c.tp_evento === DELIVERY_EVENT_TP[cancelTp] && c.status === 'registered' && c.detail.protocol === ev.protocolo)?.protocolo ?? null
    : null;
  const { type: _t, ...detail } = ev.detail as Record<string, string | number | null>;
  return {
    id: ev.id, type, tp_evento: ev.tp_evento, sequence: ev.n_seq, status: ev.status, protocolo: ev.protocolo, rejection: ev.rejection,
    canceled_by: canceledBy, detail, requested_at: ev.created_at.toISOString(), updated_at: ev.updated_at.toISOString(),
  };
}

async function deliveryEventsOf(db: Queryable, noteId: string, forUpdate = false): Promise<NfeEventRow[]> {
  const r = await db.query<NfeEventRow>(
    `SELECT * FROM nfe_events WHERE note_id = $1 AND tp_evento = ANY($2) ORDER BY created_at, n_seq${forUpdate ? ' FOR UPDATE' : ''}`,
    [noteId, Object.values(DELIVERY_EVENT_TP)],
  );
  return r.rows;
}

/** GET /v1/nfe/:id/delivery-events: every delivery event of the note, oldest first. */
export async function listDeliveryEvents(deps: Pick<AuthorityDeps, 'db'>, accountId: string, id: string): Promise<DeliveryEventView[]> {
  await findNote(deps, NFE_FAMILY, accountId, id);
  const all = await deliveryEventsOf(deps.db, id);
  return all.map((e) => view(e, all));
}

/** GET /v1/nfe/:id/delivery-events/:eventId/xml: its procEventoNFe once registered (409 before). */
export async function deliveryEventXml(deps: Pick<AuthorityDeps, 'db'>, accountId: string, id: string, eventId: string) {
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const ev = await getNfeEvent(deps.db, eventId);
  if (!ev || ev.note_id !== id || !TYPE_OF[ev.tp_evento]) throw new ApiError('not_found', `NF-e ${id} has no delivery event ${eventId}`);
  if (!ev.proc_xml) throw new ApiError('invalid_state', `Delivery event ${eventId} is ${ev.status}; its procEventoNFe exists once registered`);
  return { xml: ev.proc_xml, fileName: `${note.access_key}-${ev.tp_evento}-${String(ev.n_seq).padStart(2, '0')}-procEventoNFe.xml` };
}

/** What the gateway knows of the note's events that the NT's rules 825, 459 and 460 look at. */
function stateProblem(req: DeliveryEventRequest, id: string, all: NfeEventRow[]): ApiError | null {
  const tp = DELIVERY_EVENT_TP[req.type];
  const sameType = all.filter((e) => e.tp_evento === tp);
  if (sameType.length >= 20) return new ApiError('invalid_state', `NF-e ${id} already has 20 events ${tp} (nSeqEvento 1-20)`);
  const cancelled = (kind: DeliveryEventType) => new Set(all.filter((e) => e.tp_evento === DELIVERY_EVENT_TP[kind] && e.status !== 'rejected').map((e) => String(e.detail.protocol)));
  const target = CANCELS[req.type];
  if (!target) {
    const cancelTp = req.type === 'proof' ? 'proof_cancel' : 'failure_cancel';
    const voided = cancelled(cancelTp);
    const standing = sameType.find((e) => e.status === 'pending' || (e.status === 'registered' && !voided.has(e.protocolo ?? '')));
    if (standing) {
      return new ApiError('invalid_state', `NF-e ${id} already has a ${req.type} event (${standing.id}, ${standing.status}); cancel it first (NT rule 3P15-14, 825)`);
    }
    return null;
  }
  const registered = all.filter((e) => e.tp_evento === DELIVERY_EVENT_TP[target] && e.status === 'registered');
  if (!registered.some((e) => e.protocolo === req.protocol)) {
    const rule = registered.length === 0 ? `no registered ${target} event to cancel (NT 4P15-10, 459)` : `is not the protocol of a registered ${target} event of this NF-e (NT 4P23-10, 460)`;
    return new ApiError('validation_error', `protocol: ${rule}`, [{ field: 'protocol', message: registered.length === 0 ? `there is ${rule}` : rule }]);
  }
  if (cancelled(req.type).has(req.protocol!)) return new ApiError('invalid_state', `The ${target} event ${req.protocol} of NF-e ${id} is already cancelled or being cancelled`);
  return null;
}

/**
 * POST /v1/nfe/:id/delivery-events. Refused here before anything is signed: a field the event's schema or the NT
 * refuses (422 naming it), a note that is not an authorized NF-e (409), a second proof (or failure) while one stands
 * (409), a cancellation of a protocol that is not a registered proof (or failure) of the note (422). The image is
 * hashed (hashComprovante / hashTentativaEntrega) and not kept. Signed and stored with its job in one transaction.
 */
export async function requestDeliveryEvent(deps: AuthorityDeps, accountId: string, id: string, req: DeliveryEventRequest): Promise<DeliveryEventView> {
  const { db, clock } = deps;
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const now = clock.now();
  const problems = deliveryEventRequestProblems(req, new Date(note.dh_emi), now);
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new ApiError('validation_error', `${problems[0]!.field} ${problems[0]!.message}${more}`, problems);
  }
  if (note.status !== 'authorized') throw new ApiError('invalid_state', `NF-e ${id} is ${note.status}; only an authorized NF-e takes a delivery event (NT rule 2P12-22, 580)`);
  await assertWithinQuota(deps, accountId, 'events');
  const issuer = await findIssuer(db, accountId, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, accountId, note.issuer_id));
  if (!issuer || !material?.certificate) throw new ApiError('issuer_not_ready', 'The issuer has no certificate to sign the event', [{ field: 'certificate', message: 'missing' }]);
  assertCertificateCurrent(material.certificate, now, 'a delivery event');
  const zone = timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf);
  const local = (d: Date) => localDateTime(d, zone).text;

  const eventId = newId('evt');
  const tp = DELIVERY_EVENT_TP[req.type];
  await db.transaction(async (tx) => {
    const locked = (await getNoteForWork(tx, id, true))!;
    if (locked.status !== 'authorized') throw new ApiError('invalid_state', `NF-e ${id} is ${locked.status}; only an authorized NF-e takes a delivery event (NT rule 2P12-22, 580)`);
    const all = await deliveryEventsOf(tx, id, true);
    const problem = stateProblem(req, id, all);
    if (problem) throw problem;
    const sequence = all.filter((e) => e.tp_evento === tp).length + 1;
    const uf = ufCode(issuer.uf)!;
    const head = {
      cOrgao: DELIVERY_EVENT_CORGAO[tp]!, cOrgaoAutor: uf, tpAmb: note.tp_amb as 1 | 2, author: { CNPJ: issuer.cnpj }, chNFe: note.access_key,
      dhEvento: local(now), nSeqEvento: sequence, verAplic: VER_APLIC,
    };
    const gps = req.latitude !== undefined && req.longitude !== undefined ? { latGPS: gpsCoordinate(req.latitude, 90)!, longGPS: gpsCoordinate(req.longitude, 180)! } : {};
    const hash = req.image_base64 !== undefined ? deliveryImageHash(note.access_key, req.image_base64) : null;
    let event: SignedEvent;
    let detail: Record<string, string | number | null>;
    if (req.type === 'proof') {
      const delivered = local(new Date(req.delivered_at!));
      event = buildDeliveryProofEvent({ ...head, ...gps, dhEntrega: delivered, nDoc: req.receiver_document!, xNome: req.receiver_name!, hashComprovante: hash!, dhHashComprovante: head.dhEvento }, material.certificate!);
      detail = { delivered_at: delivered, receiver_document: req.receiver_document!, receiver_name: req.receiver_name!, latitude: gps.latGPS ?? null, longitude: gps.longGPS ?? null, image_hash: hash };
    } else if (req.type === 'failure') {
      const attempted = local(new Date(req.attempted_at!));
      const tpMotivo = FAILURE_REASONS[req.reason!];
      event = buildDeliveryFailureEvent(
        { ...head, ...gps, dhTentativaEntrega: attempted, nTentativa: req.attempt, tpMotivo, xJustMotivo: req.justification, hashTentativaEntrega: hash!, dhHashTentativaEntrega: head.dhEvento },
        material.certificate!,
      );
      detail = {
        attempted_at: attempted, attempt: req.attempt ?? null, reason: req.reason!, justification: req.justification ?? null,
        latitude: gps.latGPS ?? null, longitude: gps.longGPS ?? null, image_hash: hash,
      };
    } else {
      event = buildDeliveryCancelEvent({ ...head, nProtEvento: req.protocol! }, tp as '110131' | '110193', material.certificate!);
      detail = { protocol: req.protocol! };
    }
    await insertNfeEvent(tx, {
      id: eventId, account_id: accountId, issuer_id: note.issuer_id, access_key: note.access_key, note_id: id, tp_evento: tp,
      n_seq: sequence, status: 'pending', detail: { type: req.type, ...detail }, event_xml: event.xml, created_at: now,
    });
    await addHistory(tx, id, { type: 'delivery_event_requested', at: now, message: `Evento ${tp} ${sequence} (${req.type}) solicitado` });
    await enqueueJob(tx, NFE_DELIVERY_EVENT_JOB, { eventId }, { runAt: now, now, dedupeKey: `delivery-event:${eventId}`, maxAttempts: 10_000 });
  });
  deps.wakeWorker();
  const all = await deliveryEventsOf(db, id);
  return view(all.find((e) => e.id === eventId)!, all);
}

/** Worker step: send the event (AN for the proof's, SVRS for the failure's); a lost answer is repaired after 573. */
export async function deliveryEventJob(deps: AuthorityDeps, job: Job<{ eventId: string }>): Promise<void> {
  const ev = await getNfeEvent(deps.db, job.payload.eventId);
  const sent = ev && (await sendPendingNfeEvent(deps, job, ev, `delivery event ${ev.tp_evento} ${ev.n_seq}`));
  if (!ev || !sent) return;
  const { note, outcome } = sent;
  const now = deps.clock.now();
  let metered: { account_id: string; period: string; kind: 'events'; count: number } | undefined;
  await deps.db.transaction(async (tx) => {
    const registered = outcome.kind === 'registered';
    const settled = registered
      ? await settleNfeEvent(tx, ev.id, { status: 'registered', proc_xml: outcome.proc, protocolo: outcome.protocolo }, now)
      : await settleNfeEvent(tx, ev.id, { status: 'rejected', rejection: outcome.rejection }, now);
    if (!settled) return;
    if (registered) {
      await addHistory(tx, note.id, { type: 'delivery_event_registered', at: now, code: outcome.code, message: `Evento ${ev.tp_evento} ${ev.n_seq} registrado`, protocolo: outcome.protocolo });
      const counted = await meterUsage(tx, { subjectId: ev.id, kind: 'events', accountId: note.account_id, issuerId: note.issuer_id, period: periodOf(now), at: now });
      if (counted) metered = { account_id: note.account_id, period: periodOf(now), kind: 'events', count: counted.count };
    } else {
      await addHistory(tx, note.id, { type: 'delivery_event_rejected', at: now, code: outcome.rejection.code, message: outcome.rejection.message });
    }
    const all = await deliveryEventsOf(tx, note.id);
    await recordEvent(tx, {
      accountId: note.account_id, type: registered ? 'nfe.delivery_event_registered' : 'nfe.delivery_event_rejected', subjectType: 'nfe', subjectId: note.id,
      data: { nfe_id: note.id, access_key: note.access_key, ...view(all.find((e) => e.id === ev.id)!, all) }, at: now,
    });
  });
  if (metered) await quotaAfterMetering(deps, metered).catch(() => false);
}
