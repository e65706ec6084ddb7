import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import {
  buildDeliveryForecastEvent, buildReformIssuerEvent, EVENT_CANCELLATION_TP_EVENTO, FULL_PAYMENT_TP_EVENTO, type ReformEventItem, type ReformIssuerEventInput,
} from '../../../fiscal/xml/events/index.js';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import {
  ITEM_EVENTS, REFORM_EVENT_TYPES, reformEventNoteProblems, reformEventRequestProblems,
  type ReformEventInput, type ReformEventItemInput, type ReformEventType,
} from '../domain/reform-event-request.js';
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

// NT 2025.002-RTC issuer events on its own NF-e (docs/fiscal/reform-events.md): NT 8.3, 8.15, 8.17, 8.18, 8.19.
export { REFORM_EVENT_TYPES, type ReformEventType } from '../domain/reform-event-request.js';
const TYPE_OF_TP = Object.fromEntries(Object.entries(REFORM_EVENT_TYPES).map(([k, v]) => [v, k])) as Record<string, ReformEventType>;
/** Application version written in detEvento verAplic (TVerAplic, 1-20 characters). */
export const VER_APLIC = 'fiscal-gateway-1.0';

export interface ReformEventView {
  id: string;
  type: ReformEventType | 'event_cancellation';
  tp_evento: string;
  sequence: number;
  status: NfeEventRow['status'];
  delivery_date: string | null;
  items: ReformEventItemInput[] | null;
  protocolo: string | null;
  rejection: { code: string; message: string } | null;
  /** 110001 only: the id of the event it cancels. */
  cancels: string | null;
  /** The id of the registered 110001 that cancelled this event, else null. */
  cancelled_by: string | null;
  requested_at: string;
  updated_at: string;
}

export function view(ev: NfeEventRow, cancelledBy: string | null = null): ReformEventView {
  const cancellation = ev.tp_evento === EVENT_CANCELLATION_TP_EVENTO;
  return {
    id: ev.id, type: cancellation ? 'event_cancellation' : TYPE_OF_TP[ev.tp_evento] ?? 'delivery_forecast_update', tp_evento: ev.tp_evento, sequence: ev.n_seq, status: ev.status,
    delivery_date: typeof ev.detail.delivery_date === 'string' ? ev.detail.delivery_date : null,
    items: Array.isArray(ev.detail.items) ? (ev.detail.items as ReformEventItemInput[]) : null,
    protocolo: ev.protocolo, rejection: ev.rejection,
    cancels: cancellation && typeof ev.detail.cancels === 'string' ? ev.detail.cancels : null, cancelled_by: cancelledBy,
    requested_at: ev.created_at.toISOString(), updated_at: ev.updated_at.toISOString(),
  };
}

export async function eventsOf(db: Queryable, noteId: string, tpEvento: string, forUpdate = false): Promise<NfeEventRow[]> {
  const r = await db.query<NfeEventRow>(
    `SELECT * FROM nfe_events WHERE note_id = $1 AND tp_evento = $2 ORDER BY n_seq${forUpdate ? ' FOR UPDATE' : ''}`,
    [noteId, tpEvento],
  );
  return r.rows;
}

/** The note's reform events and their cancellations (110001): the types GET /v1/nfe/:id/reform-events lists. */
const LISTED_TYPES: readonly string[] = [...Object.values(REFORM_EVENT_TYPES), EVENT_CANCELLATION_TP_EVENTO];

/** GET /v1/nfe/:id/reform-events: every reform event sent for the note and their cancellations, by type, oldest first. */
export async function listReformEvents(deps: Pick<AuthorityDeps, 'db'>, accountId: string, id: string): Promise<ReformEventView[]> {
  await findNote(deps, NFE_FAMILY, accountId, id);
  const all = (await Promise.all(LISTED_TYPES.map((tp) => eventsOf(deps.db, id, tp)))).flat();
  const cancelledBy = new Map(
    all.filter((e) => e.tp_evento === EVENT_CANCELLATION_TP_EVENTO && e.status === 'registered').map((e) => [String(e.detail.cancels), e.id]),
  );
  return all.map((e) => view(e, cancelledBy.get(e.id) ?? null));
}

/** GET /v1/nfe/:id/reform-events/:eventId/xml: its procEventoNFe once registered (409 before). */
export async function reformEventXml(deps: Pick<AuthorityDeps, 'db'>, accountId: string, id: string, eventId: string) {
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const ev = await getNfeEvent(deps.db, eventId);
  if (!ev || ev.note_id !== id || !LISTED_TYPES.includes(ev.tp_evento)) {
    throw new ApiError('not_found', `NF-e ${id} has no reform event ${eventId}`);
  }
  if (!ev.proc_xml) throw new ApiError('invalid_state', `Reform event ${eventId} is ${ev.status}; its procEventoNFe exists once registered`);
  return { xml: ev.proc_xml, fileName: `${note.access_key}-${ev.tp_evento}-${String(ev.n_seq).padStart(2, '0')}-procEventoNFe.xml` };
}

const toLayoutItem = (it: ReformEventItemInput): ReformEventItem => ({
  nItem: it.item_number, vIBS: it.ibs_amount, vCBS: it.cbs_amount, quantity: it.quantity, unit: it.unit,
  ...(it.credit_reversal ? { creditReversal: { vIBS: it.credit_reversal.ibs_amount, vCBS: it.credit_reversal.cbs_amount } } : {}),
});

function refuse(errors: Errors): never {
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw new ApiError('validation_error', `${errors[0]!.field} ${errors[0]!.message}${more}`, errors);
}

function issuerEventInput(input: ReformEventInput, head: Omit<ReformIssuerEventInput, 'tpEvento' | 'items'>): ReformIssuerEventInput {
  if (input.type === 'full_payment') return { ...head, tpEvento: FULL_PAYMENT_TP_EVENTO };
  const tpEvento = REFORM_EVENT_TYPES[input.type] as Exclude<ReformIssuerEventInput['tpEvento'], typeof FULL_PAYMENT_TP_EVENTO>;
  return { ...head, tpEvento, items: (input.items ?? []).map(toLayoutItem) };
}

const HISTORY_TEXT: Record<ReformEventType, (input: ReformEventInput) => string> = {
  delivery_forecast_update: (i) => `previsão de entrega ${i.delivery_date}`,
  full_payment: () => 'pagamento integral informado',
  import_not_exempted: (i) => `importação não convertida em isenção (${i.items!.length} itens)`,
  supplier_transport_loss: (i) => `perecimento, perda, roubo ou furto no transporte (${i.items!.length} itens)`,
  prepaid_not_supplied: (i) => `fornecimento não realizado (${i.items!.length} itens)`,
};

/**
 * POST /v1/nfe/:id/reform-events. Refused here before anything is signed: a field the event's layout
 * refuses or its type does not take (422 naming it), an event the NT does not foresee for this note or
 * an item the note does not have (422), a note that is not an authorized NF-e (409), a 21st event of
 * the type (nSeqEvento 1-20, leiauteEvento). Signed and stored with its job in one transaction.
 */
export async function requestReformEvent(deps: AuthorityDeps, accountId: string, id: string, input: ReformEventInput): Promise<ReformEventView> {
  const { db, clock } = deps;
  const note = await findNote(deps, NFE_FAMILY, accountId, id, { full: true });
  const tpEvento = REFORM_EVENT_TYPES[input.type];
  const fieldErrors = reformEventRequestProblems(input);
  if (fieldErrors.length > 0) refuse(fieldErrors);
  if (note.status !== 'authorized') throw new ApiError('invalid_state', `NF-e ${id} is ${note.status}; only an authorized NF-e takes this event`);
  const itemNumbers = new Set(note.items.map((it, i) => Number((it as { nItem?: unknown }).nItem ?? i + 1)));
  const noteErrors = reformEventNoteProblems(input, { xml: note.signed_xml, itemNumbers });
  if (noteErrors.length > 0) refuse(noteErrors);
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
    const head = {
      cOrgao: uf, cOrgaoAutor: uf, tpAmb: note.tp_amb as 1 | 2, author: { CNPJ: issuer.cnpj }, chNFe: note.access_key,
      dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text, nSeqEvento: sequence, verAplic: VER_APLIC,
    };
    const event = input.type === 'delivery_forecast_update'
      ? buildDeliveryForecastEvent({ ...head, dPrevEntrega: input.delivery_date! }, material.certificate!)
      : buildReformIssuerEvent(issuerEventInput(input, head), material.certificate!);
    const detail = input.type === 'delivery_forecast_update' ? { type: input.type, delivery_date: input.delivery_date } : ITEM_EVENTS.has(input.type) ? { type: input.type, items: input.items } : { type: input.type };
    await insertNfeEvent(tx, {
      id: eventId, account_id: accountId, issuer_id: note.issuer_id, access_key: note.access_key, note_id: id, tp_evento: tpEvento,
      n_seq: sequence, status: 'pending', detail, event_xml: event.xml, created_at: now,
    });
    await addHistory(tx, id, { type: 'reform_event_requested', at: now, message: `Evento ${tpEvento} ${sequence}: ${HISTORY_TEXT[input.type](input)}` });
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
