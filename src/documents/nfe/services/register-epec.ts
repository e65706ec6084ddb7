import type { Note, NoteEpec } from '../../notes/domain/note.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import type { SefazClient } from '../../../fiscal/sefaz/sefaz-client.js';
import { buildEpecEvent, buildProcEventoNFe, EPEC_CORGAO, epecSummaryOfNfe } from '../../../fiscal/xml/events/index.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import type { Job } from '../../../infra/queue/queue.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import type { IssuerForEmission } from '../../../kernel/issuer.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { addHistory, updateNoteIf } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { noteSettled } from '../../notes/services/note-settled.js';
import { epecOfConsultation, recordEpec } from './epec-record.js';
import { NFE_MODEL } from './nfe-deps.js';
import { VER_APLIC } from './reform-event-nfe.js';

/** What became of the EPEC step of an NF-e's authorization job. */
export type EpecStep = { kind: 'none' } | { kind: 'registered'; note: Note } | { kind: 'rejected'; cStat: number | null; xMotivo: string };

/** The EPEC is at the Ambiente Nacional, its protocol not known yet (NoteEpec). */
const HELD_UNKNOWN: NoteEpec = { protocol: null, registered_at: null, proc_xml: null };

/**
 * docs/fiscal/epec.md: an NF-e issued with tpEmis 4 has its EPEC (110140) registered at the Ambiente
 * Nacional (cOrgao 91) before anything else; only then is the note itself sent to its state (NT 2014.001
 * 3.1), now or on the job's retries while the state is down. The summary is read from the signed note, so
 * the state's comparison (MOC 2AB08-30) finds exactly what the EPEC holds. An AN that does not answer is
 * asked again later (RetryLater); an AN refusal ends the note as rejected with the AN's cStat.
 */
export async function registerEpecFirst(deps: AuthorityDeps, note: Note, job: Job<{ noteId: string }>): Promise<EpecStep> {
  if (note.model !== NFE_MODEL || note.tp_emis !== 4 || note.epec?.protocol || note.status !== 'processing') return { kind: 'none' };
  const issuer = await findIssuerForEmission(deps.db, note.account_id, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(deps.db, deps.secrets, note.account_id, note.issuer_id, issuer));
  if (!issuer || !material?.certificate) throw new Error(`issuer ${note.issuer_id} has no certificate for the EPEC of note ${note.id}`);
  const client = deps.authority.clientFor(material.certificate, note.account_id);
  // Held by the AN with its protocol unknown: never sent again (it would only meet 573 again); the state is asked.
  if (note.epec) return recoverProtocol(deps, client, issuer, note);
  const summary = epecSummaryOfNfe(note.signed_xml);
  if (!summary) throw new Error(`note ${note.id} lacks a field its EPEC summarizes`);
  const now = deps.clock.now();
  const tpAmb = note.tp_amb as 1 | 2;
  const author = issuer.cnpj.length === 14 ? { CNPJ: issuer.cnpj } : { CPF: issuer.cnpj };
  const event = buildEpecEvent({
    ...summary, cOrgao: EPEC_CORGAO, tpAmb, author, nSeqEvento: 1, verAplic: VER_APLIC,
    dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text,
  }, material.certificate);
  const outcome = await client.sendNationalEvent({ tpAmb, signedEventXml: event.xml });
  if (outcome.kind === 'timeout' || outcome.kind === 'unavailable' || outcome.kind === 'unknown') {
    await addHistory(deps.db, note.id, { type: 'authority_unavailable', at: now, message: `EPEC not confirmed by the Ambiente Nacional: ${outcome.kind}` });
    throw new RetryLater(Math.min(60_000, 1000 * 2 ** Math.min(6, job.attempts - 1)), `EPEC ${outcome.kind}`);
  }
  const answer = outcome.event;
  // NT 2014.001 3.10: a registered EPEC answers 136 (registered, not linked to an NF-e).
  if (outcome.kind === 'registered' && answer?.nProt) {
    const epec = { protocol: answer.nProt, registered_at: answer.dhRegEvento ?? now.toISOString(), proc_xml: buildProcEventoNFe(event.xml, answer.retEventoXml) };
    const row = await recordEpec(deps, note, epec, { code: String(answer.cStat), message: `EPEC registered at the Ambiente Nacional: ${answer.xMotivo}` });
    return row ? { kind: 'registered', note: row } : { kind: 'none' };
  }
  const cStat = answer?.cStat ?? outcome.cStat ?? null;
  const said = answer?.xMotivo ?? outcome.xMotivo;
  // 573 (the same event Id is registered, NT 2014.001 3.8 3P15-10): the Id is "ID" + 110140 + this key + 01 (P07-10,
  // nSeqEvento always 1 by P15-10), so an earlier try of this very job was registered and its answer lost. The note
  // keeps its number, since releasing it would leave an EPEC without its note (142 after 168 h), and is marked as
  // held by the AN so that no later try sends the EPEC again; its protocol is asked of the state (124, NT 5.6), now
  // or on a later try. The note then goes to the state, which compares it with the EPEC (MOC 2AB08-10..40).
  if (cStat === 573) return holdAtAn(deps, client, issuer, note, cStat, said, now);
  // 485 (3P12-10, an EPEC holds this model/UF/CNPJ/series/number): the generic rules of 3.8, 573 among them, come
  // before the EPEC's own (3.9), so an EPEC of this very key would have met 573; 485 says the number's EPEC is another
  // key's (docs/fiscal/epec.md#another-key-holds-the-number). The state's consultation of this key is asked once all
  // the same: 124 with this key's EPEC proves it ours. Otherwise the note ends rejected and is never sent to the
  // state (it would only meet 691 there); its number stays taken (an NF-e of it must be the other EPEC's, 2AB08-20).
  if (cStat === 485) {
    const ours = await recoverProtocol(deps, client, issuer, note).catch(() => ({ kind: 'none' as const }));
    if (ours.kind === 'registered') return ours;
    return { kind: 'rejected', cStat, xMotivo: `EPEC refused by the Ambiente Nacional: ${said} [another access key's EPEC holds series ${note.serie} number ${note.number}]` };
  }
  // 142 (2P10-10): the answer lists the keys of up to 50 EPEC pending conciliation (chNFePend, NT 3.9 (*4), 3.3 R32),
  // the notes whose transmission to the state lifts the block (NT 4); the rejection names them.
  const pending = answer?.pendingKeys ?? [];
  if (cStat === 142 && pending.length > 0) {
    return { kind: 'rejected', cStat, xMotivo: `EPEC refused by the Ambiente Nacional: ${said} [chNFePend: ${pending.join(', ')}]` };
  }
  return { kind: 'rejected', cStat, xMotivo: `EPEC refused by the Ambiente Nacional: ${said}` };
}

/** 573: the EPEC of this key is at the AN (an earlier answer was lost); kept as held there, its protocol asked of the state. */
async function holdAtAn(deps: AuthorityDeps, client: SefazClient, issuer: IssuerForEmission, note: Note, cStat: number, said: string, now: Date): Promise<EpecStep> {
  const held = await deps.db.transaction(async (tx) => {
    const row = await updateNoteIf(tx, note.id, 'processing', { epec: HELD_UNKNOWN }, now);
    if (row) await addHistory(tx, note.id, { type: 'epec_registered', at: now, code: String(cStat), message: `EPEC already at the Ambiente Nacional (an earlier answer was lost): ${said}` });
    return row;
  });
  if (!held) return { kind: 'none' };
  noteSettled.emit(note.id);
  return recoverProtocol(deps, client, issuer, { ...note, epec: HELD_UNKNOWN });
}

/**
 * NT 2014.001 5.6: the state's consultation of a key that has only its EPEC answers 124 "EPEC Autorizado" with
 * the EPEC's event (the AN shares it with the state, 6.1). The protocol read there is recorded; a state that
 * does not answer (it is down: the reason for the EPEC) leaves it unknown until a later try.
 */
async function recoverProtocol(deps: AuthorityDeps, client: SefazClient, issuer: IssuerForEmission, note: Note): Promise<EpecStep> {
  const known = await client.consult({ uf: issuer.uf, model: NFE_MODEL, tpAmb: note.tp_amb as 1 | 2, accessKey: note.access_key });
  const epec = 'events' in known ? epecOfConsultation(known.events) : null;
  if (!epec) return { kind: 'none' };
  const row = await recordEpec(deps, note, epec, { code: String(known.kind === 'epec' ? known.cStat : 136), message: `EPEC protocol read from the state's consultation of the key (${'cStat' in known ? known.cStat : ''} ${'xMotivo' in known ? known.xMotivo : ''})`.trim() });
  return row ? { kind: 'registered', note: row } : { kind: 'none' };
}
