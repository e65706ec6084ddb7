import type { Note } from '../../notes/domain/note.js';
import { isValidNfseKey } from '../../../fiscal/xml/nfse/dps-id.js';
import type { NfseApiClient, NfseApiMessage } from '../../../fiscal/nfse-api/nfse-api-types.js';
import { JOB_COMPLETED, RetryLater } from '../../../infra/queue/runner.js';
import type { Job } from '../../../infra/queue/queue.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { addHistory, getNoteWithIssuer } from '../../notes/storage/note-repository.js';
import type { HistoryLine, Settlement } from '../../notes/storage/note-settlement.js';
import { settleAndAnnounce } from '../../notes/services/settle-and-announce.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { periodOf } from '../../../platform/billing/period.js';
import { explainNfseRejection } from '../domain/nfse-rejection.js';
import { NFSE_FAMILY } from './nfse-family.js';
import { settleSubstitutedOriginal } from './substituted-original.js';

type Done = { id: string; workerId: string } | undefined;

/**
 * Worker step for one DPS: POST /nfse and record the outcome. Safe to run again after
 * a crash or a lost answer: from the second attempt on Sefin is asked for the DPS Id first
 * (GET /dps/{id}, docs/fiscal/nfse-national.md#dps) and an NFS-e it already generated is fetched, never a second DPS sent.
 * A 429 waits what Retry-After says (docs/fiscal/nfse-national.md#hosts-and-transport).
 */
export async function authorizeNfseJob(deps: AuthorityDeps, job: Job<{ noteId: string }>, workerId?: string): Promise<void | typeof JOB_COMPLETED> {
  const found = await getNoteWithIssuer(deps.db, job.payload.noteId);
  if (!found || found.note.status !== 'processing') return;
  const { note, issuer } = found;
  const done: Done = workerId ? { id: job.id, workerId } : undefined;
  const material = await loadIssuerSigningMaterial(deps.db, deps.secrets, note.account_id, note.issuer_id, issuer);
  if (!material?.certificate) throw new Error(`issuer ${note.issuer_id} has no certificate for NFS-e ${note.id}`);
  const client = deps.authority.nfseClientFor(material.certificate, note.tp_amb as 1 | 2, note.account_id);
  // The sandbox scenario applies to the first transmission only; the recovery must see the real state.
  const scenario = job.attempts === 1 && note.scenario && deps.authority.options.scenariosAllowed ? note.scenario : undefined;

  if (job.attempts > 1) {
    const known = await client.lookupDps(note.access_key);
    await line(deps, note, { type: 'consulted', code: null, message: `DPS ${note.access_key}: ${known.kind}${known.kind === 'found' ? ` (NFS-e ${known.accessKey})` : ''}` });
    if (known.kind === 'found') return recover(deps, client, note, known.accessKey, done);
    if (known.kind === 'throttled') throw new RetryLater(known.retryAfterMs, 'Sefin asked to wait (429)');
    if (known.kind !== 'not-found') throw new RetryLater(retryDelay(job.attempts), `DPS lookup inconclusive: ${describe(known)}`);
  }
  const transmitted: HistoryLine = { type: 'transmitted', at: deps.clock.now(), message: `DPS sent to Sefin Nacional (attempt ${job.attempts})` };
  const out = await client.issue(note.signed_xml, { scenario });
  switch (out.kind) {
    case 'authorized':
      if (!isValidNfseKey(out.accessKey) || !out.nfseXml.includes(`NFS${out.accessKey}`)) {
        await addHistory(deps.db, note.id, transmitted);
        throw new RetryLater(retryDelay(job.attempts), `Sefin answered 201 with an unusable key ${out.accessKey}; the DPS is looked up next`);
      }
      return settleAuthorized(deps, client, note, out.accessKey, out.nfseXml, out.alerts, [transmitted], done);
    case 'rejected': {
      // E0014: this DPS (series, number, place, provider) already generated an NFS-e: ours, sent by an
      // attempt whose answer was lost. Fetch it instead of rejecting the sale.
      if (out.errors.some((e) => e.code.toUpperCase() === 'E0014')) {
        await addHistory(deps.db, note.id, transmitted);
        const known = await client.lookupDps(note.access_key);
        if (known.kind === 'found') return recover(deps, client, note, known.accessKey, done);
      }
      return settleRejected(deps, note, out.errors, [transmitted], done);
    }
    case 'throttled':
      await addHistory(deps.db, note.id, transmitted);
      await line(deps, note, { type: 'authority_throttled', code: '429', message: `Sefin asked to wait ${Math.ceil(out.retryAfterMs / 1000)} s (Retry-After)` });
      throw new RetryLater(out.retryAfterMs, 'Sefin asked to wait (429)');
    case 'unavailable':
      await addHistory(deps.db, note.id, transmitted);
      await line(deps, note, { type: out.inDoubt ? 'authority_in_doubt' : 'authority_unavailable', code: out.status ? String(out.status) : null, message: out.reason });
      throw new RetryLater(retryDelay(job.attempts), `Sefin ${out.inDoubt ? 'in doubt' : 'unavailable'}: ${out.reason}`);
  }
}

/** The NFS-e Sefin generated from this DPS earlier (found by its DPS Id or E0014), fetched and recorded. */
async function recover(deps: AuthorityDeps, client: NfseApiClient, note: Note, accessKey: string, done: Done): Promise<void | typeof JOB_COMPLETED> {
  const fetched = await client.fetchNfse(accessKey);
  if (fetched.kind === 'throttled') throw new RetryLater(fetched.retryAfterMs, 'Sefin asked to wait (429)');
  if (fetched.kind !== 'found') throw new RetryLater(5_000, `NFS-e ${accessKey} not fetched yet: ${describe(fetched)}`);
  return settleAuthorized(deps, client, note, accessKey, fetched.nfseXml, [], [], done, 'recovered');
}

async function settleAuthorized(
  deps: AuthorityDeps,
  client: NfseApiClient,
  note: Note,
  accessKey: string,
  nfseXml: string,
  alerts: NfseApiMessage[],
  before: HistoryLine[],
  done: Done,
  via: 'answer' | 'recovered' = 'answer',
): Promise<void | typeof JOB_COMPLETED> {
  const now = deps.clock.now();
  const processed = /<dhProc>([^<]+)<\/dhProc>/.exec(nfseXml)?.[1];
  const fields: Settlement['fields'] = {
    status: 'authorized',
    authorized_at: processed && !Number.isNaN(Date.parse(processed)) ? new Date(processed) : now,
    proc_xml: nfseXml,
    nfse_key: accessKey,
    nfse_number: /<nNFSe>([0-9]+)<\/nNFSe>/.exec(nfseXml)?.[1] ?? null,
    attempts: note.attempts + 1,
  };
  const alertText = alerts.map((a) => `${a.code} ${a.description}`.trim()).join('; ');
  const history: HistoryLine[] = [
    ...before,
    { type: 'authorized', at: now, code: '201', message: `NFS-e ${fields.nfse_number ?? ''} authorized${via === 'recovered' ? ' (recovered by its DPS Id)' : ''}${alertText ? `; alerts: ${alertText}` : ''}`, protocolo: accessKey },
  ];
  // A substitute's original is canceled by Sefin with it (105102, docs/fiscal/nfse-national.md#events); recorded first, idempotently,
  // so a crash between the two leaves this job to finish both.
  const substitutes = (note.request as { substitutes?: { nfse_id: string; reason_code: string; reason?: string } }).substitutes;
  if (substitutes) await settleSubstitutedOriginal(deps, note, substitutes, accessKey, client);
  return finish(deps, note, fields, history, false, done);
}

async function settleRejected(deps: AuthorityDeps, note: Note, errors: NfseApiMessage[], before: HistoryLine[], done: Done): Promise<void | typeof JOB_COMPLETED> {
  const now = deps.clock.now();
  const rejection = explainNfseRejection(errors);
  const fields: Settlement['fields'] = { status: 'rejected', rejection, attempts: note.attempts + 1 };
  // A refused DPS generated no NFS-e (E0014 is about NFS-e generated): its number goes to the next sale.
  return finish(deps, note, fields, [...before, { type: 'rejected', at: now, code: rejection.code, message: rejection.message }], true, done);
}

async function finish(
  deps: AuthorityDeps,
  note: Note,
  fields: Settlement['fields'],
  history: HistoryLine[],
  releaseNumber: boolean,
  done: Done,
): Promise<void | typeof JOB_COMPLETED> {
  const now = deps.clock.now();
  const after = { ...note, ...fields, updated_at: now } as Note;
  await settleAndAnnounce(deps, {
    noteId: note.id,
    from: 'processing',
    fields,
    history,
    releaseNumber,
    event: { type: `nfse.${fields.status}`, data: NFSE_FAMILY.present(after, deps.config.publicBaseUrl) },
    // An authorized NFS-e is metered by this same statement, once, keyed by the note's id.
    meterPeriod: fields.status === 'authorized' ? periodOf(now) : undefined,
    now,
    job: done,
  });
  return done ? JOB_COMPLETED : undefined;
}

async function line(deps: AuthorityDeps, note: Note, e: { type: string; code?: string | null; message?: string | null }): Promise<void> {
  await addHistory(deps.db, note.id, { ...e, at: deps.clock.now() });
}

/** Backoff for an unavailable authority: 1, 2, 4 ... s, at most one minute apart. */
function retryDelay(attempt: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.min(6, attempt - 1));
}

function describe(o: { kind: string; reason?: string; status?: number; errors?: NfseApiMessage[] }): string {
  return [o.kind, o.status ?? '', o.reason ?? '', ...(o.errors ?? []).map((e) => e.code)].filter(Boolean).join(' ');
}
