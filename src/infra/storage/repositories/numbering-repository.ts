import { sqlState, type Queryable } from '../db.js';
import { takeNumbers, voidRange, type Counter, type Skip } from './number-skips.js';

export interface Series {
  issuerId: string;
  model: number;
  serie: number;
}

/**
 * Takes the next number of a series inside the caller's transaction (docs/decisions.md#numbering): first
 * the lowest number a rejected note gave back, otherwise the counter. The counter row is locked
 * until the transaction ends, so two sales never get one number and a rolled-back sale leaves no gap.
 */
export async function reserveNumber(tx: Queryable, s: Series): Promise<number> {
  return (await reserveNumbers(tx, s, 1))[0]!;
}

/**
 * Takes `count` numbers at once, in ascending order (a batch of sales committed together): the
 * lowest released numbers first (SKIP LOCKED: two transactions never take the same one), then the
 * counter moved by what is still missing, stepping over numbers voided ahead of it (number-skips.ts).
 * Inside the caller's transaction: the counter's row stays locked until it ends.
 */
export async function reserveNumbers(tx: Queryable, s: Series, count: number): Promise<number[]> {
  const reused = (await tx.query<{ number: number }>(
    `DELETE FROM released_numbers
      WHERE (issuer_id, model, serie, number) IN (
        SELECT issuer_id, model, serie, number FROM released_numbers
         WHERE issuer_id = $1 AND model = $2 AND serie = $3
         ORDER BY number LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING number`,
    [s.issuerId, s.model, s.serie, count],
  )).rows.map((x) => x.number);
  const need = count - reused.length;
  if (need === 0) return reused.sort((a, b) => a - b);
  const { numbers, after } = takeNumbers(await lockCounter(tx, s), need);
  await writeCounter(tx, s, after);
  return [...reused, ...numbers].sort((a, b) => a - b);
}

/** The series' counter, its row locked until the caller's transaction ends (a series never used starts at 1). */
async function lockCounter(tx: Queryable, s: Series): Promise<Counter> {
  const row = (await tx.query<{ next_number: number; skips: Skip[] }>(
    `INSERT INTO number_sequences (issuer_id, model, serie, next_number) VALUES ($1, $2, $3, 1)
     ON CONFLICT (issuer_id, model, serie) DO UPDATE SET next_number = number_sequences.next_number
     RETURNING next_number, skips`,
    [s.issuerId, s.model, s.serie],
  )).rows[0]!;
  return { next: row.next_number, skips: row.skips };
}

async function writeCounter(tx: Queryable, s: Series, c: Counter): Promise<void> {
  await tx.query(
    `UPDATE number_sequences SET next_number = $4, skips = $5::jsonb WHERE issuer_id = $1 AND model = $2 AND serie = $3`,
    [s.issuerId, s.model, s.serie, c.next, JSON.stringify(c.skips)],
  );
}

/**
 * Where a series stands: the counter's next number, the numbers voided ahead of it, the released
 * numbers waiting (lowest first), and whether the series was retired (no sale is numbered on it).
 */
export interface SeriesState extends Counter {
  released: number[];
  retired: boolean;
}

/** The series' state as committed now (a series never used starts at 1). */
export async function readSeriesState(db: Queryable, s: Series): Promise<SeriesState> {
  const r = await db.query<{ next: number | null; skips: Skip[] | null; retired: boolean | null; released: number[] | null }>(
    `SELECT q.next_number AS next, q.skips, q.retired_at IS NOT NULL AS retired,
            (SELECT array_agg(number ORDER BY number) FROM released_numbers WHERE issuer_id = $1 AND model = $2 AND serie = $3) AS released
       FROM (SELECT 1) AS one LEFT JOIN number_sequences q ON q.issuer_id = $1 AND q.model = $2 AND q.serie = $3`,
    [s.issuerId, s.model, s.serie],
  );
  const row = r.rows[0];
  return { next: row?.next ?? 1, skips: row?.skips ?? [], retired: row?.retired ?? false, released: row?.released ?? [] };
}

/**
 * What an optimistic emission claims of its series (see insertNotes): the counter it built from
 * (`expected`), the released numbers it used and where the counter goes (`updated`).
 */
export interface NumberingClaim {
  series: Series;
  expected: Counter;
  updated: Counter;
  released: number[];
}

/** The guard's parameters after insertNotes' first three: $4-$11 (see NUMBERING_GUARD). */
export function numberingParams(c: NumberingClaim): unknown[] {
  const { series: s } = c;
  return [s.issuerId, s.model, s.serie, c.expected.next, c.updated.next, c.released, JSON.stringify(c.expected.skips), JSON.stringify(c.updated.skips)];
}

// $4-$6 the series, $7 the counter's expected value, $8 its new value, $9 the released numbers used,
// $10 the voided ranges ahead of the counter as read, $11 as they are after the numbers taken.
// The counter moves only from $7 and $10 on a series not retired (an upsert: a series never used has
// no row and starts at 1 with no voided range, so a new row is right only then), every released number
// used must still be there, and when the counter moves no other released number may be waiting (it
// goes first). All reads see the statement's snapshot; the upsert waits for the counter's row lock and
// rechecks the newest row (a void ahead or a retirement meanwhile changed it: FGN01, built again).
export const NUMBERING_GUARD = `bump AS (
       INSERT INTO number_sequences (issuer_id, model, serie, next_number, skips) VALUES ($4, $5, $6, $8, $11::jsonb)
       ON CONFLICT (issuer_id, model, serie) DO UPDATE SET next_number = EXCLUDED.next_number, skips = EXCLUDED.skips
         WHERE number_sequences.next_number = $7 AND number_sequences.skips = $10::jsonb AND number_sequences.retired_at IS NULL
       RETURNING 1),
     reused AS (
       DELETE FROM released_numbers WHERE issuer_id = $4 AND model = $5 AND serie = $6 AND number = ANY($9::int[])
       RETURNING 1),
     numbering AS (
       SELECT numbering_holds(
         (SELECT count(*) FROM bump) = 1
         AND (($7 = 1 AND $10::jsonb = '[]') OR EXISTS (SELECT 1 FROM number_sequences WHERE issuer_id = $4 AND model = $5 AND serie = $6))
         AND (SELECT count(*) FROM reused) = cardinality($9::int[])
         AND ($8 = $7 OR NOT EXISTS (
           SELECT 1 FROM released_numbers r
            WHERE r.issuer_id = $4 AND r.model = $5 AND r.serie = $6 AND r.number <> ALL($9::int[])))) AS ok),`;

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
 * After a range is voided its numbers must never be issued: drop them from the reuse pool; a range
 * reaching the counter moves it past the range, a range ahead of it is stepped over when the counter
 * gets there (number-skips.ts), a range behind it changes nothing. Inside the
 * caller's transaction (the counter's row is locked until it ends).
 */
export async function retireRange(tx: Queryable, s: Series, from: number, to: number): Promise<void> {
  await tx.query(
    `DELETE FROM released_numbers WHERE issuer_id = $1 AND model = $2 AND serie = $3 AND number BETWEEN $4 AND $5`,
    [s.issuerId, s.model, s.serie, from, to],
  );
  const before = await lockCounter(tx, s);
  const after = voidRange(before, from, to);
  if (after !== before) await writeCounter(tx, s, after);
}
