import type { Note, NoteContingency } from '../../notes/domain/note.js';
import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { buildSubstitutionCancellationEvent } from '../../../fiscal/xml/events/cancel-event.js';
import { ApiError } from '../../../kernel/errors.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import type { Job } from '../../../infra/queue/queue.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { addHistory, getNoteForWork, updateNote } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { inutilizeNumbers } from './inutilize-numbers.js';
import { NFCE_MODEL } from './nfce-deps.js';

type FirstAttempt = NonNullable<NoteContingency['first_attempt']>;

const VER_APLIC = 'fiscal-gateway 0.1.0';
// A voiding the authority already holds (256: a number already voided; 563: a request already answered).
const ALREADY_VOIDED = new Set([256, 563]);
// A cancellation the authority already holds (573 duplicate event, 420 already canceled).
const ALREADY_CANCELED = new Set([573, 420]);

/**
 * Job `nfce.first-attempt` (docs/fiscal/offline-contingency.md): the normal-emission attempt of a sale issued
 * again in offline contingency. The authority is consulted by the attempt's key:
 *  - authorized (it got through after all): canceled by substitution, event 110112 naming the contingency
 *    NFC-e (chNFeRef), once that one is authorized (within 168 hours);
 *  - unknown to the authority: its number is voided (inutilization), as a number transmitted in normal
 *    emission may not be reused in contingency.
 * Never two valid notes for one sale, never a number left unexplained. Retried while the authority is down.
 */
export async function settleFirstAttemptJob(deps: AuthorityDeps, job: Job<{ noteId: string }>): Promise<void> {
  const { db, clock } = deps;
  const note = await getNoteForWork(db, job.payload.noteId);
  const attempt = note?.contingency?.first_attempt;
  if (!note || !attempt || attempt.outcome !== 'pending') return;
  const issuer = await findIssuer(db, note.account_id, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(db, deps.secrets, note.account_id, note.issuer_id));
  if (!issuer || !material?.certificate) throw new Error(`issuer ${note.issuer_id} has no certificate`);
  const client = deps.authority.clientFor(material.certificate, note.account_id);
  const tpAmb = note.tp_amb as 1 | 2;
  const target = { uf: issuer.uf, model: NFCE_MODEL, tpAmb };
  const known = await client.consult({ ...target, accessKey: attempt.access_key });
  const wait = (why: string) => new RetryLater(Math.min(300_000, 5_000 * 2 ** Math.min(6, job.attempts - 1)), why);

  if (known.kind === 'not-found') {
    const justification = `Numero nao utilizado: a venda foi emitida em contingencia offline com o numero ${note.number}`;
    const protocolo = await voidOneNumber(deps, note, attempt.serie, attempt.number, justification, job.attempts);
    return settled(deps, note, attempt, 'voided', protocolo);
  }
  if (known.kind === 'canceled') return settled(deps, note, attempt, 'canceled_by_substitution', known.protocol?.info.nProt ?? null);
  if (known.kind !== 'authorized') throw wait(`consultation of the first attempt: ${known.kind}`);

  // The contingency document was refused: the first attempt, authorized after all, is the sale's valid
  // note and stays (never cancel the only valid note of a sale); the record says so, key and protocol.
  if (note.status === 'rejected' || note.status === 'denied') return settled(deps, note, attempt, 'authorized_kept', known.protocol?.info.nProt ?? null);
  // 110112 names the contingency NFC-e, which the authority must know: it waits for its authorization.
  if (note.status !== 'authorized') throw wait('the contingency NFC-e is not authorized yet');
  const now = clock.now();
  const cUF = ufCode(issuer.uf)!;
  const event = buildSubstitutionCancellationEvent(
    {
      cOrgao: cUF, tpAmb, author: { CNPJ: issuer.cnpj }, chNFe: attempt.access_key,
      dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text,
      nSeqEvento: 1, nProt: known.protocol.info.nProt ?? '',
      xJust: 'Venda emitida em contingencia offline enquanto a SEFAZ nao respondia',
      cOrgaoAutor: cUF, verAplic: VER_APLIC, chNFeRef: note.access_key,
    },
    material.certificate,
  );
  const out = await client.sendEvent({ ...target, signedEventXml: event.xml });
  if (out.kind === 'registered' && out.event) return settled(deps, note, attempt, 'canceled_by_substitution', out.event.nProt ?? null);
  const code = 'event' in out && out.event ? out.event.cStat : 'cStat' in out ? out.cStat : null;
  if (code !== null && ALREADY_CANCELED.has(code)) return settled(deps, note, attempt, 'canceled_by_substitution', null);
  await addHistory(db, note.id, { type: 'first_attempt_cancel_pending', at: now, code: code === null ? null : String(code), message: `110112 not registered yet (${out.kind})` });
  throw wait(`110112 ${out.kind}`);
}

/**
 * Voids (inutilizes) one number of the note's issuer (docs/fiscal/offline-contingency.md: a number that will hold no note is
 * explained to the authority). Answers the protocol; a voiding the authority already holds counts.
 * Throws RetryLater while the authority is unavailable or refuses.
 */
export async function voidOneNumber(deps: AuthorityDeps, note: Note, serie: number, number: number, justification: string, attempts: number): Promise<string | null> {
  const wait = (why: string) => new RetryLater(Math.min(300_000, 5_000 * 2 ** Math.min(6, attempts - 1)), why);
  try {
    const record = await inutilizeNumbers(deps, note.account_id, note.issuer_id, { serie, numero_inicial: number, numero_final: number, justification });
    const code = record.rejection ? Number(record.rejection.code) : null;
    if (record.status === 'voided' || (code !== null && ALREADY_VOIDED.has(code))) return record.protocolo ?? null;
    await addHistory(deps.db, note.id, { type: 'number_void_rejected', at: deps.clock.now(), code: record.rejection?.code ?? null, message: `number ${number}: ${record.rejection?.message ?? ''}` });
    throw wait(`voiding number ${number} refused: ${record.rejection?.code}`);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'authority_unavailable') throw wait('authority unavailable for the voiding');
    throw err;
  }
}

async function settled(deps: AuthorityDeps, note: Note, attempt: FirstAttempt, outcome: FirstAttempt['outcome'], protocolo: string | null): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, note.id, true);
    const current = locked?.contingency;
    if (!locked || !current?.first_attempt || current.first_attempt.outcome !== 'pending') return;
    const contingency: NoteContingency = { ...current, first_attempt: { ...current.first_attempt, outcome, protocolo, settled_at: now.toISOString() } };
    await updateNote(tx, note.id, { contingency }, now);
    await addHistory(tx, note.id, {
      type: outcome === 'voided' ? 'first_attempt_voided' : outcome === 'authorized_kept' ? 'first_attempt_kept' : 'first_attempt_canceled',
      at: now,
      code: outcome === 'canceled_by_substitution' ? '110112' : null,
      message: outcome === 'voided'
        ? `number ${attempt.number} of the first attempt voided (inutilization ${protocolo ?? ''})`.trim()
        : outcome === 'authorized_kept'
          ? `the contingency document was refused, but the first attempt (${attempt.access_key}, protocol ${protocolo ?? '?'}) is authorized: it is the sale's valid NFC-e`
          : `the first attempt (${attempt.access_key}) had been authorized: canceled by substitution`,
      protocolo,
    });
  });
}
