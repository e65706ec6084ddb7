import { distributionWaitMs, nextDistribution } from '../../../fiscal/sefaz/distribution-pacing.js';
import type { DistributedDocument } from '../../../fiscal/sefaz/distribution.js';
import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { ApiError } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { enqueueJob, type Job } from '../../../infra/queue/queue.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import type { Queryable } from '../../../infra/storage/db.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import type { RegisteredIssuer } from '../../../kernel/issuer.js';
import { getCursor, getReceived, issuersWithCertificate, saveCursor, upsertReceived } from '../storage/nfe-received-repository.js';
import { recordEvent } from '../../../infra/storage/repositories/outbox-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { presentReceived } from './present-received.js';

export const RECEIVED_SYNC_JOB = 'nfe.received-sync';
export const RECEIVED_SWEEP_JOB = 'nfe.received-sweep';
// Pages of 50 documents fetched in one run before the job yields to others.
const PAGES_PER_RUN = 20;
const HOUR_MS = 3_600_000;

/** Queues an issuer's download at `at` (once: the key names the moment, so two chains collapse into one). */
export async function scheduleReceivedSync(db: Queryable, issuerId: string, at: Date, now: Date): Promise<void> {
  const runAt = at < now ? now : at;
  await enqueueJob(db, RECEIVED_SYNC_JOB, { issuerId }, { runAt, now, dedupeKey: `received-sync:${issuerId}:${runAt.toISOString()}`, maxAttempts: 50 });
}

/**
 * The hourly sweep: every issuer with a certificate whose next download is due (or that never
 * downloaded) gets its job; then the next sweep is queued. New issuers are picked up within the hour.
 */
export async function receivedSweepJob(deps: Pick<AuthorityDeps, 'db' | 'clock' | 'wakeWorker'>, job: Job<{ hour: string }>): Promise<void> {
  const now = deps.clock.now();
  for (const i of await issuersWithCertificate(deps.db)) {
    if (!i.next_at || i.next_at <= now) await enqueueJob(deps.db, RECEIVED_SYNC_JOB, { issuerId: i.id }, { runAt: now, now, dedupeKey: `received-sync:${i.id}:sweep:${job.payload.hour}`, maxAttempts: 50 });
  }
  await scheduleReceivedSweep(deps.db, new Date(Date.parse(job.payload.hour) + HOUR_MS), now);
  deps.wakeWorker();
}

export async function scheduleReceivedSweep(db: Queryable, at: Date, now: Date): Promise<void> {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  await enqueueJob(db, RECEIVED_SWEEP_JOB, { hour: hour.toISOString() }, { runAt: hour < now ? now : hour, now, dedupeKey: `received-sweep:${hour.toISOString()}`, maxAttempts: 10 });
}

/** POST /v1/nfe/received/sync: asks for the issuer's download now, or says when the consumption rule allows it. */
export async function requestReceivedSync(deps: Pick<AuthorityDeps, 'db' | 'clock' | 'wakeWorker'>, accountId: string, issuerId: string): Promise<{ next_at: string }> {
  const issuer = await findIssuer(deps.db, accountId, issuerId);
  if (!issuer) throw new ApiError('validation_error', `issuer_id ${issuerId} is not an issuer of this account`, [{ field: 'issuer_id', message: 'no issuer with this id' }]);
  const now = deps.clock.now();
  const cursor = await getCursor(deps.db, issuerId);
  const at = cursor && cursor.next_at > now ? cursor.next_at : now;
  await scheduleReceivedSync(deps.db, issuerId, at, now);
  deps.wakeWorker();
  return { next_at: at.toISOString() };
}

/** The issuers columns the download reads (the row as stored: no certificate or CSC joined). */
type SyncIssuer = Pick<RegisteredIssuer, 'id' | 'account_id' | 'cnpj' | 'uf' | 'ambiente'>;

/**
 * Downloads the documents addressed to one issuer by NSU (NFeDistribuicaoDFe), obeying the
 * consumption rule (NT 2014.002, docs/fiscal/nfe-model-55.md#distribution-and-throttling): in sequence from the last NSU received, and after a
 * 137 or once ultNSU reaches maxNSU, not again for an hour. Documents and the cursor are stored in
 * one transaction per page, so a crash repeats a page (in sequence) and never skips one.
 */
export async function receivedSyncJob(deps: AuthorityDeps, job: Job<{ issuerId: string }>): Promise<void> {
  const { db, clock } = deps;
  const issuer = (await db.query<SyncIssuer>('SELECT * FROM issuers WHERE id = $1', [job.payload.issuerId])).rows[0];
  if (!issuer) return;
  const material = await loadIssuerSigningMaterial(db, deps.secrets, issuer.account_id, issuer.id);
  if (!material?.certificate) return; // no certificate, no download: the sweep tries again once one is uploaded
  const client = deps.authority.clientFor(material.certificate, issuer.account_id);
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;
  for (let page = 0; page < PAGES_PER_RUN; page++) {
    const now = clock.now();
    // The cursor holds the next ultNSU to ask from and the earliest moment the rule allows it.
    const cursor = await getCursor(db, issuer.id);
    if (cursor && cursor.next_at > now) return scheduleReceivedSync(db, issuer.id, cursor.next_at, now);
    const ultNSU = cursor?.ult_nsu ?? nextDistribution(null).ultNSU;
    const answer = await client.distribute({ interested: { CNPJ: issuer.cnpj }, cUFAutor: ufCode(issuer.uf) ?? undefined, tpAmb, query: { ultNSU } });
    if (answer.kind === 'timeout' || answer.kind === 'unavailable' || answer.kind === 'unknown') {
      throw new RetryLater(Math.min(HOUR_MS, 60_000 * 2 ** Math.min(6, job.attempts - 1)), `distribution ${answer.kind}`);
    }
    const at = clock.now();
    const following = nextDistribution({ cStat: answer.cStat, askedUltNSU: ultNSU, ultNSU: answer.ultNSU || ultNSU, maxNSU: answer.maxNSU || ultNSU, at });
    const created = await db.transaction(async (tx) => {
      let fresh = 0;
      if (answer.kind === 'documents') for (const d of answer.documents) if (await fileDocument(tx, issuer, d, at, deps.config.publicBaseUrl)) fresh++;
      await saveCursor(tx, { issuer_id: issuer.id, ult_nsu: following.ultNSU, max_nsu: answer.maxNSU || ultNSU, last_cstat: answer.cStat, next_at: following.notBefore }, at);
      return fresh;
    });
    if (created > 0) deps.wakeWorker();
    if (distributionWaitMs(following, clock.now()) > 0) return scheduleReceivedSync(db, issuer.id, following.notBefore, clock.now());
  }
  await scheduleReceivedSync(db, issuer.id, clock.now(), clock.now());
}

/** One distributed document filed under its note; true when the note was new (webhook nfe.received). */
async function fileDocument(tx: Queryable, issuer: SyncIssuer, d: DistributedDocument, at: Date, baseUrl: string): Promise<boolean> {
  const s = d.summary;
  if (!s || !d.xml) return false;
  const base = { id: newId('nfer'), account_id: issuer.account_id, issuer_id: issuer.id, access_key: s.accessKey, nsu: d.nsu };
  let filed: { id: string; created: boolean };
  if (s.kind === 'resNFe') {
    const party = 'CNPJ' in s.issuer ? s.issuer.CNPJ : s.issuer.CPF;
    filed = await upsertReceived(tx, { ...base, issuer_cnpj: party, issuer_name: s.issuerName, issued_at: s.dhEmi, total: s.vNF, situation: SITUATION[s.cSitNFe], summary_xml: d.xml }, at);
  } else if (s.kind === 'procNFe') {
    const party = s.issuer && ('CNPJ' in s.issuer ? s.issuer.CNPJ : s.issuer.CPF);
    filed = await upsertReceived(tx, { ...base, issuer_cnpj: party ?? null, issuer_name: s.issuerName, issued_at: s.dhEmi, total: s.vNF, proc_xml: d.xml, situation: 'authorized' }, at);
  } else if ((s.kind === 'resEvento' || s.kind === 'procEventoNFe') && s.tpEvento === '110111') {
    filed = await upsertReceived(tx, { ...base, situation: 'canceled' }, at);
  } else {
    return false;
  }
  if (filed.created) {
    const row = (await getReceived(tx, issuer.account_id, filed.id))!;
    await recordEvent(tx, { accountId: issuer.account_id, type: 'nfe.received', subjectType: 'nfe_received', subjectId: filed.id, data: presentReceived(row, baseUrl), at });
  }
  return filed.created;
}

const SITUATION: Record<'1' | '2' | '3', string> = { '1': 'authorized', '2': 'denied', '3': 'canceled' };

