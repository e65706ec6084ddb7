import type { Note } from '../../notes/domain/note.js';
import { buildPreparedNfce } from '../domain/build-nfce.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { prepareNfce, type PreparedNfce } from '../domain/prepare-nfce.js';
import type { Sale } from '../domain/sale.js';
import { xsdPathToField } from '../../goods/domain/xsd-path-to-field.js';
import { issueNote, type IssueDeps, type IssueOptions, type NoteEmitter } from '../../notes/services/issue-note.js';
import { engineIssuer, engineRespTec, tpAmbOf } from '../../notes/services/issuer-context.js';
import { contingencyAtOnce } from './contingency-settings.js';
import { DEFAULT_SERIE } from './nfce-deps.js';
import { NFCE_FAMILY } from './nfce-family.js';
import { reformTablesInForce } from '../../../fiscal/reform/reform-tables-in-force.js';

export type { IssueOptions } from '../../notes/services/issue-note.js';

/** The NFC-e engine as the shared emission drives it; `now` gives the issuer's local date the sale is prepared on. */
export function nfceEmitter(now: () => Date): NoteEmitter<Sale, PreparedNfce> {
  return {
    family: NFCE_FAMILY,
    serie: DEFAULT_SERIE,
    needsCsc: true,
    prepare(sale, issuer) {
      const respTec = engineRespTec(issuer);
      const engine = engineIssuer(issuer);
      // The IBS/CBS rates the items need are those of the issuer's local year (docs/fiscal/tax-reform.md).
      const at = now();
      const today = localDateTime(at, timeZoneOf(engine.endereco.codigo_municipio, engine.uf)).text.slice(0, 10);
      const prepared = prepareNfce(sale, {
        issuer: engine, tpAmb: tpAmbOf(issuer), taxReform: issuer.account_tax_regime === 'reform_2026', today, processingDay: at.toISOString().slice(0, 10), reformTables: reformTablesInForce(), ...(respTec ? { respTec } : {}),
      });
      return prepared.ok ? { ok: true, prepared: prepared.nfce } : prepared;
    },
    build: (prepared, { contingency, ...ctx }) =>
      // An SP issuer that chose EPEC issues tpEmis 4 (docs/fiscal/offline-contingency.md#epec-sp), any other tpEmis 9.
      buildPreparedNfce(prepared, { ...ctx, csc: ctx.csc!, ...(contingency ? { tpEmis: contingency.kind === 'epec' ? (4 as const) : (9 as const), contingency } : {}) }),
    fieldOfXsdPath: (path, sale) => xsdPathToField(path, sale),
    contingencyAtOnce,
  };
}

/** The engine on the machine's clock, for the paths that prepare again a sale already dated (contingency, offline). */
export const NFCE_EMITTER: NoteEmitter<Sale, PreparedNfce> = nfceEmitter(() => new Date());

/** POST /v1/nfce: the shared emission (documents/notes/services/issue-note.ts) with the NFC-e engine. */
export function issueNfce(deps: IssueDeps, accountId: string, sale: Sale, opts: IssueOptions = {}): Promise<Note> {
  return issueNote(deps, nfceEmitter(() => deps.clock.now()), accountId, sale, opts);
}
