// Rows and index scans per note in one bench schema (pg_stat_user_tables / pg_stat_user_indexes), for the
// cost-per-note breakdown in BENCHMARKS.md. pg_stat_statements is not preloaded on the shared server, so
// statements are counted from rows written; WAL is the server-wide pg_current_wal_lsn() delta (other
// writers on the box count too, so it is an upper bound).
import pg from 'pg';

export async function walLsn(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ l: string }>('SELECT pg_current_wal_lsn()::text AS l')).rows[0]!.l;
  } finally {
    await c.end();
  }
}

export async function pgNoteStats(url: string, schemas: string[], notes: number, walFrom: string, walTo: string): Promise<Record<string, unknown>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await new Promise((r) => setTimeout(r, 1200)); // backends flush their counters about once a second
    const wal = (await c.query<{ b: string }>('SELECT pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)::bigint::text AS b', [walFrom, walTo])).rows[0]!.b;
    const t = await c.query(
      `SELECT schemaname||'.'||relname AS rel, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del, seq_scan, idx_scan
         FROM pg_stat_user_tables WHERE schemaname = ANY($1) AND n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY n_tup_ins + n_tup_upd + n_tup_del DESC`,
      [schemas],
    );
    const i = await c.query(
      `SELECT schemaname||'.'||relname AS rel, indexrelname AS idx, idx_scan FROM pg_stat_user_indexes WHERE schemaname = ANY($1) ORDER BY idx_scan, relname`,
      [schemas],
    );
    const per = (v: unknown): number => +(Number(v) / notes).toFixed(2);
    return {
      notes,
      walBytesPerNoteServerWide: Math.round(Number(wal) / notes),
      tables: t.rows.map((r) => ({ rel: r.rel, ins: per(r.ins), upd: per(r.upd), hot: per(r.hot), del: per(r.del), seqScan: per(r.seq_scan), idxScan: per(r.idx_scan) })),
      unusedIndexes: i.rows.filter((r) => Number(r.idx_scan) === 0).map((r) => `${r.rel} ${r.idx}`),
    };
  } finally {
    await c.end();
  }
}
