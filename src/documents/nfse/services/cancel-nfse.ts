import type { Note } from '../../notes/domain/note.js';
import { checkText, type Errors } from '../../../fiscal/layout/field-rules.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { certificateValidityProblem } from '../../../fiscal/certificate/pfx.js';
import { signPedRegEvento } from '../../../fiscal/xml/nfse/sign-event.js';
import { ApiError, notFound } from '../../../kernel/errors.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import { enqueueJob, type Job } from '../../../infra/queue/queue.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNote, getNoteForWork, updateNote } from '../../notes/storage/note-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { noteSettled } from '../../notes/services/note-settled.js';
import { DEFAULT_VER_APLIC } from '../domain/build-nfse.js';
import { explainNfseRejection } from '../domain/nfse-rejection.js';
import { NFSE_CANCEL_JOB, NFSE_MODEL } from './nfse-deps.js';
import { NFSE_FAMILY } from './nfse-family.js';
import { nfseIssuerOf } from './nfse-issuer.js';

// docs/fiscal/nfse-national.md#events: e101101 "Cancelamento de NFS-e", cMotivo 1 (error), 2 (service not provided), 9 (other).
const CANCELLATION = '101101' as const;
// Anexo II E0840: a cancellation is refused when an event already bars it - ours, registered by an
// attempt whose answer was lost, is fetched instead.
const ALREADY_LINKED = 'E0840';

interface PendingNfseCancellation {
  status: 'pending';
  reason: string;
  reason_code: string;
  requested_at: string;
  event_xml: string;
}

const isPending = (c: Note['cancellation']): c is PendingNfseCancellation => c !== null && 'status' in c && c.status === 'pending';

/**
 * POST /v1/nfse/:id/cancel: refused locally what can be (state, reason), then the signed pedRegEvento
 * and its job are stored in one transaction; the worker registers it at Sefin. The municipality's own
 * limits (deadline E0822, value ceiling E0823, identified taker E0824) are Sefin's to apply.
 */
export async function requestNfseCancellation(
  deps: AuthorityDeps,
  accountId: string,
  id: string,
  input: { reasonCode: 1 | 2 | 9; reason: string },
): Promise<Note> {
  const { db, clock } = deps;
  const note = await getNote(db, accountId, id, { model: NFSE_MODEL });
  if (!note) throw notFound('NFS-e');
  // TSMotivo: 15-255 characters the layout can carry.
  const errors: Errors = [];
  checkText(errors, 'reason', input.reason, 15, 255);
  if (errors.length > 0) throw new ApiError('validation_error', `reason ${errors[0]!.message}`, errors);
  if (isPending(note.cancellation)) return note;
  if (note.status !== 'authorized' || !note.nfse_key) {
    throw new ApiError('invalid_state', `NFS-e ${id} is ${note.status}; only an authorized NFS-e can be cancelled`);
  }
  const issuer = await findIssuerForEmission(db, accountId, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, accountId, note.issuer_id));
  if (!issuer || !material?.certificate) throw new ApiError('issuer_not_ready', 'The issuer has no certificate to sign the cancellation', [{ field: 'certificate', message: 'missing' }]);
  const mapped = nfseIssuerOf(issuer);
  const now = clock.now();
  // Anexo II E1983: Sefin refuses an event signed with a certificate out of its validity; an issuer whose
  // certificate expired after it issued the note uploads a current one first.
  const validity = certificateValidityProblem(material.certificate, now);
  if (validity) {
    throw new ApiError('issuer_not_ready', `The issuer's certificate is ${validity.replace(/_/g, ' ')} (valid ${material.certificate.notBefore.toISOString()} to ${material.certificate.notAfter.toISOString()}); upload a current one to sign the cancellation`, [
      { field: 'certificate', message: `${validity.replace(/_/g, ' ')}: upload a current A1 (POST /v1/issuers/${note.issuer_id}/certificate) (Anexo II E1983)`, rule: 'E1983' },
    ]);
  }
  const tz = timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf);
  // Anexo II E1991: the event is signed with its author's certificate; an e-CPF (accepted in the sandbox
  // with a warning) does not sign for an issuer identified by CNPJ.
  const cert = material.certificate;
  if (issuer.cnpj.length !== 11 && cert.cnpj === null && cert.cpf !== null) {
    throw new ApiError('issuer_not_ready', 'The issuer\'s certificate is an e-CPF; Sefin registers the cancellation of a CNPJ\'s NFS-e only when signed with an e-CNPJ', [
      { field: 'certificate', message: `an e-CPF (CPF ${cert.cpf}) cannot sign for CNPJ ${issuer.cnpj}: upload the issuer's e-CNPJ A1 (POST /v1/issuers/${note.issuer_id}/certificate) (Anexo II E1991)`, rule: 'E1991' },
    ]);
  }
  const event = signPedRegEvento(
    {
      tpAmb: note.tp_amb as 1 | 2,
      verAplic: DEFAULT_VER_APLIC,
      dhEvento: localDateTime(now, tz).text,
      author: issuer.cnpj.length === 11 ? { CPF: issuer.cnpj } : { CNPJ: issuer.cnpj },
      chNFSe: note.nfse_key,
      event: { tpEvento: CANCELLATION, cMotivo: String(input.reasonCode) as '1' | '2' | '9', xMotivo: input.reason },
    },
    material.certificate,
    mapped.ok ? mapped.profile : undefined,
  );
  const pending: PendingNfseCancellation = { status: 'pending', reason: input.reason, reason_code: String(input.reasonCode), requested_at: now.toISOString(), event_xml: event.xml };
  const claimed = await db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, id, true);
    if (!locked || locked.status !== 'authorized' || locked.cancellation) return false;
    await updateNote(tx, id, { cancellation: pending }, now);
    await addHistory(tx, id, { type: 'cancellation_requested', at: now, code: CANCELLATION, message: input.reason });
    await enqueueJob(tx, NFSE_CANCEL_JOB, { noteId: id }, { runAt: now, now, dedupeKey: `cancel:${id}:${now.getTime()}`, maxAttempts: 10_000 });
    return true;
  });
  const again = (await getNote(db, accountId, id, { model: NFSE_MODEL }))!;
  if (!claimed && again.status !== 'canceled' && !isPending(again.cancellation)) {
    throw new ApiError('invalid_state', `NFS-e ${id} is ${again.status}; only an authorized NFS-e can be cancelled`);
  }
  if (claimed) deps.wakeWorker();
  return again;
}

/** Worker step: register the stored request; after a lost answer the event is fetched before any resend. */
export async function cancelNfseJob(deps: AuthorityDeps, job: Job<{ noteId: string }>): Promise<void> {
  const { db, clock } = deps;
  const note = await getNoteForWork(db, job.payload.noteId);
  if (!note || !isPending(note.cancellation) || !note.nfse_key) return;
  const pending = note.cancellation;
  const material = await loadIssuerSigningMaterial(db, deps.secrets, note.account_id, note.issuer_id);
  if (!material?.certificate) throw new Error(`issuer ${note.issuer_id} has no certificate`);
  const client = deps.authority.nfseClientFor(material.certificate, note.tp_amb as 1 | 2, note.account_id);

  if (job.attempts > 1) {
    const known = await client.fetchEvent(note.nfse_key, CANCELLATION, 1);
    if (known.kind === 'found') return settleCanceled(deps, note, pending, known.eventXml);
  }
  const out = await client.registerEvent(note.nfse_key, pending.event_xml);
  if (out.kind === 'registered') return settleCanceled(deps, note, pending, out.eventXml);
  if (out.kind === 'throttled') throw new RetryLater(out.retryAfterMs, 'Sefin asked to wait (429)');
  if (out.kind === 'unavailable') {
    await addHistory(db, note.id, { type: out.inDoubt ? 'authority_in_doubt' : 'authority_unavailable', at: clock.now(), message: `cancellation not confirmed: ${out.reason}` });
    throw new RetryLater(Math.min(60_000, 1000 * 2 ** Math.min(6, job.attempts - 1)), `event ${out.kind}`);
  }
  if (out.errors.some((e) => e.code.toUpperCase() === ALREADY_LINKED)) {
    const known = await client.fetchEvent(note.nfse_key, CANCELLATION, 1);
    if (known.kind === 'found') return settleCanceled(deps, note, pending, known.eventXml);
  }
  // Refused (e.g. the municipality's deadline, E0822): the note stays authorized; the history says why.
  const rejection = explainNfseRejection(out.errors);
  const now = clock.now();
  await db.transaction(async (tx) => {
    await updateNote(tx, note.id, { cancellation: null }, now);
    await addHistory(tx, note.id, { type: 'cancellation_rejected', at: now, code: rejection.code, message: [rejection.message, rejection.hint].filter(Boolean).join(' ') });
  });
  noteSettled.emit(`cancel:${note.id}`);
}

async function settleCanceled(deps: AuthorityDeps, note: Note, pending: PendingNfseCancellation, eventXml: string): Promise<void> {
  const { db, clock } = deps;
  const now = clock.now();
  const eventId = /<infEvento[^>]*\sId="([^"]+)"/.exec(eventXml)?.[1] ?? '';
  const processed = /<dhProc>([^<]+)<\/dhProc>/.exec(eventXml)?.[1];
  const canceledAt = processed && !Number.isNaN(Date.parse(processed)) ? new Date(processed) : now;
  await db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, note.id, true);
    if (!locked || !isPending(locked.cancellation)) return;
    await updateNote(tx, note.id, {
      status: 'canceled',
      cancellation: { protocolo: eventId, reason: pending.reason, reason_code: pending.reason_code, canceled_at: canceledAt.toISOString() },
      cancel_proc_xml: eventXml,
    }, now);
    await addHistory(tx, note.id, { type: 'canceled', at: now, code: CANCELLATION, message: 'Cancelamento de NFS-e registrado', protocolo: eventId });
    const fresh = (await getNoteForWork(tx, note.id))!;
    await recordEvent(tx, {
      accountId: fresh.account_id, type: 'nfse.canceled', subjectType: 'nfse', subjectId: fresh.id,
      data: NFSE_FAMILY.present(fresh, deps.config.publicBaseUrl), at: now,
    });
  });
  noteSettled.emit(`cancel:${note.id}`);
}
