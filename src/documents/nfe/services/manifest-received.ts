import { buildManifestationEvent, buildProcEventoNFe, CONCLUSIVE_MANIFESTATIONS, justificationProblem, type ManifestationType } from '../../../fiscal/xml/events/index.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { ApiError, notFound } from '../../../kernel/errors.js';
import { newId } from '../../../kernel/ids.js';
import { enqueueJob, type Job } from '../../../infra/queue/queue.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import { assertCertificateCurrent, loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { getNfeEvent, insertNfeEvent, settleNfeEvent } from '../storage/nfe-event-repository.js';
import { getReceived, setManifestation, upsertReceived, type ReceivedManifestation, type ReceivedRow } from '../storage/nfe-received-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';

export const MANIFEST_JOB = 'nfe.manifest';

/** The API's names of the recipient's manifestations (docs/fiscal/nfe-model-55.md#recipient-manifestation; e2102xx). */
export const MANIFESTATIONS: Readonly<Record<string, ManifestationType>> = {
  confirmacao: '210200',
  ciencia: '210210',
  desconhecimento: '210220',
  nao_realizada: '210240',
};
// docs/fiscal/nfe-model-55.md#recipient-manifestation: each conclusive event at most twice; within 180 days of the authorization.
const MAX_CONCLUSIVE = 2;
const WINDOW_DAYS = 180;

/**
 * POST /v1/nfe/:id/manifestation on a received NF-e: checked here (type, justification, the limits
 * of docs/fiscal/nfe-model-55.md#recipient-manifestation), signed with the recipient's certificate and sent by a job to the national
 * environment (cOrgao 91). After a confirmation or an awareness the full XML becomes downloadable.
 */
export async function requestManifestation(
  deps: AuthorityDeps,
  accountId: string,
  id: string,
  input: { type: keyof typeof MANIFESTATIONS; justification?: string },
): Promise<ReceivedRow> {
  const { db, clock } = deps;
  const received = await getReceived(db, accountId, id);
  if (!received) throw notFound('received NF-e');
  const tpEvento = MANIFESTATIONS[input.type]!;
  if (tpEvento === '210240' && !input.justification) {
    throw new ApiError('validation_error', 'justification is required for nao_realizada (210240)', [{ field: 'justification', message: 'is required for nao_realizada' }]);
  }
  if (input.justification !== undefined) {
    if (tpEvento !== '210220' && tpEvento !== '210240') throw new ApiError('validation_error', 'justification is accepted only by desconhecimento and nao_realizada', [{ field: 'justification', message: 'not accepted for this type' }]);
    const bad = justificationProblem(input.justification, 'justification');
    if (bad) throw new ApiError('validation_error', `justification ${bad.message}`, [bad]);
  }
  const now = clock.now();
  const issued = received.issued_at ? new Date(received.issued_at) : null;
  if (issued && now.getTime() - issued.getTime() > WINDOW_DAYS * 86_400_000) {
    throw new ApiError('invalid_state', `The manifestation period of this NF-e ended ${WINDOW_DAYS} days after it was issued (${received.issued_at})`);
  }
  const sent = received.manifestation?.sent ?? [];
  if (sent.some((m) => m.status === 'pending')) throw new ApiError('invalid_state', 'A manifestation of this NF-e is still being sent; wait for it');
  if (CONCLUSIVE_MANIFESTATIONS.has(tpEvento) && sent.filter((m) => m.type === input.type && m.status === 'registered').length >= MAX_CONCLUSIVE) {
    throw new ApiError('invalid_state', `${input.type} was already registered ${MAX_CONCLUSIVE} times for this NF-e, the most the rules allow`);
  }
  const issuer = await findIssuer(db, accountId, received.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, accountId, received.issuer_id));
  if (!issuer || !material?.certificate) throw new ApiError('issuer_not_ready', 'The recipient has no certificate to sign the manifestation', [{ field: 'certificate', message: 'missing' }]);
  assertCertificateCurrent(material.certificate, now, 'a manifestation');
  // nSeqEvento: 1, or 2 for the second of a conclusive type (the AN keeps both; the last counts).
  const sequence = sent.filter((m) => m.type === input.type && m.status === 'registered').length + 1;
  const event = buildManifestationEvent(
    {
      tpEvento, tpAmb: issuer.ambiente === 'producao' ? 1 : 2, author: { CNPJ: issuer.cnpj }, chNFe: received.access_key, nSeqEvento: sequence,
      dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text,
      ...(input.justification !== undefined ? { xJust: input.justification } : {}),
    },
    material.certificate,
  );
  const eventId = newId('evt');
  await db.transaction(async (tx) => {
    const locked = (await getReceived(tx, accountId, id, true))!;
    if ((locked.manifestation?.sent ?? []).some((m) => m.status === 'pending')) throw new ApiError('invalid_state', 'A manifestation of this NF-e is still being sent; wait for it');
    await insertNfeEvent(tx, {
      id: eventId, account_id: accountId, issuer_id: received.issuer_id, access_key: received.access_key, note_id: null, tp_evento: tpEvento,
      n_seq: sequence, status: 'pending', detail: { received_id: id, type: input.type, ...(input.justification !== undefined ? { justification: input.justification } : {}) }, event_xml: event.xml, created_at: now,
    });
    const m: ReceivedManifestation = {
      current: locked.manifestation?.current ?? null,
      sent: [...(locked.manifestation?.sent ?? []), { type: input.type, status: 'pending', requested_at: now.toISOString(), protocolo: null, rejection: null, event_id: eventId }],
    };
    await setManifestation(tx, id, m, now);
    await enqueueJob(tx, MANIFEST_JOB, { eventId }, { runAt: now, now, dedupeKey: `manifest:${eventId}`, maxAttempts: 10_000 });
  });
  deps.wakeWorker();
  return (await getReceived(db, accountId, id))!;
}

/** Worker step: send the manifestation to the AN; a registered confirmation or awareness fetches the full XML. */
export async function manifestationJob(deps: AuthorityDeps, job: Job<{ eventId: string }>): Promise<void> {
  const { db, clock } = deps;
  const ev = await getNfeEvent(db, job.payload.eventId);
  if (!ev || ev.status !== 'pending') return;
  const receivedId = String(ev.detail.received_id);
  const issuer = await findIssuer(db, ev.account_id, ev.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, ev.account_id, ev.issuer_id));
  if (!issuer || !material?.certificate) throw new Error(`issuer ${ev.issuer_id} has no certificate`);
  const client = deps.authority.clientFor(material.certificate, ev.account_id);
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;
  const outcome = await client.sendNationalEvent({ tpAmb, signedEventXml: ev.event_xml });
  if (outcome.kind === 'timeout' || outcome.kind === 'unavailable' || outcome.kind === 'unknown') {
    throw new RetryLater(Math.min(60_000, 1000 * 2 ** Math.min(6, job.attempts - 1)), `manifestation ${outcome.kind}`);
  }
  const answer = outcome.event;
  const now = clock.now();
  const registered = outcome.kind === 'registered' && answer;
  await db.transaction(async (tx) => {
    const rejection = registered ? null : { code: String(answer?.cStat ?? outcome.cStat), message: answer?.xMotivo ?? outcome.xMotivo };
    const settled = await settleNfeEvent(tx, ev.id, registered
      ? { status: 'registered', protocolo: answer.nProt, proc_xml: buildProcEventoNFe(ev.event_xml, answer.retEventoXml) }
      : { status: 'rejected', rejection }, now);
    if (!settled) return;
    const row = (await getReceived(tx, ev.account_id, receivedId, true))!;
    const sent = (row.manifestation?.sent ?? []).map((m) => m.event_id === ev.id
      ? { ...m, status: registered ? ('registered' as const) : ('rejected' as const), protocolo: registered ? answer.nProt : null, rejection }
      : m);
    const current = registered ? { type: String(ev.detail.type), protocolo: answer.nProt ?? '', registered_at: now.toISOString() } : (row.manifestation?.current ?? null);
    await setManifestation(tx, receivedId, { current, sent }, now);
  });
  if (registered && (ev.tp_evento === '210200' || ev.tp_evento === '210210')) await fetchFullXml(deps, ev.account_id, receivedId);
}

/** docs/fiscal/nfe-model-55.md#recipient-manifestation, docs/fiscal/nfe-model-55.md#distribution-and-throttling: after 210200/210210 the AN distributes the nfeProc; asked for by key (consChNFe). */
async function fetchFullXml(deps: AuthorityDeps, accountId: string, receivedId: string): Promise<void> {
  const row = await getReceived(deps.db, accountId, receivedId);
  if (!row || row.proc_xml) return;
  const issuer = (await findIssuer(deps.db, accountId, row.issuer_id))!;
  const material = (await loadIssuerSigningMaterial(deps.db, deps.secrets, accountId, row.issuer_id))!;
  const client = deps.authority.clientFor(material.certificate!, accountId);
  const answer = await client.distribute({ interested: { CNPJ: issuer.cnpj }, tpAmb: issuer.ambiente === 'producao' ? 1 : 2, query: { chNFe: row.access_key } });
  // Anything but the document (656, unavailable) leaves it to the next scheduled download by NSU.
  if (answer.kind !== 'documents') return;
  const proc = answer.documents.find((d) => d.summary?.kind === 'procNFe' && d.summary.accessKey === row.access_key && d.xml);
  if (!proc) return;
  await upsertReceived(deps.db, { id: row.id, account_id: accountId, issuer_id: row.issuer_id, access_key: row.access_key, nsu: proc.nsu, proc_xml: proc.xml }, deps.clock.now());
}
