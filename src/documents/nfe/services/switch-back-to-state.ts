import type { Note } from '../../notes/domain/note.js';
import type { Ports } from '../../../platform/ports/ports.js';
import { validateNfeOfItsDate } from '../../../fiscal/xml/xsd/validate-xml.js';
import { breakerCaller } from '../../../fiscal/sefaz/breaker-key.js';
import { svcOfAccessKey } from '../../../fiscal/sefaz/svc-endpoints.js';
import { findIssuerForEmission } from '../../../infra/storage/repositories/issuer-repository.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { listHistory } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { buildPreparedNfe } from '../domain/build-nfe.js';
import type { NfeRequest } from '../domain/nfe-request.js';
import { nfeEmitter } from './issue-nfe.js';
import { NFE_MODEL } from './nfe-deps.js';
import { reissueNfe } from './reissue-nfe.js';

// What the authorization job writes when a send to the SVC may have reached it (authorize-note.ts): after such a
// line the SVC may hold the key, and only the SVC can say it does not.
const MAYBE_TAKEN: ReadonlySet<string> = new Set(['authority_in_doubt', 'receipt']);

/**
 * An NF-e issued for the SVC that the SVC has not taken either (docs/fiscal/svc.md#when-the-svc-is-down-too): every
 * send to the SVC failed before the SVC could use the key (refused connection, 108/109, 114 not activated), and
 * the state's authorizer answers again (its breaker closed with no failure since). It is issued again for the state
 * under the same number, tpEmis 1 without dhCont/xJust (MOC B28-10), and a new job sends it there. A note whose send
 * to the SVC may have arrived (no answer, a lot receipt) is never switched back: it stays with the SVC, consulted
 * there until it answers, so the same sale cannot be authorized at both. True when the note was switched.
 */
export async function switchBackToState(deps: AuthorityDeps & Partial<Pick<Ports, 'breaker'>>, note: Note): Promise<boolean> {
  const { db, clock } = deps;
  const svc = svcOfAccessKey(note.access_key);
  if (!svc || note.status !== 'processing' || note.model !== NFE_MODEL || note.receipt || !deps.breaker) return false;
  const issuer = await findIssuerForEmission(db, note.account_id, note.issuer_id);
  if (!issuer) return false;
  const material = await loadIssuerSigningMaterial(db, deps.secrets, note.account_id, note.issuer_id, issuer);
  if (!material?.certificate) return false;
  const caller = breakerCaller(material.certificate.fingerprintSha256, note.account_id);
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;
  if (!(await deps.breaker.serving({ uf: issuer.uf, model: NFE_MODEL, tpAmb, service: 'autorizacao', certificate: caller }))) return false;
  const history = await listHistory(db, note.id);
  const since = history.map((h) => h.type).lastIndexOf('svc_contingency');
  if (since < 0 || history.slice(since + 1).some((h) => MAYBE_TAKEN.has(h.type))) return false;
  const prepared = nfeEmitter(() => clock.now()).prepare(note.request as NfeRequest, issuer);
  if (!prepared.ok) return false;
  const now = clock.now();
  const built = buildPreparedNfe(prepared.prepared, { serie: note.serie, nNF: note.number, emittedAt: now, signingKey: material.certificate, csrt: material.csrt });
  const schema = validateNfeOfItsDate(built.xml);
  if (!schema.valid) throw new Error(`NF-e for the state failed the XSD: ${schema.errors[0]?.message ?? ''}`);
  return reissueNfe(deps, note, built, schema.pkg, { type: 'svc_contingency_ended', message: `${svc} did not take key ${note.access_key}; the state's authorizer answers again: issued again for it as key ${built.accessKey}` }, now);
}
