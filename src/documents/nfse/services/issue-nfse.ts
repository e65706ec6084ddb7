import type { Note } from '../../notes/domain/note.js';
import { ApiError } from '../../../kernel/errors.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import type { DpsSignatureProfileName } from '../../../fiscal/xml/nfse/sign-dps.js';
import { getNote } from '../../notes/storage/note-repository.js';
import { issueNote, type IssueDeps, type IssueOptions, type NoteEmitter } from '../../notes/services/issue-note.js';
import { tpAmbOf } from '../../notes/services/issuer-context.js';
import { buildPreparedDps, type DpsFigures } from '../domain/index.js';
import { dpsPathToField } from '../domain/dps-path-to-field.js';
import type { NfseRequest } from '../domain/nfse-request.js';
import type { SubstitutedRequest } from '../domain/nfse-context.js';
import { prepareNfse, type PreparedDps } from '../domain/prepare-nfse.js';
import { NFSE_FAMILY } from './nfse-family.js';
import { NFSE_MODEL } from './nfse-deps.js';
import { nfseIssuerOf } from './nfse-issuer.js';
import { schemaPackageFor } from '../../../fiscal/xml/xsd/schema-packages.js';
import { installedReformTables } from '../../../fiscal/reform/installed-reform-tables.js';

interface PreparedNfse {
  dps: PreparedDps;
  profile: DpsSignatureProfileName;
}

/** Figures in cents -> reais for the API (the record's `values`). */
function figuresInReais(f: DpsFigures): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(f)) if (typeof v === 'number') out[k] = v / 100;
  return out;
}

/** The NFS-e engine as the shared emission (documents/notes/services/issue-note.ts) drives it. */
export function nfseEmitter(now: () => Date, substitutedKey?: string, substituted?: SubstitutedRequest): NoteEmitter<NfseRequest, PreparedNfse> {
  // The reform tables (CST, cClassTrib, rates) decide the IBS/CBS figures and E0958 / E0965 (docs/fiscal/nfse-reform.md).
  const reformTables = installedReformTables();
  return {
    family: NFSE_FAMILY,
    serie: 1,
    // Anexo I E0010: the DPS series is the issuer's (1-49999 for its own software), set with nfse.dps_series.
    serieOf: (issuer) => {
      const mapped = nfseIssuerOf(issuer);
      return mapped.ok ? mapped.series : 1;
    },
    needsCsc: false,
    prepare(request, issuer) {
      const mapped = nfseIssuerOf(issuer);
      if (!mapped.ok) {
        throw new ApiError('issuer_not_ready', `Issuer ${issuer.id} cannot issue NFS-e yet: ${mapped.problems.map((p) => p.field).join(', ')}`, mapped.problems);
      }
      const today = localDateTime(now(), timeZoneOf(mapped.issuer.cityCode, issuer.uf)).text.slice(0, 10);
      const prepared = prepareNfse(request, {
        issuer: mapped.issuer,
        tpAmb: tpAmbOf(issuer),
        taxReform: issuer.account_tax_regime === 'reform_2026',
        today,
        ...(substitutedKey ? { substitutedKey } : {}),
        ...(substituted ? { substituted } : {}),
        ...(reformTables ? { reformTables } : {}),
      });
      return prepared.ok ? { ok: true, prepared: { dps: prepared.dps, profile: mapped.profile } } : prepared;
    },
    build(prepared, ctx) {
      let built;
      try {
        built = buildPreparedDps(prepared.dps, { serie: String(ctx.serie), nDPS: String(ctx.nNF), emittedAt: ctx.emittedAt, signingKey: ctx.signingKey, profile: prepared.profile, ...(reformTables ? { reformTables } : {}) });
      } catch (err) {
        // The series (E0010) and the competence (E0015) are checked again with the emission's own clock.
        const message = (err as Error).message;
        const field = message.startsWith('serie') ? 'issuer.nfse.dps_series' : 'competence_date';
        throw new ApiError('validation_error', `${field} ${message}`, [{ field, message }]);
      }
      return {
        xml: built.xml,
        // docs/fiscal/nfse-national.md#dps: the DPS Id is the document's handle at Sefin until it is authorized (migration 17).
        accessKey: built.dpsId,
        tpEmis: 1,
        dhEmi: built.dhEmi,
        digestValue: built.digestValue,
        schemaPackage: schemaPackageFor('nfse', built.dhEmi),
        schemaFile: 'DPS_v1.01.xsd',
        totals: figuresInReais(built.figures),
        items: [],
      };
    },
    fieldOfXsdPath: (path) => dpsPathToField(path),
  };
}

/**
 * POST /v1/nfse: the shared emission with the NFS-e engine. A substitute names the NFS-e it replaces by
 * our id; its key (chSubstda) is looked up here, and what Sefin alone can judge (the municipality's
 * deadline E0050, manifestations E0070) is left to Sefin.
 */
export async function issueNfse(deps: IssueDeps, accountId: string, request: NfseRequest, opts: IssueOptions = {}): Promise<Note> {
  let substitutedKey: string | undefined;
  let substituted: SubstitutedRequest | undefined;
  if (request.substitutes) {
    const field = 'substitutes.nfse_id';
    const original = await getNote(deps.db, accountId, request.substitutes.nfse_id, { model: NFSE_MODEL });
    if (!original) throw new ApiError('validation_error', `${field} names no NFS-e of this account`, [{ field, message: 'no NFS-e with this id' }]);
    if (original.issuer_id !== request.issuer_id) {
      throw new ApiError('validation_error', `${field} was issued by another issuer: a substitute comes from the same provider`, [{ field, message: 'issued by another issuer' }]);
    }
    if (original.status !== 'authorized' || !original.nfse_key) {
      // Anexo I E0046: a canceled NFS-e cannot be substituted; one not authorized has no key to name.
      throw new ApiError('invalid_state', `NFS-e ${original.id} is ${original.status}; only an authorized NFS-e can be substituted`);
    }
    substitutedKey = original.nfse_key;
    // Anexo I E0060 / E0061: what the substitute may not change is compared with the original's request.
    substituted = original.request as SubstitutedRequest;
  }
  return issueNote(deps, nfseEmitter(() => deps.clock.now(), substitutedKey, substituted), accountId, request, opts);
}
