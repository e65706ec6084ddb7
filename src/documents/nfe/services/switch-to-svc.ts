import type { Note } from '../../notes/domain/note.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { validateNfeOfItsDate } from '../../../fiscal/xml/xsd/validate-xml.js';
import { breakerCaller } from '../../../fiscal/sefaz/breaker-key.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { buildPreparedNfe } from '../domain/build-nfe.js';
import type { NfeRequest } from '../domain/nfe-request.js';
import { nfeRoute } from '../domain/svc-route.js';
import { nfeEmitter } from './issue-nfe.js';
import { NFE_MODEL } from './nfe-deps.js';
import { reissueNfe } from './reissue-nfe.js';
import { svcContingencyAtOnce } from './svc-contingency.js';

/**
 * An NF-e whose send to the state never got through (the request was not written, or the state answered
 * that it is paralysed: the key was not used) while the state's breaker is open, or that the state itself
 * answered 108/109 (paralysed, breaker open or not), is issued again for the
 * SVC (docs/fiscal/svc.md#retries, nfeRoute `not_sent`): same number, tpEmis 6/7 and so another key, dhCont
 * and xJust, and a job that sends it there. A send whose outcome is unknown is never switched: it is
 * consulted at the state under its own key. True when the note was switched.
 */
export async function switchToSvc(deps: AuthorityDeps & Partial<Pick<Ports, 'breaker'>>, note: Note, outcome: 'not-sent' | 'in-doubt', cStat?: number | null): Promise<boolean> {
  const { db, clock } = deps;
  // In doubt: nfeRoute would consult where it went; said here first, before anything is loaded.
  if (outcome === 'in-doubt' || note.status !== 'processing' || note.model !== NFE_MODEL || note.tp_emis !== 1 || !deps.breaker) return false;
  const issuer = await findIssuerForEmission(db, note.account_id, note.issuer_id);
  // An issuer that chose EPEC has no SVC note: a note issued with tpEmis 1 waits for its state under its own key.
  if (!issuer || issuer.nfe_contingency === 'epec') return false;
  const material = await loadIssuerSigningMaterial(db, deps.secrets, note.account_id, note.issuer_id, issuer);
  if (!material?.certificate) return false;
  const caller = breakerCaller(material.certificate.fingerprintSha256, note.account_id);
  // MOC cStat table (docs/fiscal/cstat.md), 108/109: the state answered this very send that its service is paralysed, so the key was
  // not used and the state is down now; one such answer is enough, however few notes the issuer sends
  // (docs/fiscal/svc.md#when-the-gateway-switches). A refused connection or a timeout only counts for the breaker.
  const stateSaidDown = cStat === 108 || cStat === 109;
  const contingency = await svcContingencyAtOnce({ ...deps, breaker: deps.breaker }, issuer, caller, { stateSaidDown });
  const route = nfeRoute({ uf: issuer.uf, stateBreakerOpen: contingency !== undefined, previous: { outcome: 'not_sent', tpEmis: 1 } });
  if (!contingency || route.action !== 'send' || route.to === 'state') return false;
  const prepared = nfeEmitter(() => clock.now()).prepare(note.request as NfeRequest, issuer);
  // The sale was valid when it was accepted; an issuer changed since then is no reason to lose it.
  if (!prepared.ok) return false;
  const now = clock.now();
  const built = buildPreparedNfe(prepared.prepared, { serie: note.serie, nNF: note.number, emittedAt: now, signingKey: material.certificate, csrt: material.csrt, contingency });
  const schema = validateNfeOfItsDate(built.xml);
  if (!schema.valid) throw new Error(`SVC NF-e failed the XSD: ${schema.errors[0]?.message ?? ''}`);
  return reissueNfe(deps, note, built, schema.pkg, { type: 'svc_contingency', message: `the state's authorizer did not take key ${note.access_key}; issued again for ${route.to} as key ${built.accessKey} (${contingency.reason})` }, now);
}
