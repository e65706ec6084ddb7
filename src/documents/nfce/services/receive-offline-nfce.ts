import type { Note, NoteContingency } from '../../notes/domain/note.js';
import { ApiError, type ErrorDetail } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { isValidCnf } from '../../../fiscal/layout/cnf.js';
import { enqueueJob } from '../../../infra/queue/queue.js';
import { sqlState } from '../../../infra/storage/db.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import type { IssuerForEmission } from '../../../kernel/issuer.js';
import { addHistory, findNoteByIdempotencyKey, getNote, updateNoteIf } from '../../notes/storage/note-repository.js';
import { findIssuersByCnpj, findLiveNoteByNumber, findNoteIdByAccessKey, insertOfflineNote } from '../storage/offline-note-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import { issuerReadinessProblems } from '../../../platform/issuers/issuer-view.js';
import { assertIssuerActive } from '../../../platform/issuers/archive-issuer.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import type { IssueDeps } from '../../notes/services/issue-note.js';
import { buildPreparedNfce } from '../domain/build-nfce.js';
import { offlineDeadline, offlineNfceProblems, type OfflineField, type OfflineNfceFacts } from '../domain/offline-nfce.js';
import { OFFLINE_IDE_LEAVES, type OfflineIdeLeaf } from '../domain/offline-ide-rules.js';
import type { Sale } from '../domain/sale.js';
import { NFCE_EMITTER } from './issue-nfce.js';
import { AUTHORIZE_JOB, NFCE_MODEL } from './nfce-deps.js';
import { NFCE_FAMILY } from './nfce-family.js';
import { acceptSignedOfflineXml, offlineSchema, signUnsignedOfflineXml, type OfflineDocument, type OfflineReading } from './offline-nfce-document.js';
import { readOfflineXmlOffThread } from './offline-xml-pool.js';

/** What the point of sale says of a sale it issued offline (form b): the values it printed. */
export interface OfflineParams {
  serie: number;
  number: number;
  cnf: string;
  issued_at: string;
  contingency_at: string;
  reason: string;
  /** The key the point of sale printed, to be checked against the one these values give. */
  access_key?: string | undefined;
}

export type OfflineNfceBody =
  | { xml: string; issuer_id?: string | undefined; external_ref?: string | undefined }
  | (Sale & { offline: OfflineParams });

export interface OfflineOptions {
  idempotencyKey?: string | undefined;
  scenario?: string | undefined;
}

/** The note and whether this call created it (201) or found it (200: the same key sent again). */
export interface OfflineReceipt {
  row: Note;
  created: boolean;
}

// The JSON form names the fields the client sent; the XML form the element's path.
const JSON_FIELDS: Record<OfflineField, string> = {
  Id: 'offline.access_key', mod: 'offline', tpEmis: 'offline', dhCont: 'offline.contingency_at', xJust: 'offline.reason',
  CNPJ: 'issuer_id', tpAmb: 'issuer_id', serie: 'offline.serie', nNF: 'offline.number', cNF: 'offline.cnf', dhEmi: 'offline.issued_at',
  // The gateway writes these itself in the sale form (offline-ide-rules.ts): named only for the type.
  ...(Object.fromEntries(OFFLINE_IDE_LEAVES.map((leaf) => [leaf, 'offline'])) as Record<OfflineIdeLeaf, string>),
};
const XML_FIELDS = (f: OfflineField) => (f === 'Id' ? 'xml.infNFe.Id' : f === 'CNPJ' ? 'xml.emit.CNPJ' : `xml.ide.${f}`);

const invalid = (details: ErrorDetail[]) =>
  new ApiError('validation_error', `${details[0]!.field} ${details[0]!.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`, details);

/**
 * POST /v1/nfce/offline (docs/fiscal/offline-contingency.md and 17.1 "manual mode"): an NFC-e the point of sale
 * issued itself in offline contingency and printed is received for TRANSMISSION. Everything is checked
 * before anything is stored (422 naming each field); the note is stored in `contingency` with its
 * history line, the outbox event `nfce.contingency_received` and the job that transmits it (the same
 * `nfce.authorize` job the gateway's own contingency uses) in ONE transaction. The same access key sent
 * again answers the note it made; another key for a number already held is 409.
 */
export async function receiveOfflineNfce(deps: IssueDeps, accountId: string, body: OfflineNfceBody, opts: OfflineOptions = {}): Promise<OfflineReceipt> {
  const { db, clock } = deps;
  const now = clock.now();
  if (opts.idempotencyKey) {
    const liveSince = new Date(now.getTime() - deps.config.idempotencyTtlSeconds * 1000);
    const existing = await findNoteByIdempotencyKey(db, accountId, opts.idempotencyKey, liveSince);
    if (existing) return { row: existing, created: false };
  }
  const xmlForm = 'xml' in body;
  // Parsed once, strictly, off the event loop: every fact below comes from this tree.
  let reading: OfflineReading | null = null;
  if ('xml' in body) {
    const read = await readOfflineXmlOffThread(body.xml);
    if (!read.ok) throw invalid([{ field: 'xml', message: read.problem }]);
    reading = read;
  }
  const facts = reading?.facts ?? null;

  const issuer = await resolveIssuer(deps, accountId, body.issuer_id, facts, xmlForm);
  assertIssuerActive(issuer);
  const notReady = issuerReadinessProblems(issuer, now, { csc: true });
  if (notReady.length > 0) {
    throw new ApiError('issuer_not_ready', `Issuer ${issuer.id} cannot transmit yet: ${notReady.map((p) => p.field).join(', ')} missing or invalid`, notReady);
  }
  const material = await loadIssuerSigningMaterial(db, deps.secrets, accountId, issuer.id, issuer);
  if (!material?.certificate || !material.csc) {
    throw new ApiError('issuer_not_ready', `Issuer ${issuer.id} has no usable certificate or CSC`, [{ field: material?.certificate ? 'csc' : 'certificate', message: 'missing' }]);
  }
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;
  const rules = (f: OfflineNfceFacts, field: (x: OfflineField) => string) =>
    offlineNfceProblems(f, { now, issuerCnpj: cleanTaxId(issuer.cnpj), tpAmb, gatewaySerie: NFCE_EMITTER.serieOf?.(issuer) ?? NFCE_EMITTER.serie, field });

  let doc: OfflineDocument;
  let f: OfflineNfceFacts;
  let summary: { totals: Record<string, number>; items: unknown[]; request: unknown; externalRef: string | null };
  if ('xml' in body && reading) {
    f = reading.facts;
    const problems = rules(f, XML_FIELDS);
    if (problems.length > 0) throw invalid(problems);
    // Signed: kept byte for byte once it verifies. Unsigned: signed here with the issuer's certificate.
    const signing = { uf: issuer.uf, csc: material.csc, signer: material.certificate, now };
    doc = f.signed ? await acceptSignedOfflineXml(reading, signing) : await signUnsignedOfflineXml(reading, signing);
    // The document is the record; request keeps what the client said besides it (a NOT NULL column).
    summary = { totals: { vNF: Number(f.vNF) }, items: [], request: { form: 'xml', issuer_id: issuer.id, external_ref: body.external_ref ?? null }, externalRef: body.external_ref ?? null };
  } else {
    if ('xml' in body) throw new Error('unreachable: the XML form was read above');
    const { offline, ...sale } = body;
    const prepared = NFCE_EMITTER.prepare(sale, issuer);
    if (!prepared.ok) throw invalid(prepared.errors);
    if (!isValidCnf(offline.cnf, offline.number)) throw invalid([{ field: 'offline.cnf', message: `${offline.cnf} is refused by NT 2019.001 B03-10 (equal to the number or a forbidden sequence)` }]);
    // The POS printed these values: the document is built with exactly them, so its key is the printed one.
    const built = buildPreparedNfce(prepared.prepared, {
      serie: offline.serie, nNF: offline.number, emittedAt: new Date(offline.issued_at), signingKey: material.certificate, csc: material.csc,
      tpEmis: 9, contingency: { at: new Date(offline.contingency_at), reason: offline.reason }, cNF: offline.cnf, csrt: material.csrt,
    });
    // Read back from the document itself, on the worker: the rules check what was written, not what was meant.
    const own = await readOfflineXmlOffThread(built.xml, { verify: false });
    if (!own.ok) throw new Error(`the gateway's own offline NFC-e does not read back: ${own.problem}`);
    f = own.facts;
    const problems = rules(f, (x) => JSON_FIELDS[x]);
    if (offline.access_key && offline.access_key !== built.accessKey) {
      problems.push({ field: 'offline.access_key', message: `${offline.access_key} is not the key of these values (${built.accessKey}): check issued_at (its month in the issuer's time zone), serie, number and cnf` });
    }
    if (problems.length > 0) throw invalid(problems);
    const schemaPackage = await offlineSchema(built.xml, (path) => NFCE_EMITTER.fieldOfXsdPath(path, sale) ?? path);
    doc = { xml: built.xml, digestValue: built.digestValue, qrCodeUrl: built.qrCodeUrl, urlChave: built.urlChave, schemaPackage };
    summary = { totals: { ...built.totals } as Record<string, number>, items: built.items, request: body, externalRef: sale.external_ref ?? null };
  }

  const { deadline, late } = offlineDeadline(f.dhEmi, now);
  const contingency: NoteContingency = {
    reason: f.xJust!, entered_at: new Date(f.dhCont!).toISOString(), deadline_at: deadline.toISOString(),
    transmitted_at: null, first_attempt: null, source: 'client', ...(late ? { late: true } : {}),
  };
  const known = await alreadyHeld(deps, accountId, issuer.id, f);
  if (known) {
    // docs/fiscal/offline-contingency.md#sefaz-guidance: a contingency NFC-e the authority rejected may be corrected and sent again with the same
    // number (and key): a different document for a rejected note of the point of sale is transmitted anew.
    if (known.status === 'rejected' && known.contingency?.source === 'client' && known.digest_value !== doc.digestValue) {
      const fields: Partial<Note> = {
        status: 'contingency', dh_emi: f.dhEmi, schema_package: doc.schemaPackage, request: summary.request, totals: summary.totals,
        items: summary.items, signed_xml: doc.xml, digest_value: doc.digestValue, qrcode_url: doc.qrCodeUrl, url_chave: doc.urlChave,
        rejection: null, scenario: opts.scenario ?? null, contingency,
      };
      return { row: await resendRejected(deps, known, fields, now), created: false };
    }
    return { row: known, created: false };
  }
  const id = newId(NFCE_FAMILY.object);
  try {
    await db.transaction(async (tx) => {
      await insertOfflineNote(tx, {
        id, account_id: accountId, issuer_id: issuer.id, external_ref: summary.externalRef, status: 'contingency', model: NFCE_MODEL,
        serie: Number(f.serie), number: Number(f.nNF), access_key: f.accessKey, tp_amb: tpAmb, tp_emis: 9, dh_emi: f.dhEmi,
        schema_package: doc.schemaPackage, request: summary.request, totals: summary.totals, items: summary.items, signed_xml: doc.xml,
        digest_value: doc.digestValue, qrcode_url: doc.qrCodeUrl, url_chave: doc.urlChave, scenario: opts.scenario ?? null,
        idempotency_key: opts.idempotencyKey ?? null, created_at: now, contingency,
      });
      await addHistory(tx, id, {
        type: 'contingency_received', at: now, code: '9',
        message: `issued offline by the point of sale as number ${Number(f.nNF)}, series ${Number(f.serie)} (${f.xJust})` +
          (late ? `; received after the transmission deadline ${deadline.toISOString()} (the authority may answer 150)` : ''),
      });
      const row = (await getNote(tx, accountId, id))!;
      await recordEvent(tx, { accountId, type: 'nfce.contingency_received', subjectType: 'nfce', subjectId: id, data: NFCE_FAMILY.present(row, deps.config.publicBaseUrl), at: now });
      await enqueueJob(tx, AUTHORIZE_JOB, { noteId: id, contingency: true }, { runAt: now, now, dedupeKey: `${AUTHORIZE_JOB}:${id}:contingency`, maxAttempts: 10_000 });
    });
  } catch (err) {
    // A request racing this one stored the same key, number or Idempotency-Key first.
    if (sqlState(err) !== '23505') throw err;
    const raced = (opts.idempotencyKey && (await findNoteByIdempotencyKey(db, accountId, opts.idempotencyKey, new Date(0)))) || (await alreadyHeld(deps, accountId, issuer.id, f));
    if (raced) return { row: raced, created: false };
    throw err;
  }
  deps.wakeWorker();
  return { row: (await getNote(db, accountId, id))!, created: true };
}

/** A rejected offline note takes its corrected document and goes back to `contingency`, with a new transmission job. */
async function resendRejected(deps: IssueDeps, note: Note, fields: Partial<Note>, now: Date): Promise<Note> {
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateNoteIf(tx, note.id, 'rejected', fields, now).catch((err: unknown) => {
      // notes_number_key: since the rejection another document of the point of sale took this number.
      if (sqlState(err) === '23505') throw new ApiError('invalid_state', `Number ${note.number} of series ${note.serie} is held by another document now`, [{ field: 'number', message: 'taken since the rejection' }]);
      throw err;
    });
    // Sent again meanwhile by another request: that one transmits it.
    if (!updated) return (await getNote(tx, note.account_id, note.id))!;
    await addHistory(tx, note.id, { type: 'contingency_received', at: now, code: '9', message: `corrected document received after rejection ${note.rejection?.code ?? ''}; transmitted again` });
    await recordEvent(tx, { accountId: note.account_id, type: 'nfce.contingency_received', subjectType: 'nfce', subjectId: note.id, data: NFCE_FAMILY.present(updated, deps.config.publicBaseUrl), at: now });
    // One transmission job per document: its DigestValue tells the documents apart.
    await enqueueJob(tx, AUTHORIZE_JOB, { noteId: note.id, contingency: true }, { runAt: now, now, dedupeKey: `${AUTHORIZE_JOB}:${note.id}:contingency:${String(fields.digest_value)}`, maxAttempts: 10_000 });
    return updated;
  });
  deps.wakeWorker();
  return row;
}

/** The issuer named, else the account's issuer with the document's CNPJ in the document's environment. */
async function resolveIssuer(deps: IssueDeps, accountId: string, issuerId: string | undefined, f: OfflineNfceFacts | null, xmlForm: boolean): Promise<IssuerForEmission> {
  let id = issuerId;
  if (!id && f) {
    const found = await findIssuersByCnpj(deps.db, accountId, cleanTaxId(f.emitCnpj ?? ''));
    const ambiente = f.tpAmb === '1' ? 'producao' : 'homologacao';
    id = (found.find((i) => i.ambiente === ambiente) ?? found[0])?.id;
    if (!id) throw invalid([{ field: 'xml.emit.CNPJ', message: `${f.emitCnpj ?? '(none)'} is not the CNPJ of an issuer of this account` }]);
  }
  const issuer = id ? await findIssuerForEmission(deps.db, accountId, id) : undefined;
  if (!issuer) throw invalid([{ field: 'issuer_id', message: `${id ?? ''} is not an issuer of this account${xmlForm ? ' (or leave it out: the CNPJ of emit decides)' : ''}` }]);
  return issuer;
}

/**
 * The note this document already is (same access key, this account: the resend of a lost answer), or a
 * 409 when its key or its number belongs to another document (docs/fiscal/offline-contingency.md: one number, one document).
 */
async function alreadyHeld(deps: IssueDeps, accountId: string, issuerId: string, f: OfflineNfceFacts): Promise<Note | null> {
  const byKey = await findNoteIdByAccessKey(deps.db, f.accessKey);
  if (byKey && byKey.account_id === accountId) return (await getNote(deps.db, accountId, byKey.id))!;
  if (byKey) throw new ApiError('invalid_state', `Access key ${f.accessKey} is already registered`, [{ field: 'access_key', message: 'already registered' }]);
  const byNumber = await findLiveNoteByNumber(deps.db, { issuerId, model: NFCE_MODEL, serie: Number(f.serie), number: Number(f.nNF) });
  if (byNumber) {
    throw new ApiError('invalid_state', `Number ${Number(f.nNF)} of series ${Number(f.serie)} is already held by note ${byNumber.id} with another access key (${byNumber.access_key})`, [
      { field: 'number', message: `${Number(f.nNF)} of series ${Number(f.serie)} is taken by ${byNumber.id}` },
    ]);
  }
  return null;
}

