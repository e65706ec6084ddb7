import type { Note } from '../domain/note.js';
import { randomInt } from 'node:crypto';
import { authorizeOrReconcile, fromReceipt, type ReconciledAuthorization } from '../../../fiscal/sefaz/reconcile.js';
import { JOB_COMPLETED, RetryLater } from '../../../infra/queue/runner.js';
import type { Job } from '../../../infra/queue/queue.js';
import { addHistory, getNoteWithIssuer, settleReceipt } from '../storage/note-repository.js';
import type { HistoryLine, Settlement } from '../storage/note-settlement.js';
import { settleAndAnnounce } from './settle-and-announce.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { explainAuthorityRejection } from './rejection.js';
import { nfeProcXml } from './proc-files.js';
import type { AuthorityDeps, NoteFamily } from './note-family.js';
import { asModel } from '../../../fiscal/sefaz/endpoints.js';
import { svcOfAccessKey } from '../../../fiscal/sefaz/svc-endpoints.js';
import { periodOf } from '../../../platform/billing/period.js';

/**
 * Worker step for one note: send it (indSinc=1) and record the final state. Safe to run again after
 * a crash: a note already final is left alone, and from the second attempt on the authority is
 * consulted by key before anything is re-sent (docs/decisions.md#the-way-a-sale-travels: never two authorizations for one sale).
 */
export async function authorizeNoteJob(
  deps: AuthorityDeps,
  family: NoteFamily,
  job: Job<{ noteId: string; contingency?: boolean }>,
  workerId?: string,
  hooks: AuthorizeHooks = {},
): Promise<void | typeof JOB_COMPLETED> {
  const { db } = deps;
  const found = await getNoteWithIssuer(db, job.payload.noteId);
  // A note in offline contingency (NFC-e, docs/fiscal/offline-contingency.md) is transmitted by this same job, until authorized.
  if (!found || (found.note.status !== 'processing' && found.note.status !== 'contingency')) return;
  // The switch to contingency queues the job that transmits the new document; the first attempt's job stops.
  if ((found.note.status === 'contingency') !== (job.payload.contingency === true)) return;
  const { issuer } = found;
  let { note } = found;
  // The settlement marks the job done in its own statement (one round trip fewer per sale).
  const done = workerId ? { id: job.id, workerId } : undefined;
  const material = await loadIssuerSigningMaterial(db, deps.secrets, note.account_id, note.issuer_id, issuer);
  if (!material?.certificate) throw new Error(`issuer ${note.issuer_id} has no certificate for note ${note.id}`);

  const client = deps.authority.clientFor(material.certificate, note.account_id);
  const target = {
    uf: issuer.uf,
    model: asModel(note.model),
    tpAmb: note.tp_amb as 1 | 2,
    accessKey: note.access_key,
    // An NF-e issued for the SVC (tpEmis 6/7, the key's 35th digit) is sent, polled and consulted there, under
    // its own key: never re-issued to another authorizer (docs/fiscal/svc.md#retries).
    authorizer: svcOfAccessKey(note.access_key) ?? undefined,
  };
  // The sandbox scenario applies to the first transmission only; repairs must see the real state.
  const headers =
    job.attempts === 1 && note.scenario && deps.authority.options.scenariosAllowed ? { 'X-Sandbox-Scenario': note.scenario } : undefined;

  let result: ReconciledAuthorization;
  // NF-e in EPEC (docs/fiscal/epec.md): the event is registered at the Ambiente Nacional before the note goes to its state.
  const before = await hooks.beforeSend?.(note);
  if (before && 'rejected' in before) {
    const refused: ReconciledAuthorization = { status: 'rejected', cStat: before.rejected.cStat, xMotivo: before.rejected.xMotivo, late: false, protocol: null, via: 'authorization', steps: [] };
    return settle(deps, family, note, refused, [], done);
  }
  if (before) note = before.note;
  if (note.receipt) {
    // An asynchronous lot holds the note: its receipt answers first (MOC 4.1, NFeRetAutorizacao4).
    const polled = fromReceipt(await client.receipt({ ...target, nRec: note.receipt }));
    await noteHistory(deps, note, { type: 'receipt_polled', code: polled.cStat === null ? null : String(polled.cStat), message: polled.xMotivo });
    if (polled.status === 'wait') throw new RetryLater(Math.min(retryDelay(job.attempts), 10_000), `lot ${note.receipt}: ${polled.xMotivo}`);
    if (polled.status !== 'lost') return settle(deps, family, note, polled, [], done);
    // 106: the authority no longer knows the lot; the consultation by key below decides.
  }
  if (job.attempts > 1) {
    // An earlier attempt may have reached the authority before we lost track: ask first.
    const known = await client.consult(target);
    await noteHistory(deps, note, { type: 'consulted', code: 'cStat' in known && known.cStat !== null ? String(known.cStat) : null, message: describe(known) });
    if (known.kind === 'authorized' || known.kind === 'denied' || known.kind === 'canceled') {
      result = { status: known.kind, cStat: known.cStat, xMotivo: known.xMotivo, late: known.kind === 'authorized' && known.late, protocol: known.protocol, via: 'consultation', steps: [] };
      return settle(deps, family, note, result, [], done);
    }
    // 124 (NT 2014.001 5.6, docs/fiscal/epec.md): the state holds only the note's EPEC, so the note itself is still to be sent.
    if (known.kind !== 'not-found' && known.kind !== 'epec') {
      // The authorizer the note went to cannot be asked; the family may issue it another way meanwhile (NF-e: an SVC
      // that never took the key, its state answering again), and the job it queues sends that.
      if (note.status === 'processing' && hooks.consultationDown && (await hooks.consultationDown(note))) return;
      throw new RetryLater(retryDelay(job.attempts), `consultation inconclusive: ${describe(known)}`);
    }
  }
  const transmitted = { type: 'transmitted', at: deps.clock.now(), message: `sent to the authority (attempt ${job.attempts})` };
  const indSinc = family.synchronous(issuer.uf) ? 1 : 0;
  result = await authorizeOrReconcile(client, { ...target, signedNFeXml: note.signed_xml, idLote: randomInt(1, 2 ** 47), indSinc, headers });
  if (result.status === 'queued') {
    // Kept before waiting, so a worker that crashes now polls this receipt instead of sending again.
    await settleReceipt(deps.db, note.id, result.nRec!, [transmitted, { type: 'receipt', at: deps.clock.now(), code: String(result.cStat), message: `lot received: receipt ${result.nRec}` }]);
    throw new RetryLater(RECEIPT_POLL_MS, `lot ${result.nRec} received for asynchronous processing`);
  }
  if (result.status === 'not-sent' || result.status === 'in-doubt') {
    await addHistory(deps.db, note.id, transmitted);
    const why = result.xMotivo ?? result.steps.map((s) => `${s.call}: ${s.kind}`).join(', ');
    await noteHistory(deps, note, {
      type: result.status === 'in-doubt' ? 'authority_in_doubt' : 'authority_unavailable',
      code: result.cStat === null ? null : String(result.cStat),
      message: why,
    });
    // The family may issue the sale another way meanwhile (NFC-e: offline contingency); the same job
    // then transmits that document on its next attempt.
    if (note.status === 'processing' && hooks.authorityDown && (await hooks.authorityDown(note, why, result.status, result.cStat))) return;
    if (note.status === 'contingency') await hooks.contingencyWaiting?.(note);
    throw new RetryLater(retryDelay(job.attempts), `authority ${result.status}`);
  }
  if (note.status === 'contingency' && result.status === 'rejected' && hooks.fixRefused && (await hooks.fixRefused(note, result.cStat))) {
    await addHistory(deps.db, note.id, transmitted);
    throw new RetryLater(0, `refused with ${result.cStat}; fixed, sent again`);
  }
  return settle(deps, family, note, result, [transmitted], done);
}

// MOC 4.1: tMed is the authority's average processing time; a second is the usual first wait.
const RECEIPT_POLL_MS = 1000;

// MOC cStat table (docs/fiscal/cstat.md): the authority already holds this number under another key, or voided it.
// 539 another key holds the number, 206 it was voided; 692 and 691 an EPEC holds it (MOC 2AB08-10/20, docs/fiscal/epec.md),
// and 485 another key's EPEC holds it at the Ambiente Nacional (NT 2014.001 3P12-10).
const NUMBER_TAKEN: ReadonlySet<number> = new Set([539, 206, 691, 692, 485]);

/** Backoff for an unavailable authority: 1, 2, 4 ... s, at most one minute apart. */
function retryDelay(attempt: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.min(6, attempt - 1));
}

export interface AuthorizeHooks {
  /**
   * Run before the note is sent or consulted (NF-e issued in EPEC: its event 110140 registered first). The
   * note as it now stands, or the refusal that ends it rejected; undefined when there was nothing to do.
   */
  beforeSend?(note: Note): Promise<{ note: Note } | { rejected: { cStat: number | null; xMotivo: string } } | undefined>;
  /**
   * The authority did not answer this note (`not-sent`: the key was not used; `in-doubt`: it may have been);
   * true when the family issued it another way (it changed the note). `cStat` is the authority's own answer
   * to the send when there was one (108/109: its service is paralysed).
   */
  authorityDown?(note: Note, reason: string, outcome: 'not-sent' | 'in-doubt', cStat?: number | null): Promise<boolean>;
  /**
   * The consultation before a resend found the authorizer down; true when the family issued the note another way
   * (it changed the note and queued the job that sends it).
   */
  consultationDown?(note: Note): Promise<boolean>;
  /** A refused contingency note the family could fix (NFC-e: a stale QR code); true: send it again. */
  fixRefused?(note: Note, cStat: number | null): Promise<boolean>;
  /** A note already issued another way is still not taken by the authority (NFC-e: warn near the deadline). */
  contingencyWaiting?(note: Note): Promise<void>;
}

/** Records the final state; with `job`, marks the job done in the same statement. */
async function settle(
  deps: AuthorityDeps,
  family: NoteFamily,
  note: Note,
  r: ReconciledAuthorization,
  before: HistoryLine[],
  job: { id: string; workerId: string } | undefined,
): Promise<void | typeof JOB_COMPLETED> {
  const now = deps.clock.now();
  const code = r.cStat === null ? null : String(r.cStat);
  const rejection = explainAuthorityRejection(r.cStat ?? 0, r.xMotivo ?? '');
  let fields: Settlement['fields'];
  let line: HistoryLine;
  if ((r.status === 'authorized' || r.status === 'canceled') && r.protocol) {
    const info = r.protocol.info;
    fields = {
      status: r.status === 'canceled' ? 'canceled' : 'authorized',
      protocolo: info.nProt,
      authorized_at: parseAuthorityTime(info.dhRecbto) ?? now,
      proc_xml: nfeProcXml(note.signed_xml, r.protocol.protNFeXml),
    };
    line = { type: 'authorized', at: now, code, message: r.xMotivo, protocolo: info.nProt };
  } else if (r.status === 'denied') {
    // A denied note consumes its number (the authority keeps it on record).
    fields = {
      status: 'denied',
      protocolo: r.protocol?.info.nProt ?? null,
      proc_xml: r.protocol ? nfeProcXml(note.signed_xml, r.protocol.protNFeXml) : null,
      rejection,
    };
    line = { type: 'denied', at: now, code, message: r.xMotivo };
  } else {
    fields = { status: 'rejected', rejection };
    line = { type: 'rejected', at: now, code, message: r.xMotivo };
  }
  fields.attempts = note.attempts + 1;
  // A contingency note was printed and handed over before the authority saw it (docs/fiscal/offline-contingency.md): its number
  // is never given to another sale; the webhooks say what became of the contingency.
  const inContingency = note.status === 'contingency';
  // Only the key this settlement owns: the first attempt is another job's (settleNote merges it).
  const contingencyPatch = inContingency && note.contingency ? { transmitted_at: now.toISOString() } : undefined;
  const eventType = inContingency ? `${family.object}.contingency_${line.type === 'authorized' ? 'authorized' : 'failed'}` : `${family.object}.${line.type}`;
  const after = { ...note, ...fields, ...(contingencyPatch ? { contingency: { ...note.contingency!, ...contingencyPatch } } : {}), updated_at: now } as Note;
  await settleAndAnnounce(deps, {
    noteId: note.id,
    from: note.status,
    // The key this job sent: a note switched to contingency meanwhile settles only its new document.
    accessKey: note.access_key,
    fields,
    contingencyPatch,
    history: [...before, line],
    // docs/decisions.md#api-conventions: a rejected number never reached the authority's books; the next sale reuses it -
    // unless the rejection says the number itself is taken (539 another key holds it, 206 voided).
    // An EPEC note's number is in the Ambiente Nacional's books with its EPEC (tpEmis 4, docs/fiscal/epec.md): another sale
    // with that number would meet 692 at the state, so it is never given again, whatever the rejection. An EPEC the AN
    // refused (142, 4xx: `epec` never set, nothing printed, nothing sent to the state) leaves the number in nobody's
    // books, and it goes to the next sale - unless the AN said another key's EPEC holds it (485).
    releaseNumber: fields.status === 'rejected' && !inContingency && (note.tp_emis !== 4 || !note.epec) && !NUMBER_TAKEN.has(r.cStat ?? 0),
    // The refused contingency note's number was printed and cannot go to another sale: it is voided.
    followUp:
      inContingency && fields.status === 'rejected' && family.jobs.contingencyRejected && !NUMBER_TAKEN.has(r.cStat ?? 0)
        ? { kind: family.jobs.contingencyRejected, payload: { noteId: note.id }, dedupeKey: `${family.jobs.contingencyRejected}:${note.id}`, maxAttempts: 10_000 }
        : undefined,
    event: { type: eventType, data: family.present(after, deps.config.publicBaseUrl) },
    // An authorized document (found canceled already counts: it was authorized first) is
    // metered by this same statement, once, keyed by the note's id.
    meterPeriod: fields.status === 'authorized' || fields.status === 'canceled' ? periodOf(now) : undefined,
    now,
    job,
  });
  return job ? JOB_COMPLETED : undefined;
}

async function noteHistory(deps: AuthorityDeps, note: Note, e: { type: string; code?: string | null; message?: string | null }): Promise<void> {
  await addHistory(deps.db, note.id, { ...e, at: deps.clock.now() });
}

function describe(o: { kind: string; cStat?: number | null; xMotivo?: string }): string {
  return [o.kind, o.cStat ?? '', o.xMotivo ?? ''].filter(Boolean).join(' ');
}

/** dhRecbto comes with the authority's offset (e.g. 2026-11-21T10:05:09-03:00). */
function parseAuthorityTime(text: string | null | undefined): Date | null {
  if (!text) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}
