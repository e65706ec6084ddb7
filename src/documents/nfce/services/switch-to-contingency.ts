import type { Note, NoteContingency } from '../../notes/domain/note.js';
import { validateNfeOfItsDate } from '../../../fiscal/xml/xsd/validate-xml.js';
import { enqueueJob } from '../../../infra/queue/queue.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNoteForWork, updateNoteIf } from '../../notes/storage/note-repository.js';
import { reserveNumbers } from '../../../infra/storage/repositories/numbering-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { noteSettled } from '../../notes/services/note-settled.js';
import { buildPreparedNfce } from '../domain/build-nfce.js';
import type { Sale } from '../domain/sale.js';
import { CONTINGENCY_DEADLINE_MS, contingencyOf } from './contingency-settings.js';

export { contingencyReason } from './contingency-settings.js';
import { NFCE_EMITTER } from './issue-nfce.js';
import { AUTHORIZE_JOB } from './nfce-deps.js';
import { NFCE_FAMILY } from './nfce-family.js';

export const FIRST_ATTEMPT_JOB = 'nfce.first-attempt';

/**
 * The sale of an NFC-e the authority has not answered is issued again in offline contingency (docs/fiscal/offline-contingency.md:
 * tpEmis 9, dhCont, xJust, the offline QR code), under a NEW number: a number already transmitted in
 * normal emission may not be reused in contingency (docs/fiscal/offline-contingency.md). The note keeps its id (the client's handle,
 * its Idempotency-Key) and takes the contingency document; the first attempt's number and key are kept in
 * `contingency.first_attempt` and settled by job `nfce.first-attempt` (110112 if the authority had
 * authorized it, inutilization if not). Everything in one transaction, only while the note is still
 * `processing` with the same key: an authorization that lands first wins, and a switch that lands first
 * makes that authorization the first attempt's (the authorize job settles only the key it sent).
 * Answers the note in contingency, or null when it was not switched (already settled, issuer said off).
 */
export async function switchToContingency(
  deps: AuthorityDeps,
  noteId: string,
  reason: string,
  opts: { afterBound?: boolean } = {},
): Promise<Note | null> {
  const { db, clock } = deps;
  const note = await getNoteForWork(db, noteId);
  if (!note || note.status !== 'processing' || note.model !== NFCE_FAMILY.model || note.tp_emis !== 1) return null;
  const issuer = await findIssuerForEmission(db, note.account_id, note.issuer_id);
  if (!issuer) return null;
  const settings = contingencyOf(issuer, deps.config.env);
  if (settings.mode === 'off') return null;
  // An SP issuer that chose EPEC: tpEmis 4, its EPEC registered by the transmission job (register-nfce-epec.ts).
  const tpEmis = settings.mode === 'epec' ? 4 : 9;
  // From the worker: only once the sale has waited the issuer's bound (a first 108 may be gone in a second).
  if (opts.afterBound && clock.now().getTime() - note.created_at.getTime() < settings.waitSeconds * 1000) return null;
  const material = await loadIssuerSigningMaterial(db, deps.secrets, note.account_id, note.issuer_id, issuer);
  if (!material?.certificate || !material.csc) return null;
  const prepared = NFCE_EMITTER.prepare(note.request as Sale, issuer);
  // The sale was valid when it was accepted; an issuer changed since then is no reason to lose it.
  if (!prepared.ok) return null;
  const now = clock.now();
  const series = { issuerId: note.issuer_id, model: note.model, serie: note.serie };
  const switched = await db.transaction(async (tx) => {
    const [nNF] = await reserveNumbers(tx, series, 1);
    const built = buildPreparedNfce(prepared.prepared, {
      serie: note.serie, nNF: nNF!, emittedAt: now, signingKey: material.certificate!, csc: material.csc!,
      tpEmis, contingency: { at: now, reason }, csrt: material.csrt,
    });
    const schema = validateNfeOfItsDate(built.xml);
    if (!schema.valid) throw new Error(`contingency NFC-e failed the XSD: ${schema.errors[0]?.message ?? ''}`);
    const contingency: NoteContingency = {
      reason,
      entered_at: now.toISOString(),
      deadline_at: new Date(now.getTime() + CONTINGENCY_DEADLINE_MS).toISOString(),
      transmitted_at: null,
      first_attempt: { serie: note.serie, number: note.number, access_key: note.access_key, outcome: 'pending', protocolo: null, settled_at: null },
    };
    const row = await updateNoteIf(tx, note.id, 'processing', {
      status: 'contingency', number: nNF!, access_key: built.accessKey, tp_emis: tpEmis, dh_emi: built.dhEmi, signed_xml: built.xml,
      digest_value: built.digestValue, qrcode_url: built.qrCodeUrl, url_chave: built.urlChave, schema_package: schema.pkg, contingency,
    }, now);
    // Settled meanwhile: the transaction is undone, the number goes back unused.
    if (!row || row.access_key !== built.accessKey) throw new NotSwitched();
    await addHistory(tx, note.id, {
      type: 'contingency_issued', at: now, code: String(tpEmis),
      message: tpEmis === 4
        ? `issued in EPEC contingency as number ${nNF} (${reason}); the first attempt, number ${note.number}, is settled apart`
        : `issued in offline contingency as number ${nNF} (${reason}); the first attempt, number ${note.number}, is settled apart`,
    });
    await recordEvent(tx, { accountId: note.account_id, type: 'nfce.contingency_issued', subjectType: 'nfce', subjectId: note.id, data: NFCE_FAMILY.present(row, deps.config.publicBaseUrl), at: now });
    // The contingency document gets a transmission job of its own (the first attempt's job stops when it
    // sees the switch), and the first attempt a job that settles it.
    await enqueueJob(tx, AUTHORIZE_JOB, { noteId: note.id, contingency: true }, { runAt: now, now, dedupeKey: `${AUTHORIZE_JOB}:${note.id}:contingency`, maxAttempts: 10_000 });
    await enqueueJob(tx, FIRST_ATTEMPT_JOB, { noteId: note.id }, { runAt: now, now, dedupeKey: `${FIRST_ATTEMPT_JOB}:${note.id}`, maxAttempts: 10_000 });
    return row;
  }).catch((err: unknown) => {
    if (err instanceof NotSwitched) return null;
    throw err;
  });
  if (switched) {
    noteSettled.emit(note.id);
    deps.wakeWorker();
  }
  return switched;
}

class NotSwitched extends Error {}

