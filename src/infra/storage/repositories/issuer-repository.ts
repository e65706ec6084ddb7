import type {
  IssuerAddress, IssuerContingencySettings, IssuerDanfeSettings, IssuerForEmission, IssuerNfseSettings, KeyStorageMode, RegisteredIssuer,
} from '../../../kernel/issuer.js';
import { sqlState, type Queryable } from '../db.js';
import { EFFECTIVE_RESP_TEC_SQL, RESP_TEC_BASIS_SQL, type TechnicalResponsibleRecord } from './technical-responsible-repository.js';

/** A row of issuers as SELECT reads it, with its certificate's and CSC's columns joined; only this file sees it. */
interface IssuerRow {
  id: string;
  account_id: string;
  cnpj: string;
  razao_social: string;
  nome_fantasia: string | null;
  ie: string;
  uf: string;
  ambiente: RegisteredIssuer['ambiente'];
  regime_tributario: RegisteredIssuer['regime_tributario'];
  endereco: IssuerAddress | null;
  nfse: IssuerNfseSettings | null;
  contingency: IssuerContingencySettings | null;
  nfe_contingency?: 'svc' | 'epec';
  danfe_primary_color: string | null;
  danfe_footer_text: string | null;
  danfe_logo_type: string | null;
  /** PGlite returns bytea as a Uint8Array, pg as a Buffer. */
  danfe_logo: Buffer | Uint8Array | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
  // Joined from issuer_certificates / issuer_cscs (null when absent).
  cert_version: number | null;
  cert_subject: string | null;
  cert_cnpj: string | null;
  cert_serial_number: string | null;
  cert_not_before: Date | null;
  cert_not_after: Date | null;
  cert_storage_mode: KeyStorageMode | null;
  csc_version: number | null;
  csc_id: string | null;
  csc_registered_at: Date | null;
}

/** The technical responsible (its own, else the account's) comes as stored, less its owner's account and date. */
type EmissionIssuerRow = IssuerRow & { account_tax_regime: string; basis: string; resp_tec?: Omit<TechnicalResponsibleRecord, 'account_id' | 'updated_at'> | null };

export type IssuerInsert = Pick<
  RegisteredIssuer,
  'id' | 'account_id' | 'cnpj' | 'razao_social' | 'nome_fantasia' | 'ie' | 'uf' | 'ambiente' | 'regime_tributario' | 'endereco' | 'nfse' | 'contingency' | 'nfe_contingency'
> & { now: Date };

/** What updateIssuer changes: null clears a nullable setting, a missing key leaves it. */
export type IssuerChanges = Partial<
  Pick<RegisteredIssuer, 'razao_social' | 'nome_fantasia' | 'ie' | 'regime_tributario' | 'endereco' | 'nfse' | 'contingency' | 'nfe_contingency'>
> & { danfe?: Partial<IssuerDanfeSettings> };

/** The one mapping from a row to the domain's issuer: the joined certificate and CSC columns become their summaries. */
function toIssuer(row: IssuerRow): RegisteredIssuer {
  const {
    danfe_primary_color, danfe_footer_text, danfe_logo_type, danfe_logo,
    cert_version, cert_subject, cert_cnpj, cert_serial_number, cert_not_before, cert_not_after, cert_storage_mode,
    csc_version, csc_id, csc_registered_at, ...issuer
  } = row;
  return {
    ...issuer,
    danfe: {
      primary_color: danfe_primary_color,
      footer_text: danfe_footer_text,
      logo_type: danfe_logo_type,
      // PGlite returns bytea as a Uint8Array, pg as a Buffer: callers always get a Buffer.
      logo: danfe_logo && !Buffer.isBuffer(danfe_logo) ? Buffer.from(danfe_logo) : danfe_logo,
    },
    // The certificate's columns are NOT NULL (migration 2): a version means the whole row was joined.
    certificate:
      cert_version === null
        ? null
        : { version: cert_version, subject: cert_subject!, cnpj: cert_cnpj, serial_number: cert_serial_number!, not_before: cert_not_before!, not_after: cert_not_after!, storage_mode: cert_storage_mode! },
    csc: csc_version === null ? null : { version: csc_version, id_csc: csc_id!, registered_at: csc_registered_at! },
  };
}

const SELECT = `
  SELECT i.*, c.version AS cert_version, c.subject AS cert_subject, c.cnpj AS cert_cnpj,
         c.serial_number AS cert_serial_number, c.not_before AS cert_not_before, c.not_after AS cert_not_after,
         c.storage_mode AS cert_storage_mode, s.version AS csc_version, s.id_csc AS csc_id, s.registered_at AS csc_registered_at
    FROM issuers i
    LEFT JOIN issuer_certificates c ON c.issuer_id = i.id
    LEFT JOIN issuer_cscs s ON s.issuer_id = i.id`;

/** Thrown by insertIssuer when the account already has this CNPJ in this ambiente. */
export class DuplicateIssuerError extends Error {
  override readonly name = 'DuplicateIssuerError';
  constructor(readonly existingId: string) {
    super(`Issuer ${existingId} already has this CNPJ and ambiente`);
  }
}

export async function insertIssuer(db: Queryable, i: IssuerInsert): Promise<void> {
  const existing = await db.query<{ id: string }>(
    'SELECT id FROM issuers WHERE account_id = $1 AND cnpj = $2 AND ambiente = $3',
    [i.account_id, i.cnpj, i.ambiente],
  );
  if (existing.rows[0]) throw new DuplicateIssuerError(existing.rows[0].id);
  try {
    await db.query(
      `INSERT INTO issuers (id, account_id, cnpj, razao_social, nome_fantasia, ie, uf, ambiente, regime_tributario, endereco, nfse, contingency, nfe_contingency, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
      [i.id, i.account_id, i.cnpj, i.razao_social, i.nome_fantasia, i.ie, i.uf, i.ambiente, i.regime_tributario, jsonOrNull(i.endereco), jsonOrNull(i.nfse), jsonOrNull(i.contingency), i.nfe_contingency ?? 'svc', i.now],
    );
  } catch (err) {
    // Two concurrent creations: the unique index decides, the loser gets the same answer as above.
    if (sqlState(err) !== '23505') throw err;
    const winner = await db.query<{ id: string }>('SELECT id FROM issuers WHERE account_id = $1 AND cnpj = $2 AND ambiente = $3', [
      i.account_id,
      i.cnpj,
      i.ambiente,
    ]);
    throw new DuplicateIssuerError(winner.rows[0]?.id ?? 'unknown');
  }
}

/**
 * An issuer of this account; another account's issuer is simply not found. `forUpdate` (inside a
 * transaction) holds the row until commit: a change computed from it cannot lose a concurrent one.
 */
export async function findIssuer(db: Queryable, accountId: string, id: string, opts: { forUpdate?: boolean } = {}): Promise<RegisteredIssuer | undefined> {
  const r = await db.query<IssuerRow>(`${SELECT} WHERE i.account_id = $1 AND i.id = $2${opts.forUpdate ? ' FOR UPDATE OF i' : ''}`, [accountId, id]);
  return r.rows[0] && toIssuer(r.rows[0]);
}

/**
 * What a note built from an issuer depends on, as one text: the issuer row's version (xmin changes
 * with every update of the row), its certificate's and CSC's versions, its account's tax regime and the
 * versions of the technical responsibles that reach it (account and issuer, infRespTec).
 * Emission reads it with the issuer, and the statement that stores the note checks it is unchanged
 * (insertNotes), so a note is never stored from an issuer that changed meanwhile.
 */
export const EMISSION_BASIS_SQL = `concat_ws('|', i.xmin, coalesce(c.version, 0), coalesce(s.version, 0), a.tax_regime, ${RESP_TEC_BASIS_SQL})`;

/** SQLSTATE raised by issuer_holds() (migration 8): the issuer changed since its basis was read. */
export const ISSUER_CHANGED = 'FGI01';

export function isIssuerChanged(err: unknown): boolean {
  return sqlState(err) === ISSUER_CHANGED;
}

/** The issuer with its account's tax regime and its emission basis, in one round trip. */
export async function findIssuerForEmission(db: Queryable, accountId: string, id: string): Promise<IssuerForEmission | undefined> {
  const r = await db.query<EmissionIssuerRow>(
    `${SELECT.replace('FROM issuers i', 'FROM issuers i JOIN accounts a ON a.id = i.account_id').replace('SELECT i.*,', `SELECT i.*, a.tax_regime AS account_tax_regime, ${EMISSION_BASIS_SQL} AS basis, ${EFFECTIVE_RESP_TEC_SQL} AS resp_tec,`)}
      WHERE i.account_id = $1 AND i.id = $2`,
    [accountId, id],
  );
  if (!r.rows[0]) return undefined;
  const { account_tax_regime, basis, resp_tec, ...row } = r.rows[0];
  return { ...toIssuer(row), account_tax_regime, basis, resp_tec };
}

export async function listIssuers(db: Queryable, accountId: string, limit: number, startingAfter?: string, archived?: boolean): Promise<RegisteredIssuer[]> {
  const r = await db.query<IssuerRow>(
    `${SELECT} WHERE i.account_id = $1 AND ($2::text IS NULL OR i.id > $2)
       AND ($4::boolean IS NULL OR (i.archived_at IS NOT NULL) = $4) ORDER BY i.id LIMIT $3`,
    [accountId, startingAfter ?? null, limit, archived ?? null],
  );
  return r.rows.map(toIssuer);
}

/** Archives (at a date) or unarchives (null) the issuer; an already archived one keeps its date. */
export async function setIssuerArchived(db: Queryable, accountId: string, id: string, archivedAt: Date | null, now: Date): Promise<void> {
  await db.query(
    `UPDATE issuers SET archived_at = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE COALESCE(archived_at, $3::timestamptz) END, updated_at = $4
      WHERE account_id = $1 AND id = $2`,
    [accountId, id, archivedAt, now],
  );
}

const CHANGEABLE = new Set([
  'razao_social', 'nome_fantasia', 'ie', 'regime_tributario', 'endereco', 'nfse', 'contingency', 'nfe_contingency',
  'danfe_primary_color', 'danfe_footer_text', 'danfe_logo_type', 'danfe_logo',
]);

const JSON_COLUMNS = new Set(['endereco', 'nfse', 'contingency']);

/** Applies the given changes (null clears a nullable one, undefined leaves it); false when the issuer is not this account's. */
export async function updateIssuer(db: Queryable, accountId: string, id: string, changes: IssuerChanges, now: Date): Promise<boolean> {
  // Column names come from this whitelist only, never from the request; the DANFE settings are danfe_* columns.
  const { danfe, ...own } = changes;
  const columns = [...Object.entries(own), ...Object.entries(danfe ?? {}).map(([k, v]) => [`danfe_${k}`, v] as const)];
  const entries = columns.filter(([col, v]) => v !== undefined && CHANGEABLE.has(col));
  const sets = entries.map(([col], n) => `${col} = $${n + 4}`);
  const values = entries.map(([col, v]) => (JSON_COLUMNS.has(col) ? jsonOrNull(v as object | null) : v));
  const r = await db.query(
    `UPDATE issuers SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE account_id = $1 AND id = $2`,
    [accountId, id, now, ...values],
  );
  return r.rowCount > 0;
}

function jsonOrNull(v: object | null | undefined): string | null {
  return v ? JSON.stringify(v) : null;
}
