import { svcOfAccessKey } from '../../../fiscal/sefaz/svc-endpoints.js';
import type { Note } from '../domain/note.js';
import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { buildCancellationEvent, buildProcEventoNFe, justificationProblem } from '../../../fiscal/xml/events/index.js';
import { ApiError, notFound } from '../../../kernel/errors.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import { enqueueJob, type Job } from '../../../infra/queue/queue.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNote, getNoteForWork, updateNote } from '../storage/note-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import { assertCertificateCurrent, loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import type { AuthorityDeps, NoteFamily } from './note-family.js';
import { noteSettled } from './note-settled.js';
import { asModel } from '../../../fiscal/sefaz/endpoints.js';

interface PendingCancellation {
  status: 'pending';
  reason: string;
  requested_at: string;
  event_xml: string;
}

const isPending = (c: Note['cancellation']): c is PendingCancellation => c !== null && 'status' in c && c.status === 'pending';

/**
 * POST /v1/nfce/:id/cancel and /v1/nfe/:id/cancel: everything that can be refused locally is refused before anything is
 * sent (reason length by schema, state, the UF's window); then the signed 110111 event and its job
 * are stored in one transaction and the worker sends it.
 */
export async function requestCancellation(deps: AuthorityDeps, family: NoteFamily, accountId: string, id: string, reason: string): Promise<Note> {
  const { db, clock } = deps;
  const note = await getNote(db, accountId, id, { model: family.model });
  if (!note) throw notFound(family.label);
  // TJust (xJust of the 110111 event): the schema checks the length only; Latin-1 is the layout's
  // own rule, and a reason outside it (invalid UTF-8 arrives as U+FFFD) must be a 422, not a 500.
  const badReason = justificationProblem(reason, 'reason');
  if (badReason) throw new ApiError('validation_error', `reason ${badReason.message}`, [badReason]);
  if (isPending(note.cancellation)) return note; // already on its way: the same request again is harmless
  if (note.status !== 'authorized') {
    // NT 2014.001 5.2 (docs/fiscal/epec.md#cancelling): an EPEC cannot be cancelled; its NF-e is authorized first, then cancelled.
    if (note.epec) {
      throw new ApiError('invalid_state', `${family.label} ${id} has only its EPEC${note.epec.protocol ? ` (protocol ${note.epec.protocol})` : ''} and is not authorized yet; an EPEC cannot be cancelled: once the state authorizes the note (it is sent as soon as the state answers), cancel it then`);
    }
    throw new ApiError('invalid_state', `${family.label} ${id} is ${note.status}; only an authorized note can be cancelled`);
  }
  const blocked = await family.cancellation.blockedBy?.(db, id);
  if (blocked) throw new ApiError('invalid_state', blocked);
  const issuer = await findIssuer(db, accountId, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, accountId, note.issuer_id));
  if (!issuer || !material?.certificate) throw new ApiError('issuer_not_ready', 'The issuer has no certificate to sign the cancellation', [{ field: 'certificate', message: 'missing' }]);
  const now = clock.now();
  assertCertificateCurrent(material.certificate, now, 'a cancellation');
  const deadline = family.cancellation.deadline(issuer.uf, note.authorized_at!);
  if (now > deadline) {
    throw new ApiError(
      'cancel_window_expired',
      `${family.label} ${id} was authorized at ${note.authorized_at!.toISOString()}; ${issuer.uf} allows cancellation for ` +
        `${family.cancellation.windowText(issuer.uf)} (until ${deadline.toISOString()}). ${family.cancellation.pastIt}`,
    );
  }
  const tz = timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf);
  const event = buildCancellationEvent(
    {
      cOrgao: ufCode(issuer.uf)!,
      tpAmb: note.tp_amb as 1 | 2,
      author: { CNPJ: issuer.cnpj },
      chNFe: note.access_key,
      dhEvento: localDateTime(now, tz).text,
      nSeqEvento: 1,
      nProt: note.protocolo!,
      xJust: reason,
    },
    material.certificate,
  );
  const pending: PendingCancellation = { status: 'pending', reason, requested_at: now.toISOString(), event_xml: event.xml };
  const claimed = await db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, id, true);
    if (!locked || locked.status !== 'authorized' || locked.cancellation) return false;
    await updateNote(tx, id, { cancellation: pending }, now);
    await addHistory(tx, id, { type: 'cancellation_requested', at: now, message: reason });
    await enqueueJob(tx, family.jobs.cancel, { noteId: id }, { runAt: now, now, dedupeKey: `cancel:${id}:${now.getTime()}`, maxAttempts: 10_000 });
    return true;
  });
  if (!claimed) {
    const again = (await getNote(db, accountId, id, { model: family.model }))!;
    if (again.status === 'canceled' || isPending(again.cancellation)) return again;
    throw new ApiError('invalid_state', `${family.label} ${id} is ${again.status}; only an authorized note can be cancelled`);
  }
  deps.wakeWorker();
  return (await getNote(db, accountId, id, { model: family.model }))!;
}

/** Worker step: send the stored event; a lost answer is safe to repeat (573 duplicate, 420 already cancelled). */
export async function cancelNoteJob(deps: AuthorityDeps, family: NoteFamily, job: Job<{ noteId: string }>): Promise<void> {
  const { db, clock } = deps;
  const note = await getNoteForWork(db, job.payload.noteId);
  if (!note || !isPending(note.cancellation)) return;
  const pending = note.cancellation;
  const issuer = await findIssuer(db, note.account_id, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, note.account_id, note.issuer_id));
  if (!issuer || !material?.certificate) throw new Error(`issuer ${note.issuer_id} has no certificate`);
  const client = deps.authority.clientFor(material.certificate, note.account_id);
  // A note authorized in SVC (tpEmis 6/7 in its key) is cancelled at that SVC (docs/fiscal/svc.md#services).
  const target = { uf: issuer.uf, model: asModel(note.model), tpAmb: note.tp_amb as 1 | 2, authorizer: svcOfAccessKey(note.access_key) ?? undefined };
  const outcome = await client.sendEvent({ ...target, signedEventXml: pending.event_xml });

  if (outcome.kind === 'timeout' || outcome.kind === 'unavailable' || outcome.kind === 'unknown') {
    await addHistory(db, note.id, { type: 'authority_unavailable', at: clock.now(), message: `cancellation not confirmed: ${outcome.kind}` });
    throw new RetryLater(Math.min(60_000, 1000 * 2 ** Math.min(6, job.attempts - 1)), `event ${outcome.kind}`);
  }
  const ev = outcome.event;
  const code = ev?.cStat ?? outcome.cStat;
  if (outcome.kind === 'registered' && ev) {
    return settleCancellation(deps, family, note, pending, ev.nProt ?? '', buildProcEventoNFe(pending.event_xml, ev.retEventoXml), String(code));
  }
  if (code === 573 || code === 420) {
    // Registered by an earlier attempt whose answer was lost: the authority's record says so.
    const known = await client.consult({ ...target, accessKey: note.access_key });
    if (known.kind === 'canceled') {
      const proc = known.events.find((e) => e.includes('<tpEvento>110111</tpEvento>')) ?? null;
      const nProt = proc ? /<retEvento[\s\S]*?<nProt>(\d+)<\/nProt>/.exec(proc)?.[1] ?? '' : '';
      return settleCancellation(deps, family, note, pending, nProt, proc, String(code));
    }
  }
  // Refused (e.g. 501 out of time): the note stays authorized; the history says why.
  const now = clock.now();
  await db.transaction(async (tx) => {
    await updateNote(tx, note.id, { cancellation: null }, now);
    await addHistory(tx, note.id, { type: 'cancellation_rejected', at: now, code: String(code), message: ev?.xMotivo ?? outcome.xMotivo });
  });
  noteSettled.emit(`cancel:${note.id}`);
}

async function settleCancellation(
  deps: AuthorityDeps,
  family: NoteFamily,
  note: Note,
  pending: PendingCancellation,
  nProt: string,
  procXml: string | null,
  code: string,
): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  await db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, note.id, true);
    if (!locked || !isPending(locked.cancellation)) return;
    await updateNote(tx, note.id, {
      status: 'canceled',
      cancellation: { protocolo: nProt, reason: pending.reason, canceled_at: now.toISOString() },
      cancel_proc_xml: procXml,
    }, now);
    await addHistory(tx, note.id, { type: 'canceled', at: now, code, message: 'Cancelamento registrado', protocolo: nProt });
    const fresh = (await getNoteForWork(tx, note.id))!;
    await recordEvent(tx, {
      accountId: fresh.account_id, type: `${family.object}.canceled`, subjectType: family.object, subjectId: fresh.id,
      data: family.present(fresh, deps.config.publicBaseUrl), at: now,
    });
  });
  noteSettled.emit(`cancel:${note.id}`);
}
