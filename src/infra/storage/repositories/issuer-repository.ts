import type { KeyStorageMode } from '../../security/key-provider.js';
import { sqlState, type Queryable } from '../db.js';
import { EFFECTIVE_RESP_TEC_SQL, RESP_TEC_BASIS_SQL, type TechnicalResponsibleRecord } from './technical-responsible-repository.js';

export type Ambiente = 'homologacao' | 'producao';
export type RegimeTributario = 'simples' | 'simples_excesso' | 'normal' | 'mei';

export interface IssuerAddressRow {
  logradouro: string;
  numero: string;
  complemento?: string | null;
  bairro: string;
  codigo_municipio: string;
  cep: string;
  telefone?: string | null;
}

/** The issuer's NFS-e settings (migration 16), stored whole with defaults applied. */
export interface IssuerNfseRow {
  /** IM (TSInscMun, 1-15), when the municipality has one. */
  municipal_registration: string | null;
  /** regApTribSN 1-3: only for a Simples Nacional ME/EPP. */
  simples_regime: 1 | 2 | 3 | null;
  /** regEspTrib: 0 none, 1-6, 9. */
  special_regime: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 9;
  /** DPS series, 1-49999 (own software, Anexo I E0010). */
  dps_series: number;
  signature_profile: 'rsa-sha1-c14n' | 'rsa-sha256-exc-c14n';
}

/** NFC-e offline contingency: `offline` lets the gateway issue tpEmis 9 when the authority does not answer. */
export interface IssuerContingencyRow {
  mode: 'off' | 'offline';
  /** How long a sale waits for the authority before it is issued in contingency (1-10 s). */
  wait_seconds: number;
}

export interface IssuerRow {
  id: string;
  account_id: string;
  cnpj: string;
  razao_social: string;
  nome_fantasia: string | null;
  ie: string;
  uf: string;
  ambiente: Ambiente;
  regime_tributario: RegimeTributario;
  endereco: IssuerAddressRow | null;
  /** Null while NFS-e is not configured. */
  nfse: IssuerNfseRow | null;
  /** Null: the environment's default (offline in the sandbox, off in production). */
  contingency: IssuerContingencyRow | null;
  /** NF-e contingency while the state's authorizer is down (migration 55): SVC (default) or EPEC (docs/fiscal/epec.md). */
  nfe_contingency?: 'svc' | 'epec';
  danfe_primary_color: string | null;
  danfe_footer_text: string | null;
  danfe_logo_type: string | null;
  danfe_logo: Buffer | null;
  /** Set while the issuer is archived (read-only, not counted by the plan). */
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

export type IssuerInsert = Pick<
  IssuerRow,
  'id' | 'account_id' | 'cnpj' | 'razao_social' | 'nome_fantasia' | 'ie' | 'uf' | 'ambiente' | 'regime_tributario' | 'endereco' | 'nfse' | 'contingency' | 'nfe_contingency'
> & { now: Date };

export type IssuerChanges = Partial<
  Pick<
    IssuerRow,
    'razao_social' | 'nome_fantasia' | 'ie' | 'regime_tributario' | 'endereco' | 'nfse' | 'contingency' | 'nfe_contingency' | 'danfe_primary_color' | 'danfe_footer_text' | 'danfe_logo_type' | 'danfe_logo'
  >
>;

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
export async function findIssuer(db: Queryable, accountId: string, id: string, opts: { forUpdate?: boolean } = {}): Promise<IssuerRow | undefined> {
  const r = await db.query<IssuerRow>(`${SELECT} WHERE i.account_id = $1 AND i.id = $2${opts.forUpdate ? ' FOR UPDATE OF i' : ''}`, [accountId, id]);
  return r.rows[0] && withBuffer(r.rows[0]);
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

/** The technical responsible a sale of the issuer carries (its own, else the account's), as stored. */
export type EmissionRespTec = Omit<TechnicalResponsibleRecord, 'account_id' | 'updated_at'>;

export type EmissionIssuerRow = IssuerRow & { account_tax_regime: string; basis: string; resp_tec?: EmissionRespTec | null };

/** The issuer with its account's tax regime and its emission basis, in one round trip. */
export async function findIssuerForEmission(db: Queryable, accountId: string, id: string): Promise<EmissionIssuerRow | undefined> {
  const r = await db.query<EmissionIssuerRow>(
    `${SELECT.replace('FROM issuers i', 'FROM issuers i JOIN accounts a ON a.id = i.account_id').replace('SELECT i.*,', `SELECT i.*, a.tax_regime AS account_tax_regime, ${EMISSION_BASIS_SQL} AS basis, ${EFFECTIVE_RESP_TEC_SQL} AS resp_tec,`)}
      WHERE i.account_id = $1 AND i.id = $2`,
    [accountId, id],
  );
  return r.rows[0] && withBuffer(r.rows[0]);
}

export async function listIssuers(db: Queryable, accountId: string, limit: number, startingAfter?: string, archived?: boolean): Promise<IssuerRow[]> {
  const r = await db.query<IssuerRow>(
    `${SELECT} WHERE i.account_id = $1 AND ($2::text IS NULL OR i.id > $2)
       AND ($4::boolean IS NULL OR (i.archived_at IS NOT NULL) = $4) ORDER BY i.id LIMIT $3`,
    [accountId, startingAfter ?? null, limit, archived ?? null],
  );
  return r.rows.map(withBuffer);
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

/** Applies the given columns (null clears a nullable one, undefined leaves it); false when the issuer is not this account's. */
export async function updateIssuer(db: Queryable, accountId: string, id: string, changes: IssuerChanges, now: Date): Promise<boolean> {
  // Column names come from this whitelist only, never from the request.
  const entries = Object.entries(changes).filter(([col, v]) => v !== undefined && CHANGEABLE.has(col));
  const sets = entries.map(([col], n) => `${col} = $${n + 4}`);
  const values = entries.map(([col, v]) => (JSON_COLUMNS.has(col) ? jsonOrNull(v as object | null) : v));
  const r = await db.query(
    `UPDATE issuers SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE account_id = $1 AND id = $2`,
    [accountId, id, now, ...values],
  );
  return r.rowCount > 0;
}

// PGlite returns bytea as a Uint8Array, pg as a Buffer: callers always get a Buffer.
function withBuffer<T extends IssuerRow>(row: T): T {
  if (row.danfe_logo && !Buffer.isBuffer(row.danfe_logo)) row.danfe_logo = Buffer.from(row.danfe_logo as Uint8Array);
  return row;
}

function jsonOrNull(v: object | null | undefined): string | null {
  return v ? JSON.stringify(v) : null;
}
