// NFC-e emission through the whole product: HTTP POST /v1/nfce -> queue -> worker -> SOAP over
// mutual TLS -> simulated SEFAZ (latency 0) -> authorized. The gateway (API + worker + simulator)
// runs on the main thread, the HTTP load client on a worker thread, so each gets a core.
//   1. latency: an open loop at BENCH_RATE (100) POSTs per second for BENCH_SECONDS (10): POST p50/p95/p99
//   2. throughput: BENCH_CONCURRENCY (64) POSTs in flight for BENCH_SECONDS: notes per second from
//      the first POST until the last note is authorized
// Storage: PGlite (in memory) and PostgreSQL when reachable (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; its own schema, dropped afterwards). BENCH_STORES=pglite|pg
// picks one. The issuer's certificate is RSA-2048 like real A1 certificates.
// BENCH_SIM=process runs the simulated SEFAZ in its own process (npm run authority-sim, reached
// through SIM_URL) as a real authority would be; BENCH_SIM=inline (default) keeps it in the gateway.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import { createAccount } from '../src/cli/create-account.js';
import { loadConfig } from '../src/config.js';
import { startRuntime } from '../src/runtime.js';
import { openDb, type Db } from '../src/storage/db.js';
import { generateTestPfx } from '../test/support/generate-certificate.js';
import { freshBranchCnpj, SP_ISSUER, TEST_CSC } from '../test/support/nfce-flow.js';

interface LoadJob {
  base: string;
  key: string;
  issuerId: string;
  rate: number;
  seconds: number;
  concurrency: number;
}

interface LoadReport {
  latency: { sent: number; failed: number; ms: number[] };
  throughput: { sent: number; failed: number; firstAt: number; lastAt: number; ids: string[] };
}

const saleBody = (issuerId: string, n: number) =>
  JSON.stringify({
    issuer_id: issuerId,
    external_ref: `bench-${n}`,
    items: [
      { description: 'Cafe torrado 500g', quantity: 2, unit_price: 18.9, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102' },
      { description: 'Pao frances', quantity: 0.35, unit_price: 16.5, ncm: '19052090', cfop: '5102', unit: 'KG', cst_icms: '102' },
      { description: 'Leite integral 1L', quantity: 3, unit_price: 5.49, ncm: '04012010', cfop: '5102', unit: 'UN', cst_icms: '102' },
    ],
    payment: { method: 'dinheiro', amount: 100 },
  });

/** The load client (worker thread). */
async function runLoad(job: LoadJob): Promise<LoadReport> {
  const headers = { authorization: `Bearer ${job.key}`, 'content-type': 'application/json' };
  let n = 0;
  const post = async (): Promise<{ ok: boolean; ms: number; id?: string }> => {
    const body = saleBody(job.issuerId, n++);
    const t0 = performance.now();
    try {
      const res = await fetch(`${job.base}/v1/nfce`, { method: 'POST', headers, body });
      const json = (await res.json()) as { id?: string };
      return { ok: res.status === 202 || res.status === 201, ms: performance.now() - t0, id: json.id };
    } catch {
      return { ok: false, ms: performance.now() - t0 };
    }
  };

  // Open loop: requests leave on schedule whatever the answers do (latency is not hidden by queueing).
  const latency = { sent: 0, failed: 0, ms: [] as number[] };
  const interval = 1000 / job.rate;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < job.rate * job.seconds; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    latency.sent++;
    inflight.push(post().then((r) => void (r.ok ? latency.ms.push(r.ms) : latency.failed++)));
  }
  await Promise.all(inflight);

  // Closed loop: `concurrency` POSTs in flight for `seconds`.
  const throughput = { sent: 0, failed: 0, firstAt: Date.now(), lastAt: 0, ids: [] as string[] };
  const stopAt = performance.now() + job.seconds * 1000;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (performance.now() < stopAt) {
        throughput.sent++;
        const r = await post();
        if (r.ok && r.id) throughput.ids.push(r.id);
        else throughput.failed++;
      }
    }),
  );
  throughput.lastAt = Date.now();
  return { latency, throughput };
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The simulator CLI in a child process; resolves with what a gateway needs to reach it. */
async function simulatorProcess(token: string): Promise<{ child: ChildProcess; url: string; caFile: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('../src/main.ts', import.meta.url).pathname, 'authority-sim'], {
    env: { ...process.env, SIM_ADMIN_TOKEN: token, SIM_DATA_DIR: `/tmp/fg-bench-sim-${randomBytes(4).toString('hex')}`, AUTHORITY_SIM_LATENCY_MS: '0', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += String(d);
      const url = /listening on (https:\/\/\S+)/.exec(out)?.[1];
      const caFile = /CA file:\s+(\S+)/.exec(out)?.[1];
      if (url && caFile) resolve({ child, url, caFile });
    });
    child.once('exit', (code) => reject(new Error(`simulator exited ${code}: ${out}`)));
  });
}

async function benchStore(store: 'pglite' | 'pg', pgUrl: string): Promise<Record<string, string | number>> {
  const schema = `bench_${Date.now().toString(36)}`;
  const simToken = randomBytes(16).toString('hex');
  const sim = process.env.BENCH_SIM === 'process' ? await simulatorProcess(simToken) : undefined;
  const env: Record<string, string> = {
    GATEWAY_ENV: 'sandbox',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SIM_LATENCY_MS: '0',
    LOG_LEVEL: 'silent',
    DATA_DIR: `/tmp/fg-bench-${randomBytes(4).toString('hex')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? '64',
    DB_POOL_SIZE: '20',
    ...(sim ? { SIM_URL: sim.url, SIM_CA_FILE: sim.caFile, SIM_ADMIN_TOKEN: simToken } : {}),
  };
  const config = loadConfig(env);
  const db: Db = await openDb(store === 'pg' ? { databaseUrl: pgUrl, schema, poolSize: 20 } : {});
  // A second pool for the worker, as a deployment with both roles in one process would have.
  const workerDb = store === 'pg' ? await openDb({ databaseUrl: pgUrl, schema, poolSize: 20 }) : undefined;
  const runtime = await startRuntime(config, { db, workerDb, workerPollMs: 100 });
  const app = runtime.app!;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const { key } = await createAccount(db, config, 'bench');
    const h = { authorization: `Bearer ${key}` };
    const cnpj = freshBranchCnpj();
    const issuer = await app.inject({ method: 'POST', url: '/v1/issuers', headers: h, payload: { ...SP_ISSUER, cnpj } });
    const issuerId = issuer.json().id as string;
    const boundary = 'bench' + randomBytes(6).toString('hex');
    const pfx = generateTestPfx(cnpj, 'bench-password');
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nbench-password\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pfx"; filename="a1.pfx"\r\nContent-Type: application/x-pkcs12\r\n\r\n`),
      pfx,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cert = await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/certificate`, headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipart });
    if (cert.statusCode !== 201) throw new Error(`certificate upload: ${cert.body}`);
    await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/csc`, headers: h, payload: TEST_CSC });
    // Warm-up: compile schemas, open the mutual-TLS connections, fill caches.
    for (let i = 0; i < 20; i++) await app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...h, prefer: 'wait=5' }, payload: JSON.parse(saleBody(issuerId, i)) });

    const job: LoadJob = {
      base,
      key,
      issuerId,
      rate: Number(process.env.BENCH_RATE ?? 100),
      seconds: Number(process.env.BENCH_SECONDS ?? 10),
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? 64),
    };
    const boot = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(boot, { eval: true, workerData: job });
    const report = await new Promise<LoadReport>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();

    // Until every accepted note of the throughput phase is final.
    const ids = report.throughput.ids;
    let lastFinal = Date.now();
    for (let pending = ids.length; pending > 0; ) {
      const r = await db.query<{ c: number; last: Date | null }>(
        `SELECT count(*) FILTER (WHERE status = 'processing')::int AS c, max(updated_at) AS last FROM nfce_notes WHERE id = ANY($1)`,
        [ids],
      );
      pending = r.rows[0]!.c;
      lastFinal = r.rows[0]!.last?.getTime() ?? lastFinal;
      if (pending > 0) await new Promise((res) => setTimeout(res, 100));
    }
    const statuses = await db.query<{ status: string; c: number }>('SELECT status, count(*)::int AS c FROM nfce_notes WHERE id = ANY($1) GROUP BY status', [ids]);
    const lat = report.latency.ms.sort((a, b) => a - b);
    const seconds = (lastFinal - report.throughput.firstAt) / 1000;
    return {
      storage: store === 'pg' ? 'PostgreSQL' : 'PGlite',
      simulator: sim ? 'own process' : 'in gateway',
      'POST p50 ms': +pct(lat, 50).toFixed(1),
      'POST p95 ms': +pct(lat, 95).toFixed(1),
      'POST p99 ms': +pct(lat, 99).toFixed(1),
      [`at ${job.rate}/s failed`]: report.latency.failed,
      'notes accepted': ids.length,
      'authorized notes/s': +(ids.length / seconds).toFixed(0),
      'POST->authorized s': +seconds.toFixed(1),
      outcome: statuses.rows.map((s) => `${s.status} ${s.c}`).join(', '),
      'TLS handshakes': runtime.simulator ? (await runtime.simulator.stats()).tlsHandshakes : 'n/a',
    };
  } finally {
    await runtime.close();
    await db.close();
    await workerDb?.close();
    sim?.child.kill('SIGTERM');
    if (store === 'pg') {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => c.end());
    }
  }
}

async function pgReachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const wanted = (process.env.BENCH_STORES ?? 'pglite,pg').split(',');
  const rows: Record<string, string | number>[] = [];
  for (const store of wanted as Array<'pglite' | 'pg'>) {
    if (store === 'pg' && !(await pgReachable(pgUrl))) {
      console.log(`PostgreSQL not reachable at ${pgUrl}: skipped`);
      continue;
    }
    console.log(`running on ${store} ...`);
    rows.push(await benchStore(store, pgUrl));
  }
  console.table(rows);
  process.exit(0);
}

if (isMainThread) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  runLoad(workerData as LoadJob).then((r) => parentPort!.postMessage(r));
}
