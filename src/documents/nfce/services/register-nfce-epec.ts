import type { Note } from '../../notes/domain/note.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { ufCode } from '../../../fiscal/sefaz/endpoints.js';
import type { SefazClient } from '../../../fiscal/sefaz/sefaz-client.js';
import { buildEpecNfceEvent, buildProcEventoNFe, epecSummaryOfNfce } from '../../../fiscal/xml/events/index.js';
import { RetryLater } from '../../../infra/queue/runner.js';
import type { Job } from '../../../infra/queue/queue.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import type { IssuerForEmission } from '../../../kernel/issuer.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { addHistory, updateNoteIf } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { epecOfConsultation, recordNoteEpec } from '../../notes/services/note-epec.js';
import { noteSettled } from '../../notes/services/note-settled.js';
import { NFCE_MODEL } from './nfce-deps.js';
import { NFCE_FAMILY } from './nfce-family.js';

/** What became of the EPEC step of an NFC-e's transmission job. */
export type NfceEpecStep = { kind: 'none' } | { kind: 'registered'; note: Note } | { kind: 'rejected'; cStat: number | null; xMotivo: string };

const VER_APLIC = 'fiscal-gateway-1.0';

/**
 * docs/fiscal/offline-contingency.md#epec-sp: an SP NFC-e issued with tpEmis 4 has its EPEC (110140, model 65) registered
 * with SP's own EPEC service (cOrgao 35) before the note goes to SP's authorizer, which later compares the note
 * with it (467/468). The summary is read from the signed note, so the comparison finds exactly what the EPEC holds.
 * Run by the note's transmission job (`nfce.authorize`): a service that does not answer is asked again on the job's
 * next try (RetryLater); a refusal ends the note rejected with the service's cStat.
 */
export async function registerNfceEpecFirst(deps: AuthorityDeps, note: Note, job: Job<{ noteId: string }>): Promise<NfceEpecStep> {
  if (note.model !== NFCE_MODEL || note.tp_emis !== 4 || note.epec?.protocol || note.status !== 'contingency') return { kind: 'none' };
  const issuer = await findIssuerForEmission(deps.db, note.account_id, note.issuer_id);
  const material = issuer && (await loadIssuerSigningMaterial(deps.db, deps.secrets, note.account_id, note.issuer_id, issuer));
  if (!issuer || !material?.certificate) throw new Error(`issuer ${note.issuer_id} has no certificate for the EPEC of note ${note.id}`);
  const client = deps.authority.clientFor(material.certificate, note.account_id);
  const tpAmb = note.tp_amb as 1 | 2;
  // Held by the service with its protocol unknown (an earlier answer lost): never sent again, the state is asked.
  if (note.epec) return recoverProtocol(deps, client, issuer, note);
  const summary = epecSummaryOfNfce(note.signed_xml);
  if (!summary) throw new Error(`note ${note.id} lacks a field its EPEC summarizes`);
  const now = deps.clock.now();
  const author = issuer.cnpj.length === 14 ? { CNPJ: issuer.cnpj } : { CPF: issuer.cnpj };
  // The NFC-e EPEC goes to the state's own service: cOrgao is the state's IBGE code (e110140NFCe_v1.00.xsd).
  const cOrgao = ufCode(issuer.uf) ?? summary.cOrgaoAutor;
  const event = buildEpecNfceEvent({
    ...summary, cOrgao: String(cOrgao), tpAmb, author, nSeqEvento: 1, verAplic: VER_APLIC,
    dhEvento: localDateTime(now, timeZoneOf(issuer.endereco?.codigo_municipio ?? '', issuer.uf)).text,
  }, material.certificate);
  const outcome = await client.sendNfceEpec({ uf: issuer.uf, tpAmb, signedEventXml: event.xml });
  if (outcome.kind === 'timeout' || outcome.kind === 'unavailable' || outcome.kind === 'unknown') {
    await addHistory(deps.db, note.id, { type: 'authority_unavailable', at: now, message: `EPEC not confirmed by the state's EPEC service: ${outcome.kind}` });
    throw new RetryLater(Math.min(60_000, 1000 * 2 ** Math.min(6, job.attempts - 1)), `NFC-e EPEC ${outcome.kind}`);
  }
  const answer = outcome.event;
  // NT 2014.001 3.10 (the EPEC's answers, which SP's NFC-e EPEC keeps): 136, registered and not yet linked to its note.
  if (outcome.kind === 'registered' && answer?.nProt) {
    const epec = { protocol: answer.nProt, registered_at: answer.dhRegEvento ?? now.toISOString(), proc_xml: buildProcEventoNFe(event.xml, answer.retEventoXml) };
    const row = await recordNoteEpec(deps, NFCE_FAMILY, note, epec, { code: String(answer.cStat), message: `EPEC registered with the state's NFC-e EPEC service: ${answer.xMotivo}` });
    return row ? { kind: 'registered', note: row } : { kind: 'none' };
  }
  const cStat = answer?.cStat ?? outcome.cStat ?? null;
  const said = answer?.xMotivo ?? outcome.xMotivo;
  // 573 (the same event Id, NT 2014.001 3.8): this very EPEC was registered by an earlier try whose answer was lost.
  // It is never sent again; its protocol is read from the state's consultation of the key, now or on a later try.
  if (cStat === 573) {
    const held = await deps.db.transaction(async (tx) => {
      const row = await updateNoteIf(tx, note.id, 'contingency', { epec: { protocol: null, registered_at: null, proc_xml: null } }, now);
      if (row) await addHistory(tx, note.id, { type: 'epec_registered', at: now, code: String(cStat), message: `EPEC already registered (an earlier answer was lost): ${said}` });
      return row;
    });
    if (!held) return { kind: 'none' };
    noteSettled.emit(note.id);
    return recoverProtocol(deps, client, issuer, { ...note, epec: { protocol: null, registered_at: null, proc_xml: null } });
  }
  return { kind: 'rejected', cStat, xMotivo: `EPEC refused by the state's NFC-e EPEC service: ${said}` };
}

/** NT 2014.001 5.6: the consultation of a key holding only its EPEC answers 124 with the EPEC's event; a state still down leaves it unknown. */
async function recoverProtocol(deps: AuthorityDeps, client: SefazClient, issuer: IssuerForEmission, note: Note): Promise<NfceEpecStep> {
  const known = await client.consult({ uf: issuer.uf, model: NFCE_MODEL, tpAmb: note.tp_amb as 1 | 2, accessKey: note.access_key });
  const epec = 'events' in known ? epecOfConsultation(known.events) : null;
  if (!epec) return { kind: 'none' };
  const row = await recordNoteEpec(deps, NFCE_FAMILY, note, epec, { code: String('cStat' in known ? known.cStat : 124), message: "EPEC protocol read from the state's consultation of the key" });
  return row ? { kind: 'registered', note: row } : { kind: 'none' };
}
