import type { NoteStatus } from '../../../kernel/note-status.js';
import type { Queryable } from '../../../infra/storage/db.js';

// The aggregates of GET /v1/overview over the shared notes table (every family) and the issuers'
// certificates. Every query is bounded by the account and a time window or a LIMIT, and walks an index:
// notes_account_created_cover (migration 24) for the counts, latency and rejections,
// notes_outstanding_contingency (migration 18) for contingency, issuers_account_idx for certificates.

export interface NoteWindow {
  accountId: string;
  /** Models the caller may read (65 NFC-e, 55 NF-e, 99 NFS-e). */
  models: number[];
  /** Start of the month (inclusive). */
  monthStart: Date;
  /** Start of today (inclusive). */
  dayStart: Date;
  /** End of the window (exclusive): the next day's start. */
  end: Date;
}

export interface StatusCount {
  model: number;
  status: NoteStatus;
  month: number;
  today: number;
}

/** Notes created this month and today, by model and status. */
export async function noteCountsByStatus(db: Queryable, w: NoteWindow): Promise<StatusCount[]> {
  const r = await db.query<StatusCount>(
    `SELECT model, status, count(*)::int AS month, (count(*) FILTER (WHERE created_at >= $4))::int AS today
       FROM notes
      WHERE account_id = $1 AND created_at >= $3 AND created_at < $5 AND model = ANY($2::int[])
      GROUP BY model, status ORDER BY model, status`,
    [w.accountId, w.models, w.monthStart, w.dayStart, w.end],
  );
  return r.rows;
}

export interface LatencyFigures {
  count: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

/**
 * From creation to authorization, over the notes created today that are authorized (or were, and are
 * canceled since). Notes issued in contingency (tp_emis 9) are left out: their wait is the outage's
 * length, not the authority's answer time. authorized_at is the authority's receipt time (dhRecbto:
 * whole seconds, on its clock), so a note answered within the second of its creation can come out a
 * fraction of a second "before" it: such a difference counts as 0.
 */
export async function authorizationLatency(db: Queryable, w: NoteWindow): Promise<LatencyFigures> {
  const r = await db.query<{ count: number; p50_ms: number | null; p95_ms: number | null }>(
    `SELECT count(*)::int AS count,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50_ms,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95_ms
       FROM (SELECT greatest(0, extract(epoch FROM authorized_at - created_at) * 1000) AS ms
               FROM notes
              WHERE account_id = $1 AND created_at >= $3 AND created_at < $4 AND model = ANY($2::int[])
                AND authorized_at IS NOT NULL AND tp_emis <> 9) t`,
    [w.accountId, w.models, w.dayStart, w.end],
  );
  const row = r.rows[0]!;
  const ms = (v: number | null) => (v === null ? null : Math.round(Number(v)));
  return { count: Number(row.count), p50_ms: ms(row.p50_ms), p95_ms: ms(row.p95_ms) };
}

export interface RejectionCause {
  code: string;
  /** The latest note's message under that code (messages may name an item or a value). */
  message: string;
  count: number;
  models: number[];
}

/** The most frequent rejection codes of the notes created this month, `limit` at most. */
export async function topRejectionCauses(db: Queryable, w: NoteWindow, limit: number): Promise<RejectionCause[]> {
  const r = await db.query<RejectionCause>(
    `SELECT rejection->>'code' AS code,
            (array_agg(rejection->>'message' ORDER BY created_at DESC, id DESC))[1] AS message,
            count(*)::int AS count,
            array_agg(DISTINCT model ORDER BY model) AS models
       FROM notes
      WHERE account_id = $1 AND created_at >= $3 AND created_at < $4 AND model = ANY($2::int[])
        AND status = 'rejected' AND rejection IS NOT NULL
      GROUP BY rejection->>'code'
      ORDER BY count(*) DESC, rejection->>'code'
      LIMIT $5`,
    [w.accountId, w.models, w.monthStart, w.end, limit],
  );
  return r.rows.map((row) => ({ ...row, models: row.models.map(Number) }));
}

export interface ContingencyNote {
  id: string;
  model: number;
  issuer_id: string;
  serie: number;
  number: number;
  entered_at: string | null;
  deadline_at: string | null;
}

/** The notes waiting in offline contingency, nearest deadline first, `limit` at most, and how many in all. */
export async function contingencyNotes(db: Queryable, accountId: string, models: number[], limit: number): Promise<{ total: number; notes: ContingencyNote[] }> {
  const r = await db.query<ContingencyNote & { total: number }>(
    `SELECT id, model, issuer_id, serie, number, contingency->>'entered_at' AS entered_at,
            contingency->>'deadline_at' AS deadline_at, (count(*) OVER ())::int AS total
       FROM notes
      WHERE account_id = $1 AND status = 'contingency' AND model = ANY($2::int[])
      ORDER BY contingency->>'deadline_at' NULLS LAST, id
      LIMIT $3`,
    [accountId, models, limit],
  );
  return { total: r.rows[0]?.total ?? 0, notes: r.rows.map(({ total: _total, ...note }) => note) };
}

export interface ExpiringCertificate {
  issuer_id: string;
  razao_social: string;
  cnpj: string;
  not_after: Date;
}

/** The account's issuers whose certificate expires before `until` (or has expired), soonest first. */
export async function expiringCertificates(db: Queryable, accountId: string, until: Date, limit: number): Promise<ExpiringCertificate[]> {
  const r = await db.query<ExpiringCertificate>(
    `SELECT i.id AS issuer_id, i.razao_social, i.cnpj, c.not_after
       FROM issuers i JOIN issuer_certificates c ON c.issuer_id = i.id
      WHERE i.account_id = $1 AND c.not_after < $2
      ORDER BY c.not_after, i.id
      LIMIT $3`,
    [accountId, until, limit],
  );
  return r.rows;
}
