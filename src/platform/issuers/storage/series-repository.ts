import type { Queryable } from '../../../infra/storage/db.js';
import type { Skip } from '../../../infra/storage/repositories/number-skips.js';

/** A series of an issuer as GET /v1/issuers/:id/series shows it (number_sequences, migration 41). */
export interface SeriesRow {
  model: number;
  serie: number;
  next_number: number;
  skips: Skip[];
  created_at: Date | null;
  retired_at: Date | null;
  /** The highest number a note of this gateway holds in the series (authorized, in doubt, denied, canceled), or null. */
  highest_used: number | null;
}

const HIGHEST_USED = `(SELECT max(n.number) FROM notes n
   WHERE n.issuer_id = q.issuer_id AND n.model = q.model AND n.serie = q.serie AND n.status <> 'rejected')`;

/** The issuer's series of these models, as stored (a series never used nor created has no row). */
export async function listSeriesRows(db: Queryable, issuerId: string, models: readonly number[]): Promise<SeriesRow[]> {
  const r = await db.query<SeriesRow>(
    `SELECT q.model, q.serie, q.next_number, q.skips, q.created_at, q.retired_at, ${HIGHEST_USED} AS highest_used
       FROM number_sequences q WHERE q.issuer_id = $1 AND q.model = ANY($2::int[]) ORDER BY q.model, q.serie`,
    [issuerId, models],
  );
  return r.rows;
}

/** One series' row, locked until the caller's transaction ends; undefined when it has none. */
export async function lockSeriesRow(tx: Queryable, issuerId: string, model: number, serie: number): Promise<SeriesRow | undefined> {
  const r = await tx.query<SeriesRow>(
    `SELECT q.model, q.serie, q.next_number, q.skips, q.created_at, q.retired_at, ${HIGHEST_USED} AS highest_used
       FROM number_sequences q WHERE q.issuer_id = $1 AND q.model = $2 AND q.serie = $3 FOR UPDATE`,
    [issuerId, model, serie],
  );
  return r.rows[0];
}

/** The voided ranges of a series (inutilizations the authority accepted), lowest first. */
export async function voidedRanges(db: Queryable, issuerId: string, model: number, serie: number): Promise<Skip[]> {
  const r = await db.query<{ f: number; l: number }>(
    `SELECT numero_inicial AS f, numero_final AS l FROM inutilizations
      WHERE issuer_id = $1 AND model = $2 AND serie = $3 AND status = 'voided' ORDER BY numero_inicial`,
    [issuerId, model, serie],
  );
  return r.rows.map((x) => [x.f, x.l]);
}

/** Gives the series a counter row when it has none (at 1, as a series never used), so it can be locked. */
export async function ensureSeriesRow(tx: Queryable, issuerId: string, model: number, serie: number): Promise<void> {
  await tx.query(
    `INSERT INTO number_sequences (issuer_id, model, serie, next_number) VALUES ($1, $2, $3, 1) ON CONFLICT (issuer_id, model, serie) DO NOTHING`,
    [issuerId, model, serie],
  );
}

/**
 * Writes a series' counter, voided ranges ahead, creation and retirement (its row locked by
 * lockSeriesRow), and drops released numbers at or above the counter: it hands them out itself.
 */
export async function writeSeries(
  tx: Queryable,
  issuerId: string,
  s: { model: number; serie: number; next: number; skips: Skip[]; createdAt: Date | null; retiredAt: Date | null },
): Promise<void> {
  await tx.query(
    `UPDATE number_sequences SET next_number = $4, skips = $5::jsonb, created_at = $6, retired_at = $7
      WHERE issuer_id = $1 AND model = $2 AND serie = $3`,
    [issuerId, s.model, s.serie, s.next, JSON.stringify(s.skips), s.createdAt, s.retiredAt],
  );
  await tx.query(`DELETE FROM released_numbers WHERE issuer_id = $1 AND model = $2 AND serie = $3 AND number >= $4`, [issuerId, s.model, s.serie, s.next]);
}
