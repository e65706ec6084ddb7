// Rows and index scans per note in one bench schema (pg_stat_user_tables / pg_stat_user_indexes), for the
// cost-per-note breakdown in BENCHMARKS.md. pg_stat_statements is not preloaded on the shared server, so
// statements are counted from rows written; WAL is the server-wide pg_current_wal_lsn() delta (other
// writers on the box count too, so it is an upper bound). Functions (the search triggers among them) are
// timed when the bench's connections set track_functions (bench/emit.ts does with BENCH_PG_STATS).
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
    // A backend flushes its counters at most once a second while busy, and an idle one after
    // PGSTAT_IDLE_INTERVAL (10 s, PostgreSQL's pgstat.c): waited out, so the last notes count too.
    await new Promise((r) => setTimeout(r, 11_000));
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
    const f = await c.query(
      `SELECT schemaname||'.'||funcname AS fn, calls, total_time, self_time FROM pg_stat_user_functions WHERE schemaname = ANY($1) ORDER BY total_time DESC`,
      [schemas],
    );
    const per = (v: unknown): number => +(Number(v) / notes).toFixed(2);
    // The first schema is the gateway's; the others (the simulator's) are counted apart.
    const gateway = t.rows.filter((r) => String(r.rel).startsWith(`${schemas[0]}.`));
    const sum = (k: 'upd' | 'hot' | 'ins', rows = gateway) => rows.reduce((a, r) => a + Number(r[k]), 0);
    const others = t.rows.filter((r) => !gateway.includes(r));
    return {
      notes,
      walBytesPerNoteServerWide: Math.round(Number(wal) / notes),
      gatewayRowWritesPerNote: per(sum('ins') + sum('upd')),
      gatewayHotShareOfUpdates: +(sum('hot') / Math.max(1, sum('upd'))).toFixed(3),
      otherSchemasRowWritesPerNote: per(sum('ins', others) + sum('upd', others)),
      functionsMsPerNote: f.rows.map((r) => ({ fn: r.fn, calls: per(r.calls), totalMs: +(Number(r.total_time) / notes).toFixed(3), selfMs: +(Number(r.self_time) / notes).toFixed(3) })),
      tables: t.rows.map((r) => ({ rel: r.rel, ins: per(r.ins), upd: per(r.upd), hot: per(r.hot), del: per(r.del), seqScan: per(r.seq_scan), idxScan: per(r.idx_scan) })),
      unusedIndexes: i.rows.filter((r) => Number(r.idx_scan) === 0).map((r) => `${r.rel} ${r.idx}`),
    };
  } finally {
    await c.end();
  }
}
