import type { Note } from '../../notes/domain/note.js';
import { buildPreparedNfe } from '../domain/build-nfe.js';
import { prepareNfe, type PreparedNfe } from '../domain/prepare-nfe.js';
import type { NfeRequest } from '../domain/nfe-request.js';
import { nfeXsdPathToField } from '../domain/xsd-path-to-field.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { issueNote, type IssueDeps, type IssueOptions, type NoteEmitter } from '../../notes/services/issue-note.js';
import { engineIssuer, engineRespTec, tpAmbOf } from '../../notes/services/issuer-context.js';
import { NFE_SERIE } from './nfe-deps.js';
import { NFE_FAMILY } from './nfe-family.js';
import { svcContingencyAtOnce } from './svc-contingency.js';
import { nfeItemFigures } from './nfe-summary.js';
import { reformTablesInForce } from '../../../fiscal/reform/reform-tables-in-force.js';

/** The NF-e engine as the shared emission (documents/notes/services/issue-note.ts) drives it. */
export function nfeEmitter(now: () => Date): NoteEmitter<NfeRequest, PreparedNfe> {
  return {
    family: NFE_FAMILY,
    serie: NFE_SERIE,
    needsCsc: false,
    prepare(request, issuer) {
      const engine = engineIssuer(issuer);
      // MOC Y09-20 (900): installments may not fall due before the issuer's local date of emission.
      const at = now();
      const today = localDateTime(at, timeZoneOf(engine.endereco.codigo_municipio, engine.uf)).text.slice(0, 10);
      const respTec = engineRespTec(issuer);
      const prepared = prepareNfe(request, {
        issuer: engine, tpAmb: tpAmbOf(issuer), taxReform: issuer.account_tax_regime === 'reform_2026', today, processingDay: at.toISOString().slice(0, 10), reformTables: reformTablesInForce(), ...(respTec ? { respTec } : {}),
      });
      return prepared.ok ? { ok: true, prepared: prepared.nfe } : prepared;
    },
    build(prepared, ctx) {
      // With ctx.contingency the note is the SVC's: tpEmis 6/7, dhCont and xJust (docs/fiscal/svc.md).
      const built = buildPreparedNfe(prepared, {
        serie: ctx.serie, nNF: ctx.nNF, emittedAt: ctx.emittedAt, signingKey: ctx.signingKey, csrt: ctx.csrt, ...(ctx.contingency ? { contingency: ctx.contingency } : {}),
      });
      return { ...built, items: nfeItemFigures(built.model) };
    },
    fieldOfXsdPath: (path, request) => nfeXsdPathToField(path, request),
    onlineContingency: svcContingencyAtOnce,
  };
}

/** POST /v1/nfe: the shared emission with the NF-e engine. */
export function issueNfe(deps: IssueDeps, accountId: string, request: NfeRequest, opts: IssueOptions = {}): Promise<Note> {
  return issueNote(deps, nfeEmitter(() => deps.clock.now()), accountId, request, opts);
}
