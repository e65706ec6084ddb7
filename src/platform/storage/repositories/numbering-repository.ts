import { sqlState, type Queryable } from '../db.js';

export interface Series {
  issuerId: string;
  model: number;
  serie: number;
}

/**
 * Takes the next number of a series inside the caller's transaction (DESIGN 4 "Numbering"): first
 * the lowest number a rejected note gave back, otherwise the counter. The counter row is locked
 * until the transaction ends, so two sales never get one number and a rolled-back sale leaves no gap.
 */
export async function reserveNumber(tx: Queryable, s: Series): Promise<number> {
  return (await reserveNumbers(tx, s, 1))[0]!;
}

/**
 * Takes `count` numbers at once, in ascending order (a batch of sales committed together): the
 * lowest released numbers first (SKIP LOCKED: two transactions never take the same one), then the
 * counter moved by what is still missing. One statement, one round trip, one short hold of the lock.
 */
export async function reserveNumbers(tx: Queryable, s: Series, count: number): Promise<number[]> {
  // Data-modifying CTEs share one snapshot; `need` reads what `reused` returned, not the table.
  const r = await tx.query<{ number: number }>(
    `WITH reused AS (
       DELETE FROM released_numbers
        WHERE (issuer_id, model, serie, number) IN (
          SELECT issuer_id, model, serie, number FROM released_numbers
           WHERE issuer_id = $1 AND model = $2 AND serie = $3
           ORDER BY number LIMIT $4 FOR UPDATE SKIP LOCKED)
        RETURNING number),
     need AS (SELECT $4::int - count(*)::int AS n FROM reused),
     bumped AS (
       INSERT INTO number_sequences (issuer_id, model, serie, next_number)
       SELECT $1, $2, $3, 1 + need.n FROM need WHERE need.n > 0
       ON CONFLICT (issuer_id, model, serie) DO UPDATE
         SET next_number = number_sequences.next_number + EXCLUDED.next_number - 1
       RETURNING next_number)
     SELECT number FROM reused
     UNION ALL
     SELECT generate_series(b.next_number - need.n, b.next_number - 1) FROM bumped b CROSS JOIN need
     ORDER BY 1`,
    [s.issuerId, s.model, s.serie, count],
  );
  return r.rows.map((x) => x.number);
}

/** Where a series stands: the counter's next number and the released numbers waiting, lowest first. */
export interface SeriesState {
  next: number;
  released: number[];
}

/** The series' state as committed now (a series never used starts at 1). */
export async function readSeriesState(db: Queryable, s: Series): Promise<SeriesState> {
  const r = await db.query<{ next: number | null; released: number[] | null }>(
    `SELECT (SELECT next_number FROM number_sequences WHERE issuer_id = $1 AND model = $2 AND serie = $3) AS next,
            (SELECT array_agg(number ORDER BY number) FROM released_numbers WHERE issuer_id = $1 AND model = $2 AND serie = $3) AS released`,
    [s.issuerId, s.model, s.serie],
  );
  return { next: r.rows[0]?.next ?? 1, released: r.rows[0]?.released ?? [] };
}

/**
 * What an optimistic emission claims of its series (see insertNotes): the state it built from
 * (`expectedNext`), the released numbers it used and where the counter goes (`newNext`).
 */
export interface NumberingClaim {
  series: Series;
  expectedNext: number;
  newNext: number;
  released: number[];
}

/** SQLSTATE raised by numbering_holds() (migration 8) when the series moved since it was read. */
export const SERIES_MOVED = 'FGN01';

export function isSeriesMoved(err: unknown): boolean {
  return sqlState(err) === SERIES_MOVED;
}

/** A rejected note never reached the authority's books: its number is used by the next sale. */
export async function releaseNumber(tx: Queryable, s: Series, number: number, now: Date): Promise<void> {
  await releaseNumbers(tx, s, [number], now);
}

export async function releaseNumbers(tx: Queryable, s: Series, numbers: readonly number[], now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO released_numbers (issuer_id, model, serie, number, released_at)
     SELECT $1, $2, $3, n, $5 FROM unnest($4::int[]) AS n
     ON CONFLICT DO NOTHING`,
    [s.issuerId, s.model, s.serie, numbers, now],
  );
}

/** Numbers of the range that a note of this gateway holds (authorized, in doubt, denied or canceled). */
export async function usedNumbersInRange(tx: Queryable, s: Series, from: number, to: number): Promise<number[]> {
  const r = await tx.query<{ number: number }>(
    `SELECT DISTINCT number FROM notes
      WHERE issuer_id = $1 AND model = $2 AND serie = $3 AND number BETWEEN $4 AND $5 AND status <> 'rejected'
      ORDER BY number`,
    [s.issuerId, s.model, s.serie, from, to],
  );
  return r.rows.map((x) => x.number);
}

/**
 * After a range is voided its numbers must never be issued: drop them from the reuse pool and move
 * the counter past the range when it reaches into numbers not yet issued.
 */
export async function retireRange(tx: Queryable, s: Series, from: number, to: number): Promise<void> {
  await tx.query(
    `DELETE FROM released_numbers WHERE issuer_id = $1 AND model = $2 AND serie = $3 AND number BETWEEN $4 AND $5`,
    [s.issuerId, s.model, s.serie, from, to],
  );
  await tx.query(
    `INSERT INTO number_sequences (issuer_id, model, serie, next_number) VALUES ($1, $2, $3, $4 + 1)
     ON CONFLICT (issuer_id, model, serie) DO UPDATE
       SET next_number = GREATEST(number_sequences.next_number, EXCLUDED.next_number)`,
    [s.issuerId, s.model, s.serie, to],
  );
}
