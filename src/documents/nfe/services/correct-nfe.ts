import { svcOfTpEmis } from '../../../fiscal/sefaz/svc-endpoints.js';
import type { Note, NoteCorrections } from '../../notes/domain/note.js';
import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { buildCorrectionLetterEvent, correctionTextProblem } from '../../../fiscal/xml/events/index.js';
import { ApiError } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { enqueueJob, type Job } from '../../../infra/queue/queue.js';
import { assertCertificateCurrent, loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNoteForWork, updateNote } from '../../notes/storage/note-repository.js';
import { getNfeEvent, insertNfeEvent, settleNfeEvent } from '../storage/nfe-event-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import { findNote } from '../../notes/services/find-note.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { noteSettled } from '../../notes/services/note-settled.js';
import { CCE_WINDOW_HOURS } from '../domain/cancel-window.js';
import { forbiddenCorrection, nextCorrection } from '../domain/correction-letter.js';
import { NFE_CCE_JOB } from './nfe-deps.js';
import { meterUsage } from '../../../infra/storage/repositories/billing-repository.js';
import { periodOf } from '../../../platform/billing/period.js';
import { assertWithinQuota } from '../../../platform/billing/quota.js';
import { announceSettled } from '../../notes/services/settle-and-announce.js';
import { NFE_FAMILY } from './nfe-family.js';
import { sendPendingNfeEvent } from './nfe-event-send.js';

const CCE = '110110';

/**
 * POST /v1/nfe/:id/cce: a correction letter (110110). Refused here, before anything is signed: a
 * note that is not authorized, a text outside 15-1000 Latin-1 characters, a change the conditions
 * of use forbid, past 720 hours, a 21st letter. The consolidated text (each CC-e replaces the
 * previous one) is signed with the next sequence and stored with its job in one transaction.
 */
export async function requestCorrection(
  deps: AuthorityDeps,
  accountId: string,
  id: string,
  input: { correction: string; mode?: 'append' | 'replace' },
): Promise<Note> {
  const { db, clock } = deps;
  const note = await findNote(deps, NFE_FAMILY, accountId, id);
  const bad = correctionTextProblem(input.correction);
  if (bad) throw new ApiError('validation_error', `correction ${bad.message}`, [{ field: 'correction', message: bad.message }]);
  const forbidden = forbiddenCorrection(input.correction);
  if (forbidden) {
    throw new ApiError('validation_error', `correction: a correction letter may not be used here: ${forbidden.reason}. Cancel the NF-e and issue it again (or issue a complementary NF-e).`, [
      { field: 'correction', message: `${forbidden.reason}; the conditions of use of the CC-e (Convênio S/N 1970 art. 7 §1-A, ${forbidden.rule}) forbid it` },
    ]);
  }
  if (note.status !== 'authorized') throw new ApiError('invalid_state', `NF-e ${id} is ${note.status}; only an authorized NF-e takes a correction letter`);
  // docs/fiscal/svc.md#services: the SVC that authorized a note takes only its consultation and cancellation.
  if (note.tp_emis === 6 || note.tp_emis === 7) {
    throw new ApiError('invalid_state', `NF-e ${id} was authorized in contingency at ${svcOfTpEmis(note.tp_emis)}, which takes no correction letter; cancel it and issue it again (or issue a complementary NF-e)`);
  }
  const now = clock.now();
  const deadline = new Date(note.authorized_at!.getTime() + CCE_WINDOW_HOURS * 3_600_000);
  if (now > deadline) {
    throw new ApiError('invalid_state', `NF-e ${id} was authorized at ${note.authorized_at!.toISOString()}; a correction letter may be sent within ${CCE_WINDOW_HOURS} hours (until ${deadline.toISOString()})`);
  }
  // A CC-e is a billable event; a hard cap past the plan's events refuses it before anything is signed or sent.
  await assertWithinQuota(deps, accountId, 'events');
  const issuer = await findIssuer(db, accountId, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, accountId, note.issuer_id));
  if (!issuer || !material?.certificate) throw new ApiError('issuer_not_ready', 'The issuer has no certificate to sign the correction letter', [{ field: 'certificate', message: 'missing' }]);
  assertCertificateCurrent(material.certificate, now, 'a correction letter');

  const eventId = newId('evt');
  const stored = await db.transaction(async (tx) => {
    const locked = (await getNoteForWork(tx, id, true))!;
    if (locked.status !== 'authorized') throw new ApiError('invalid_state', `NF-e ${id} is ${locked.status}; only an authorized NF-e takes a correction letter`);
    const next = nextCorrection(locked.corrections, input.correction, input.mode ?? 'append');
    if ('problem' in next) throw new ApiError('invalid_state', `NF-e ${id}: ${next.problem}`);
    if (next.text.length > 1000) {
      throw new ApiError('validation_error', 'correction: the letter in force plus this one exceed 1000 characters', [
        { field: 'correction', message: 'with the corrections already in force it exceeds 1000 characters; send the whole consolidated text with mode "replace"' },
      ]);
    }
    const event = buildCorrectionLetterEvent(
      {
        cOrgao: ufCode(issuer.uf)!,
        tpAmb: note.tp_amb as 1 | 2,
        author: { CNPJ: issuer.cnpj },
        chNFe: note.access_key,
        dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text,
        nSeqEvento: next.sequence,
        xCorrecao: next.text,
      },
      material.certificate!,
    );
    await insertNfeEvent(tx, {
      id: eventId, account_id: accountId, issuer_id: note.issuer_id, access_key: note.access_key, note_id: id, tp_evento: CCE,
      n_seq: next.sequence, status: 'pending', detail: { text: next.text }, event_xml: event.xml, created_at: now,
    });
    const corrections: NoteCorrections = {
      current: locked.corrections?.current ?? null,
      letters: [...(locked.corrections?.letters ?? []), {
        sequence: next.sequence, text: next.text, status: 'pending', requested_at: now.toISOString(), protocolo: null, registered_at: null, rejection: null,
      }],
    };
    await updateNote(tx, id, { corrections }, now);
    await addHistory(tx, id, { type: 'correction_requested', at: now, message: `CC-e ${next.sequence}: ${next.text}` });
    await enqueueJob(tx, NFE_CCE_JOB, { eventId }, { runAt: now, now, dedupeKey: `cce:${eventId}`, maxAttempts: 10_000 });
    return true;
  });
  if (stored) deps.wakeWorker();
  return findNote(deps, NFE_FAMILY, accountId, id);
}

/** Worker step: send the letter; a lost answer is repaired from the authority's record (573 duplicate). */
export async function correctionJob(deps: AuthorityDeps, job: Job<{ eventId: string }>): Promise<void> {
  const ev = await getNfeEvent(deps.db, job.payload.eventId);
  const sent = ev && (await sendPendingNfeEvent(deps, job, ev, `correction letter ${ev.n_seq}`));
  if (!ev || !sent) return;
  const { note, outcome } = sent;
  if (outcome.kind === 'registered') return settleLetter(deps, ev.id, note.id, outcome);
  await rejectLetter(deps, ev.id, note.id, ev.n_seq, outcome.rejection);
}

async function settleLetter(deps: AuthorityDeps, eventId: string, noteId: string, r: { protocolo: string; proc: string; code: string }): Promise<void> {
  const now = deps.clock.now();
  let metered: { account_id: string; period: string; kind: 'events'; count: number } | undefined;
  await deps.db.transaction(async (tx) => {
    const ev = (await getNfeEvent(tx, eventId, true))!;
    if (!(await settleNfeEvent(tx, eventId, { status: 'registered', proc_xml: r.proc, protocolo: r.protocolo }, now))) return;
    const note = (await getNoteForWork(tx, noteId, true))!;
    const text = String(ev.detail.text);
    const registered_at = now.toISOString();
    const corrections: NoteCorrections = {
      current: { sequence: ev.n_seq, text, protocolo: r.protocolo, registered_at },
      letters: (note.corrections?.letters ?? []).map((l) => (l.sequence === ev.n_seq && l.status === 'pending' ? { ...l, status: 'registered', protocolo: r.protocolo, registered_at } : l)),
    };
    await updateNote(tx, noteId, { corrections }, now);
    await addHistory(tx, noteId, { type: 'corrected', at: now, code: r.code, message: `CC-e ${ev.n_seq} registrada`, protocolo: r.protocolo });
    const fresh = (await getNoteForWork(tx, noteId))!;
    await recordEvent(tx, { accountId: fresh.account_id, type: 'nfe.corrected', subjectType: 'nfe', subjectId: noteId, data: NFE_FAMILY.present(fresh, deps.config.publicBaseUrl), at: now });
    // A registered CC-e is a billable event, metered in this transaction, once, keyed by the event's id.
    const counted = await meterUsage(tx, { subjectId: eventId, kind: 'events', accountId: fresh.account_id, issuerId: fresh.issuer_id, period: periodOf(now), at: now });
    if (counted) metered = { account_id: fresh.account_id, period: periodOf(now), kind: 'events' as const, count: counted.count };
  });
  // The outbox event's fan-out job was queued by the trigger: the runner is woken either way.
  await announceSettled(deps, `cce:${noteId}`, { fanout: true, metered });
}

async function rejectLetter(deps: AuthorityDeps, eventId: string, noteId: string, seq: number, rejection: { code: string; message: string }): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    if (!(await settleNfeEvent(tx, eventId, { status: 'rejected', rejection }, now))) return;
    const note = (await getNoteForWork(tx, noteId, true))!;
    const corrections: NoteCorrections = {
      current: note.corrections?.current ?? null,
      letters: (note.corrections?.letters ?? []).map((l) => (l.sequence === seq && l.status === 'pending' ? { ...l, status: 'rejected', rejection } : l)),
    };
    await updateNote(tx, noteId, { corrections }, now);
    await addHistory(tx, noteId, { type: 'correction_rejected', at: now, code: rejection.code, message: rejection.message });
  });
  noteSettled.emit(`cce:${noteId}`);
}
