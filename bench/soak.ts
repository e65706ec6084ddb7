// Soak: steady NFC-e emission at a moderate rate for a long time, watching memory and latency.
// The gateway (API + worker + simulated SEFAZ with latency) runs in this process on PostgreSQL (its
// own schema, dropped afterwards); the open-loop HTTP load runs on a worker thread.
//   SOAK_RATE (20) sales per second, SOAK_MINUTES (20), SOAK_SIM_LATENCY_MS ("50-200"),
//   SOAK_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test).
// Every minute: RSS, heap used (after the minute, no forced GC), POST p50/p95/p99 of that minute,
// failed POSTs, notes still processing. At the end: the table and a verdict on memory growth
// (mean of the first third of the minutes against the last third).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import { createAccount } from '../src/cli/create-account.js';
import { loadConfig } from '../src/config.js';
import { startRuntime } from '../src/runtime.js';
import { openDb, type Db } from '../src/infra/storage/db.js';
import { generateTestPfx } from '../test/support/generate-certificate.js';
import { freshBranchCnpj, sale, SP_ISSUER, TEST_CSC } from '../test/support/nfce-flow.js';

interface LoadJob {
  base: string;
  key: string;
  issuerId: string;
  rate: number;
  minutes: number;
}

/** One minute of load, as the worker thread reports it. */
interface MinuteReport {
  minute: number;
  sent: number;
  failed: number;
  ms: number[];
}

// The tests' two-item cash sale (test/support/nfce-flow.ts), with a reference per request.
const saleBody = (issuerId: string, n: number) => JSON.stringify(sale(issuerId, { external_ref: `soak-${n}` }));

/** Open loop (worker thread): requests leave on schedule; one report per minute, then 'done'. */
async function runLoad(job: LoadJob): Promise<void> {
  const headers = { authorization: `Bearer ${job.key}`, 'content-type': 'application/json' };
  const interval = 1000 / job.rate;
  const start = performance.now();
  let n = 0;
  for (let minute = 1; minute <= job.minutes; minute++) {
    const report: MinuteReport = { minute, sent: 0, failed: 0, ms: [] };
    const inflight: Promise<void>[] = [];
    const end = start + minute * 60_000;
    for (;;) {
      const due = start + n * interval;
      if (due >= end) break;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const body = saleBody(job.issuerId, n++);
      report.sent++;
      const t0 = performance.now();
      inflight.push(
        fetch(`${job.base}/v1/nfce`, { method: 'POST', headers, body })
          .then(async (res) => {
            await res.arrayBuffer();
            if (res.status === 202 || res.status === 201) report.ms.push(performance.now() - t0);
            else report.failed++;
          })
          .catch(() => void report.failed++),
      );
    }
    // The minute's POSTs are answered (or failed) before it is reported; the next minute's schedule
    // is absolute, so a slow tail does not shift the rate.
    await Promise.all(inflight);
    parentPort!.postMessage(report);
  }
  parentPort!.postMessage('done');
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main(): Promise<void> {
  const pgUrl = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const rate = Number(process.env.SOAK_RATE ?? 20);
  const minutes = Number(process.env.SOAK_MINUTES ?? 20);
  const latency = process.env.SOAK_SIM_LATENCY_MS ?? '50-200';
  const schema = `soak_${Date.now().toString(36)}`;
  const env: Record<string, string> = {
    GATEWAY_ENV: 'sandbox',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SIM_LATENCY_MS: latency,
    LOG_LEVEL: 'silent',
    DATA_DIR: `/tmp/fg-soak-${randomBytes(4).toString('hex')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? '32',
    DB_POOL_SIZE: '20',
  };
  const config = loadConfig(env);
  console.log(`soak: ${rate} sales/s for ${minutes} min on PostgreSQL (schema ${schema}), simulator latency ${config.simulatorLatencyMs.join('-')} ms`);
  const db: Db = await openDb({ databaseUrl: pgUrl, schema, poolSize: 20 });
  const runtime = await startRuntime(config, { db, workerPollMs: 100 });
  const app = runtime.app!;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const rows: Record<string, string | number>[] = [];
  try {
    const { key } = await createAccount(db, config, 'soak');
    const h = { authorization: `Bearer ${key}` };
    const cnpj = freshBranchCnpj();
    const issuer = await app.inject({ method: 'POST', url: '/v1/issuers', headers: h, payload: { ...SP_ISSUER, cnpj } });
    if (issuer.statusCode !== 201) throw new Error(`issuer: ${issuer.body}`);
    const issuerId = issuer.json().id as string;
    const boundary = 'soak' + randomBytes(6).toString('hex');
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nsoak-password\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pfx"; filename="a1.pfx"\r\nContent-Type: application/x-pkcs12\r\n\r\n`),
      generateTestPfx(cnpj, 'soak-password'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cert = await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/certificate`, headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipart });
    if (cert.statusCode !== 201) throw new Error(`certificate upload: ${cert.body}`);
    await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/csc`, headers: h, payload: TEST_CSC });

    const job: LoadJob = { base, key, issuerId, rate, minutes };
    const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: job });
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (m: MinuteReport | 'done') => {
        if (m === 'done') return resolve();
        void (async () => {
          const mem = process.memoryUsage();
          const p = await db.query<{ c: number }>(`SELECT count(*)::int AS c FROM notes WHERE status = 'processing'`);
          const lat = m.ms.sort((a, b) => a - b);
          const row = {
            minute: m.minute,
            'RSS MB': mb(mem.rss),
            'heap used MB': mb(mem.heapUsed),
            POSTs: m.sent,
            'p50 ms': +pct(lat, 50).toFixed(1),
            'p95 ms': +pct(lat, 95).toFixed(1),
            'p99 ms': +pct(lat, 99).toFixed(1),
            errors: m.failed,
            processing: p.rows[0]!.c,
          };
          rows.push(row);
          console.log(JSON.stringify(row));
        })().catch(reject);
      });
      worker.once('error', reject);
    });
    await worker.terminate();
    // Let the last minute's row be recorded.
    while (rows.length < minutes) await new Promise((r) => setTimeout(r, 50));
    const statuses = await db.query<{ status: string; c: number }>('SELECT status, count(*)::int AS c FROM notes GROUP BY status ORDER BY status');
    console.table(rows);
    console.log(`notes: ${statuses.rows.map((s) => `${s.status} ${s.c}`).join(', ')}`);
    console.log(verdict(rows));
  } finally {
    await runtime.close();
    await db.close();
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => c.end());
  }
}

/** First third against last third of the minutes: a steady climb is reported as a suspected leak. */
function verdict(rows: Record<string, string | number>[]): string {
  if (rows.length < 3) return 'memory: too few minutes for a verdict (need at least 3)';
  const third = Math.floor(rows.length / 3);
  const lines: string[] = [];
  let leak = false;
  for (const col of ['RSS MB', 'heap used MB']) {
    const xs = rows.map((r) => r[col] as number);
    const first = mean(xs.slice(0, third));
    const last = mean(xs.slice(-third));
    const growth = (last - first) / first;
    // Steady climb: the last third above the first by more than 10 %, and the series mostly rising.
    const rises = xs.slice(1).filter((x, i) => x > xs[i]!).length;
    const climbing = growth > 0.1 && rises >= 0.6 * (xs.length - 1);
    if (climbing) leak = true;
    lines.push(`${col}: first third ${first.toFixed(1)}, last third ${last.toFixed(1)} (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %), rising in ${rises}/${xs.length - 1} minutes${climbing ? ' -> STEADY CLIMB' : ''}`);
  }
  lines.push(leak ? 'verdict: memory climbs steadily: suspected leak, to report' : 'verdict: no steady memory growth');
  return lines.join('\n');
}

if (isMainThread) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  runLoad(workerData as LoadJob).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
