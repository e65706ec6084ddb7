import { newId } from '../../../kernel/ids.js';
import type { Queryable } from '../../../infra/storage/db.js';
import { completeJobSql, insertJobsSql } from '../../../infra/queue/queue.js';
import type { Note, NoteContingency, NoteStatus } from '../domain/note.js';

export interface HistoryLine {
  type: string;
  at: Date;
  code?: string | null;
  message?: string | null;
  protocolo?: string | null;
}

export interface Settlement {
  noteId: string;
  /** The state the note must still be in (another worker may have settled it first). */
  from: NoteStatus;
  /** And the key it must still carry: a note switched to contingency meanwhile is another document. */
  accessKey?: string;
  fields: Partial<Pick<Note, 'status' | 'protocolo' | 'authorized_at' | 'proc_xml' | 'rejection' | 'attempts' | 'cancellation' | 'cancel_proc_xml' | 'nfse_key' | 'nfse_number'>>;
  /**
   * Keys set in the note's contingency record, merged into the row's record by the statement itself:
   * never a whole record read before the transmission, since job nfce.first-attempt may have settled
   * the first attempt meanwhile and a stale copy would turn it back to `pending`.
   */
  contingencyPatch?: Partial<NoteContingency> | undefined;
  history: HistoryLine[];
  /** Give the number back to the series (a rejection the authority did not book). */
  releaseNumber: boolean;
  /** The outbox event, written only when the note changed. */
  event: { type: string; data: unknown };
  now: Date;
  /** The job that did this work, marked done in the same statement (infra/queue/queue.ts completeJob). */
  job?: { id: string; workerId: string } | undefined;
  /** A job the change calls for, queued in the same statement (only when the note changed). */
  followUp?: { kind: string; payload: object; dedupeKey: string; maxAttempts: number } | undefined;
  /**
   * The billing period (`YYYY-MM`, platform/billing/period.ts) this authorization is metered in.
   * Given when the note becomes authorized (or is found authorized and canceled already): the
   * statement then writes its usage row and bumps the period's total.
   */
  meterPeriod?: string | undefined;
}

/** The usage kind of a note's model (migration 22: nfce, nfe, nfse). */
const USAGE_KIND_SQL = `CASE u.model WHEN 65 THEN 'nfce' WHEN 55 THEN 'nfe' ELSE 'nfse' END`;

/** The period total a settlement's usage row just bumped (null: nothing metered, or counted before). */
export interface Metered {
  account_id: string;
  period: string;
  kind: 'nfce' | 'nfe' | 'nfse';
  count: number;
}

/**
 * A note's state change, its history lines, the freed number and its outbox event in ONE statement
 * (data-modifying CTEs are atomic without BEGIN/COMMIT): the worker's hot path is a single round
 * trip, and nothing is written unless the note was still in the expected state (the job, when
 * given, is done either way: the note is final). Returns whether the note changed and whether its
 * outbox event queued a fan-out job (the events trigger's condition).
 */
export async function settleNote(db: Queryable, s: Settlement): Promise<{ changed: boolean; fanout: boolean; metered: Metered | null }> {
  if (s.history.length === 0) throw new Error('a settlement records at least one history line');
  const entries = Object.entries(s.fields);
  const params: unknown[] = [s.noteId, s.from, s.now];
  const p = (v: unknown) => {
    params.push(v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v);
    return `$${params.length}`;
  };
  const sets = entries.map(([k, v]) => `${k} = ${p(v)}`).concat('updated_at = $3');
  if (s.contingencyPatch) sets.push(`contingency = coalesce(contingency, '{}'::jsonb) || ${p(s.contingencyPatch)}::jsonb`);
  const history = s.history
    .map((h) => `(${p(newId('evt'))}, ${p(h.type)}, ${p(h.at)}::timestamptz, ${p(h.code ?? null)}, ${p(h.message ?? null)}, ${p(h.protocolo ?? null)})`)
    .join(', ');
  const eventType = p(s.event.type);
  const sql = `
    WITH u AS (
      UPDATE notes SET ${sets.join(', ')} WHERE id = $1 AND status = $2${s.accessKey === undefined ? '' : ` AND access_key = ${p(s.accessKey)}`}
      RETURNING id, account_id, issuer_id, model, serie, number),
    h AS (
      INSERT INTO note_history (id, note_id, type, at, code, message, protocolo)
      SELECT v.id, u.id, v.type, v.at, v.code, v.message, v.protocolo
        FROM u CROSS JOIN (VALUES ${history}) AS v (id, type, at, code, message, protocolo)),
    r AS (
      INSERT INTO released_numbers (issuer_id, model, serie, number, released_at)
      SELECT u.issuer_id, u.model, u.serie, u.number, $3 FROM u WHERE ${p(s.releaseNumber)}::boolean
      ON CONFLICT DO NOTHING),
    e AS (
      INSERT INTO events (id, account_id, type, subject_type, subject_id, data, created_at)
      SELECT ${p(newId('evt'))}, u.account_id, ${eventType}, split_part(${eventType}, '.', 1), u.id, ${p(s.event.data)}::jsonb, $3 FROM u)${
    s.followUp
      ? `,
    f AS (
      ${insertJobsSql({ id: p(newId('job')), kind: p(s.followUp.kind), payload: `${p(s.followUp.payload)}::jsonb`, runAt: '$3', maxAttempts: p(s.followUp.maxAttempts), dedupeKey: p(s.followUp.dedupeKey), at: '$3', from: 'u' })})`
      : ''
  }${
    s.meterPeriod !== undefined
      ? `,
    m AS (
      INSERT INTO billing_usage (subject_id, kind, account_id, issuer_id, period, at)
      SELECT u.id, ${USAGE_KIND_SQL}, u.account_id, u.issuer_id, ${p(s.meterPeriod)}, $3 FROM u
      ON CONFLICT DO NOTHING
      RETURNING account_id, period, kind),
    t AS (
      INSERT INTO billing_usage_totals (account_id, period, kind, count)
      SELECT account_id, period, kind, 1 FROM m
      ON CONFLICT (account_id, period, kind) DO UPDATE SET count = billing_usage_totals.count + 1
      RETURNING account_id, period, kind, count)`
      : ''
  }${
    s.job
      ? `,
    d AS (
      ${completeJobSql(p(s.job.id), p(s.job.workerId), '$3')})`
      : ''
  }
    SELECT count(*)::int AS changed, coalesce(bool_or(events_fanout_wanted(u.account_id, ${eventType})), false) AS fanout${
      s.meterPeriod !== undefined ? ', (SELECT row_to_json(t) FROM t LIMIT 1) AS metered' : ''
    } FROM u`;
  const r = await db.query<{ changed: number; fanout: boolean; metered?: Metered | string | null }>(sql, params);
  const row = r.rows[0]!;
  const metered = typeof row.metered === 'string' ? (JSON.parse(row.metered) as Metered) : (row.metered ?? null);
  return { changed: row.changed === 1, fanout: row.fanout, metered };
}
