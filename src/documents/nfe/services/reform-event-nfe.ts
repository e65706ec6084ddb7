import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { buildDeliveryForecastEvent, deliveryForecastProblems, DELIVERY_FORECAST_TP_EVENTO } from '../../../fiscal/xml/events/index.js';
import { ApiError } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { enqueueJob, type Job } from '../../../infra/queue/queue.js';
import { assertCertificateCurrent, loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNoteForWork } from '../../notes/storage/note-repository.js';
import { getNfeEvent, insertNfeEvent, settleNfeEvent, type NfeEventRow } from '../storage/nfe-event-repository.js';
import type { Queryable } from '../../../infra/storage/db.js';
import { findNote } from '../../notes/services/find-note.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { NFE_REFORM_EVENT_JOB } from './nfe-deps.js';
import { NFE_FAMILY } from './nfe-family.js';
import { sendPendingNfeEvent } from './nfe-event-send.js';
import { assertWithinQuota, quotaAfterMetering } from '../../../platform/billing/quota.js';
import { periodOf } from '../../../platform/billing/period.js';
import { meterUsage } from '../../../infra/storage/repositories/billing-repository.js';

// NT 2025.002-RTC issuer events on its own NF-e (docs/fiscal/reform-events.md). Only 112150 so far.
export const REFORM_EVENT_TYPES = { delivery_forecast_update: DELIVERY_FORECAST_TP_EVENTO } as const;
export type ReformEventType = keyof typeof REFORM_EVENT_TYPES;
/** Application version written in detEvento verAplic (TVerAplic, 1-20 characters). */
const VER_APLIC = 'fiscal-gateway-1.0';

export interface ReformEventView {
  id: string;
  type: ReformEventType;
  tp_evento: string;
  sequence: number;
  status: NfeEventRow['status'];
  delivery_date: string | null;
  protocolo: string | null;
  rejection: { code: string; message: string } | null;
  requested_at: string;
  updated_at: string;
}

function view(ev: NfeEventRow): ReformEventView {
  return {
    id: ev.id, type: 'delivery_forecast_update', tp_evento: ev.tp_evento, sequence: ev.n_seq, status: ev.status,
    delivery_date: typeof ev.detail.delivery_date === 'string' ? ev.detail.delivery_date : null,
    protocolo: ev.protocolo, rejection: ev.rejection, requested_at: ev.created_at.toISOString(), updated_at: ev.updated_at.toISOString(),
  };
}

async function eventsOf(db: Queryable, noteId: string, tpEvento: string, forUpdate = false): Promise<NfeEventRow[]> {
  const r = await db.query<NfeEventRow>(
    `SELECT * FROM nfe_events WHERE note_id = $1 AND tp_evento = $2 ORDER BY n_seq${forUpdate ? ' FOR UPDATE' : ''}`,
    [noteId, tpEvento],
  );
  return r.rows;
}

/** GET /v1/nfe/:id/reform-events: every reform event sent for the note, oldest first. */
export async function listReformEvents(deps: Pick<AuthorityDeps, 'db'>, accountId: string, id: string): Promise<ReformEventView[]> {
  await findNote(deps, NFE_FAMILY, accountId, id);
  const all = await Promise.all(Object.values(REFORM_EVENT_TYPES).map((tp) => eventsOf(deps.db, id, tp)));
  return all.flat().map(view);
}

/** GET /v1/nfe/:id/reform-events/:eventId/xml: its procEventoNFe once registered (409 before). */
export async function reformEventXml(deps: Pick<AuthorityDeps, 'db'>, accountId: string, id: string, eventId: string) {
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const ev = await getNfeEvent(deps.db, eventId);
  if (!ev || ev.note_id !== id || !Object.values(REFORM_EVENT_TYPES).includes(ev.tp_evento as never)) {
    throw new ApiError('not_found', `NF-e ${id} has no reform event ${eventId}`);
  }
  if (!ev.proc_xml) throw new ApiError('invalid_state', `Reform event ${eventId} is ${ev.status}; its procEventoNFe exists once registered`);
  return { xml: ev.proc_xml, fileName: `${note.access_key}-${ev.tp_evento}-${String(ev.n_seq).padStart(2, '0')}-procEventoNFe.xml` };
}

/**
 * POST /v1/nfe/:id/reform-events. Refused here before anything is signed: a field the event's layout
 * refuses (422 naming it), a note that is not an authorized NF-e (409), a 21st event of the type
 * (nSeqEvento 1-20, leiauteEvento). Signed and stored with its job in one transaction.
 */
export async function requestReformEvent(
  deps: AuthorityDeps,
  accountId: string,
  id: string,
  input: { type: ReformEventType; delivery_date: string },
): Promise<ReformEventView> {
  const { db, clock } = deps;
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const tpEvento = REFORM_EVENT_TYPES[input.type];
  const fieldOf = (f: string) => (f === 'dPrevEntrega' ? 'delivery_date' : f);
  // Field checks first, on a stand-in head: only the body's own fields can be wrong here.
  const probe = deliveryForecastProblems({
    cOrgao: '43', cOrgaoAutor: '43', tpAmb: 2, author: { CNPJ: '00000000000000' }, chNFe: '0'.repeat(44), dhEvento: '2026-01-01T00:00:00-03:00',
    verAplic: VER_APLIC, dPrevEntrega: input.delivery_date,
  }).filter((e) => e.field === 'dPrevEntrega');
  if (probe.length > 0) {
    throw new ApiError('validation_error', `delivery_date ${probe[0]!.message}`, probe.map((e) => ({ field: fieldOf(e.field), message: e.message })));
  }
  if (note.status !== 'authorized') throw new ApiError('invalid_state', `NF-e ${id} is ${note.status}; only an authorized NF-e takes this event`);
  await assertWithinQuota(deps, accountId, 'events');
  const issuer = await findIssuer(db, accountId, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, accountId, note.issuer_id));
  if (!issuer || !material?.certificate) throw new ApiError('issuer_not_ready', 'The issuer has no certificate to sign the event', [{ field: 'certificate', message: 'missing' }]);
  const now = clock.now();
  assertCertificateCurrent(material.certificate, now, 'a reform event');

  const eventId = newId('evt');
  await db.transaction(async (tx) => {
    const locked = (await getNoteForWork(tx, id, true))!;
    if (locked.status !== 'authorized') throw new ApiError('invalid_state', `NF-e ${id} is ${locked.status}; only an authorized NF-e takes this event`);
    const sent = await eventsOf(tx, id, tpEvento, true);
    const sequence = sent.length + 1;
    if (sequence > 20) throw new ApiError('invalid_state', `NF-e ${id} already has 20 events ${tpEvento} (nSeqEvento 1-20)`);
    const uf = ufCode(issuer.uf)!;
    const event = buildDeliveryForecastEvent(
      {
        cOrgao: uf, cOrgaoAutor: uf, tpAmb: note.tp_amb as 1 | 2, author: { CNPJ: issuer.cnpj }, chNFe: note.access_key,
        dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text,
        nSeqEvento: sequence, verAplic: VER_APLIC, dPrevEntrega: input.delivery_date,
      },
      material.certificate!,
    );
    await insertNfeEvent(tx, {
      id: eventId, account_id: accountId, issuer_id: note.issuer_id, access_key: note.access_key, note_id: id, tp_evento: tpEvento,
      n_seq: sequence, status: 'pending', detail: { type: input.type, delivery_date: input.delivery_date }, event_xml: event.xml, created_at: now,
    });
    await addHistory(tx, id, { type: 'reform_event_requested', at: now, message: `Evento ${tpEvento} ${sequence}: previsão de entrega ${input.delivery_date}` });
    await enqueueJob(tx, NFE_REFORM_EVENT_JOB, { eventId }, { runAt: now, now, dedupeKey: `reform-event:${eventId}`, maxAttempts: 10_000 });
  });
  deps.wakeWorker();
  return view((await getNfeEvent(db, eventId))!);
}

/** Worker step: send the event; a lost answer is repaired from the authority's record (573 duplicate). */
export async function reformEventJob(deps: AuthorityDeps, job: Job<{ eventId: string }>): Promise<void> {
  const ev = await getNfeEvent(deps.db, job.payload.eventId);
  const sent = ev && (await sendPendingNfeEvent(deps, job, ev, `event ${ev.tp_evento} ${ev.n_seq}`));
  if (!ev || !sent) return;
  const { note, outcome } = sent;
  const now = deps.clock.now();
  let metered: { account_id: string; period: string; kind: 'events'; count: number } | undefined;
  await deps.db.transaction(async (tx) => {
    if (outcome.kind === 'registered') {
      if (!(await settleNfeEvent(tx, ev.id, { status: 'registered', proc_xml: outcome.proc, protocolo: outcome.protocolo }, now))) return;
      await addHistory(tx, note.id, { type: 'reform_event_registered', at: now, code: outcome.code, message: `Evento ${ev.tp_evento} ${ev.n_seq} registrado`, protocolo: outcome.protocolo });
      // An event the issuer registers on its NF-e (other than its cancellation) is an `events` document
      // (docs/guides/billing.md), metered in this transaction, once, keyed by the event's id.
      const counted = await meterUsage(tx, { subjectId: ev.id, kind: 'events', accountId: note.account_id, issuerId: note.issuer_id, period: periodOf(now), at: now });
      if (counted) metered = { account_id: note.account_id, period: periodOf(now), kind: 'events', count: counted.count };
    } else {
      if (!(await settleNfeEvent(tx, ev.id, { status: 'rejected', rejection: outcome.rejection }, now))) return;
      await addHistory(tx, note.id, { type: 'reform_event_rejected', at: now, code: outcome.rejection.code, message: outcome.rejection.message });
    }
  });
  if (metered) await quotaAfterMetering(deps, metered).catch(() => false);
}
