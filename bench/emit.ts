// Emission through the whole product: HTTP POST /v1/nfce (or /v1/nfe) -> queue -> worker -> SOAP over
// mutual TLS -> simulated SEFAZ (latency 0) -> authorized; POST /v1/nfse -> worker -> REST (gzip+base64
// JSON) over mutual TLS -> simulated Sefin Nacional. BENCH_DOCS=nfce,nfe,nfse (default all three): each
// document kind is measured by its own gateway process, the notes with the same three items. The gateway (API + worker) runs in this
// process, the HTTP load client (node:http, keep-alive) in a child process.
//   0. warm-up: BENCH_WARMUP_SECONDS (3) at BENCH_RATE, not counted (JIT, connection pools)
//   1. latency: an open loop at BENCH_RATE (100) POSTs per second for BENCH_SECONDS (10): POST p50/p95/p99
//   2. throughput: BENCH_CONCURRENCY (64) POSTs in flight for BENCH_SECONDS: notes per second from
//      the first POST until the last note is authorized, and the CPU each party spent per note
//      (gateway, simulator, PostgreSQL server processes, load client; Linux /proc)
// Storage: PGlite (in memory) and PostgreSQL when reachable (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; its own schema, dropped afterwards). BENCH_STORES=pglite|pg
// picks one. The issuer's certificate is RSA-2048 like real A1 certificates.
// The simulated SEFAZ runs in its own process (npm run authority-sim, reached through SIM_URL) as a
// real authority would be, on the storage under test (its own schema on PostgreSQL);
// BENCH_SIM=inline keeps it inside the gateway process instead.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';
import { createAccount } from '../src/cli/create-account.js';
import { loadConfig } from '../src/config.js';
import { startRuntime } from '../src/runtime.js';
import { generateTestPfx } from '../test/support/generate-certificate.js';
import { freshBranchCnpj, SP_ISSUER, TEST_CSC } from '../test/support/nfce-flow.js';
import { createSchema, dropSchema, withSearchPath } from './support/cluster.js';
import { backendsPerUnit, cpuPerUnit, postgresPerUnit, readBackendCpu, readCpu } from './support/cpu-usage.js';
import { pgNoteStats, walLsn } from './support/pg-note-stats.js';
import { mainEntry } from './support/main-entry.js';

type Doc = 'nfce' | 'nfe' | 'nfse';
const LABEL: Record<Doc, string> = { nfce: 'NFC-e', nfe: 'NF-e', nfse: 'NFS-e' };

interface LoadJob {
  doc: Doc;
  base: string;
  key: string;
  issuerId: string;
  rate: number;
  seconds: number;
  warmupSeconds: number;
  concurrency: number;
}

interface LoadReport {
  latency: { sent: number; failed: number; ms: number[] };
  throughput: { sent: number; failed: number; firstAt: number; lastAt: number; ids: string[] };
}

const ITEMS = [
  { description: 'Cafe torrado 500g', quantity: 2, unit_price: 18.9, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '102' },
  { description: 'Pao frances', quantity: 0.35, unit_price: 16.5, ncm: '19052090', cfop: '5102', unit: 'KG', cst_icms: '102' },
  { description: 'Leite integral 1L', quantity: 3, unit_price: 5.49, ncm: '04012010', cfop: '5102', unit: 'UN', cst_icms: '102' },
];
// The NF-e: the same items sold to a company of the issuer's state (internal, CFOP 5102), paid by boleto.
const RECIPIENT = {
  cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: '112006603110',
  address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3509502', city: 'Campinas', uf: 'SP', cep: '13010000' },
};
// The NFS-e: a software service to a person (CPF) of the issuer's city, ISSQN at 2%, not withheld.
const SERVICE = { national_code: '010101', nbs: '115021000', description: 'Desenvolvimento de software sob encomenda', place_of_provision: { city_code: '3550308' } };
const TAKER = { cpf: '52998224725', name: 'Maria da Silva', address: { street: 'Rua das Flores', number: '100', district: 'Centro', city_code: '3550308', cep: '01001000' } };
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
// external_ref is the sale's own (one per POST of every phase): a repeated one is a 409 duplicate_external_ref.
const saleBody = (doc: Doc, issuerId: string, ref: string) =>
  JSON.stringify(
    doc === 'nfce'
      ? { issuer_id: issuerId, external_ref: ref, items: ITEMS, payment: { method: 'dinheiro', amount: 100 } }
      : doc === 'nfe'
        ? { issuer_id: issuerId, external_ref: ref, natureza_operacao: 'VENDA DE MERCADORIA', presenca: 'nao_se_aplica', destinatario: RECIPIENT, items: ITEMS, payment: { method: 'boleto', amount: 60.05 } }
        : { issuer_id: issuerId, external_ref: ref, competence_date: yesterday(), service: SERVICE, tomador: TAKER, values: { service_amount: 1500, iss: { retained: 'nao_retido' }, simples_nacional_rate: 6 } },
  );

/** The load client (child process). */
async function runLoad(job: LoadJob, phase: (name: 'latency' | 'throughput') => void): Promise<LoadReport> {
  const url = new URL(`/v1/${job.doc}`, job.base);
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(job.concurrency, job.rate) });
  let n = 0;
  // Every sale carries an Idempotency-Key, as the README tells a point of sale to send it.
  const run = randomBytes(6).toString('hex');
  let reportedFailure = false;
  const post = (): Promise<{ ok: boolean; ms: number; id?: string }> => {
    const key = `bench-${run}-${n}`;
    const body = saleBody(job.doc, job.issuerId, key);
    n++;
    const t0 = performance.now();
    return new Promise((resolve) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${job.key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'idempotency-key': key,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - t0;
            const ok = res.statusCode === 202 || res.statusCode === 201;
            if (!ok && !reportedFailure) {
              reportedFailure = true;
              console.error(`first refused POST: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 500)}`);
            }
            let id: string | undefined;
            try {
              id = (JSON.parse(Buffer.concat(chunks).toString()) as { id?: string }).id;
            } catch {
              id = undefined;
            }
            resolve({ ok, ms, id });
          });
        },
      );
      req.on('error', () => resolve({ ok: false, ms: performance.now() - t0 }));
      req.end(body);
    });
  };

  // Open loop: requests leave on schedule whatever the answers do (latency is not hidden by queueing).
  const openLoop = async (seconds: number) => {
    const out = { sent: 0, failed: 0, ms: [] as number[] };
    const interval = 1000 / job.rate;
    const start = performance.now();
    const inflight: Promise<void>[] = [];
    for (let i = 0; i < job.rate * seconds; i++) {
      const wait = start + i * interval - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      out.sent++;
      inflight.push(post().then((r) => void (r.ok ? out.ms.push(r.ms) : out.failed++)));
    }
    await Promise.all(inflight);
    return out;
  };
  await openLoop(job.warmupSeconds);
  phase('latency');
  const latency = await openLoop(job.seconds);

  // Closed loop: `concurrency` POSTs in flight for `seconds`.
  phase('throughput');
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
  agent.destroy();
  return { latency, throughput };
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The simulator CLI in a child process; resolves with what a gateway needs to reach it. */
async function simulatorProcess(token: string, database: { url: string; schema: string } | undefined): Promise<{ child: ChildProcess; url: string; caFile: string }> {
  const storage = database ? { SIM_DATABASE_URL: database.url, SIM_DATABASE_SCHEMA: database.schema } : { SIM_DATABASE_URL: '' };
  // BENCH_SIM_NODE_ARGS: node flags for the simulator alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
  const nodeArgs = (process.env.BENCH_SIM_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = own(spawn(process.execPath, [...nodeArgs, ...mainEntry(), 'authority-sim'], {
    env: { ...process.env, SIM_ADMIN_TOKEN: token, SIM_DATA_DIR: `/tmp/fg-bench-sim-${randomBytes(4).toString('hex')}`, AUTHORITY_SIM_LATENCY_MS: '0', DATABASE_URL: '', ...storage },
    stdio: ['ignore', 'pipe', 'inherit'],
  }));
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

// Child processes die with the bench, however it ends (a timeout's SIGTERM included).
const children = new Set<ChildProcess>();
const own = <T extends ChildProcess>(child: T): T => (children.add(child), child);
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));
process.once('SIGTERM', () => process.exit(143));

async function benchStore(store: 'pglite' | 'pg', doc: Doc, pgUrl: string): Promise<Record<string, string | number>> {
  const schema = `bench_${Date.now().toString(36)}`;
  const simToken = randomBytes(16).toString('hex');
  // The bench's own PostgreSQL backends carry the schema's name (application_name), so their CPU is
  // told from the other sessions of a shared server; BENCH_PG_STATS=1 also times the functions
  // (track_functions: the search triggers among them, bench/support/pg-note-stats.ts).
  // (withSearchPath appends an `options` parameter of its own: the URL is built before these are merged in.)
  const ownUrl = (url: string) => {
    const u = new URL(url);
    u.searchParams.set('application_name', schema);
    if (process.env.BENCH_PG_STATS) u.searchParams.set('options', [u.searchParams.get('options'), '-c track_functions=pl'].filter(Boolean).join(' '));
    return u.toString();
  };
  const sim = process.env.BENCH_SIM === 'inline' ? undefined : await simulatorProcess(simToken, store === 'pg' ? { url: ownUrl(pgUrl), schema: `${schema}_sim` } : undefined);
  // The gateway as `serve` composes it, with the product's defaults (DB_POOL_SIZE and
  // WORKER_CONCURRENCY pass through when set): storage opened by the runtime, a second pool for
  // the worker on PostgreSQL, the simulator reached through SIM_URL.
  if (store === 'pg') await createSchema(pgUrl, schema);
  const env: Record<string, string> = {
    GATEWAY_ENV: 'sandbox',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SIM_LATENCY_MS: '0',
    LOG_LEVEL: 'silent',
    DATA_DIR: `/tmp/fg-bench-${randomBytes(4).toString('hex')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    ...(process.env.DB_POOL_SIZE ? { DB_POOL_SIZE: process.env.DB_POOL_SIZE } : {}),
    ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
    // Where certificate keys are wrapped (bench/key-modes.ts runs this bench once per KEY_PROVIDER).
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(KEY_PROVIDER|KEY_CACHE_SECONDS|PKCS11_|AWS_KMS_|AWS_REGION)/.test(k)) as [string, string][]),
    ...(store === 'pg' ? { DATABASE_URL: ownUrl(withSearchPath(pgUrl, schema)) } : {}),
    ...(sim ? { SIM_URL: sim.url, SIM_CA_FILE: sim.caFile, SIM_ADMIN_TOKEN: simToken } : {}),
  };
  const config = loadConfig(env);
  const runtime = await startRuntime(config);
  const db = runtime.ctx.db;
  const app = runtime.app!;
  // Time inside the gateway for each POST of the latency phase (from the request's first byte to
  // the answer's last), beside what the client saw: the difference is the client's and the kernel's.
  const serverMs: number[] = [];
  let timing = false;
  app.addHook('onResponse', async (request, reply) => {
    if (timing && request.method === 'POST' && request.url === `/v1/${doc}`) serverMs.push(reply.elapsedTime);
  });
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
    if (doc === 'nfse') {
      const nfse = await app.inject({ method: 'PATCH', url: `/v1/issuers/${issuerId}`, headers: h, payload: { nfse: { municipal_registration: '12345678', simples_regime: 1, dps_series: 1 } } });
      if (nfse.statusCode !== 200) throw new Error(`NFS-e settings: ${nfse.body}`);
    }
    // Warm-up: compile schemas, open the mutual-TLS connections, fill caches.
    for (let i = 0; i < 20; i++) await app.inject({ method: 'POST', url: `/v1/${doc}`, headers: { ...h, prefer: 'wait=5' }, payload: JSON.parse(saleBody(doc, issuerId, `warm-${i}`)) });

    const job: LoadJob = {
      doc,
      base,
      key,
      issuerId,
      rate: Number(process.env.BENCH_RATE ?? 100),
      seconds: Number(process.env.BENCH_SECONDS ?? 10),
      warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 3),
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? 64),
    };
    // The gateway's event loop during the latency phase: how late it ran what was due.
    const loopDelay = monitorEventLoopDelay({ resolution: 1 });
    const client = own(fork(new URL(import.meta.url).pathname, ['--load-client'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' }));
    const pids = [process.pid, sim?.child.pid, client.pid].filter((p): p is number => p !== undefined);
    const walAtStart = store === 'pg' ? await walLsn(pgUrl) : '';
    let cpuAtLatency = readCpu(pids);
    let cpuAtThroughput = cpuAtLatency;
    const none = Promise.resolve(new Map<number, number>());
    const ownCpu = () => (store === 'pg' ? readBackendCpu(pgUrl, schema) : none);
    let ownAtLatency = none;
    let ownAtThroughput = none;
    const report = await new Promise<LoadReport>((resolve, reject) => {
      client.on('message', (m: { phase?: string; report?: LoadReport }) => {
        if (m.phase === 'latency') {
          timing = true;
          loopDelay.enable();
          cpuAtLatency = readCpu(pids);
          ownAtLatency = ownCpu();
        }
        if (m.phase === 'throughput') {
          timing = false;
          loopDelay.disable();
          cpuAtThroughput = readCpu(pids);
          ownAtThroughput = ownCpu();
        }
        if (m.report) resolve(m.report);
      });
      client.once('exit', (code) => reject(new Error(`load client exited ${code}`)));
      client.send(job);
    });
    const cpuAfterLoad = readCpu(pids);
    client.kill();

    // Until every accepted note of the throughput phase is final.
    const ids = report.throughput.ids;
    let lastFinal = Date.now();
    for (let pending = ids.length; pending > 0; ) {
      const r = await db.query<{ c: number; last: Date | null }>(
        `SELECT count(*) FILTER (WHERE status = 'processing')::int AS c, max(updated_at) AS last FROM notes WHERE id = ANY($1)`,
        [ids],
      );
      pending = r.rows[0]!.c;
      lastFinal = r.rows[0]!.last?.getTime() ?? lastFinal;
      if (pending > 0) await new Promise((res) => setTimeout(res, 100));
    }
    const cpuAtEnd = readCpu(pids);
    const [ownLatency, ownThroughput, ownEnd] = await Promise.all([ownAtLatency, ownAtThroughput, ownCpu()]);
    // BENCH_PG_STATS=1: rows written per note per table, unused indexes, WAL per note (bench/support/pg-note-stats.ts).
    if (store === 'pg' && process.env.BENCH_PG_STATS) {
      const all = (await db.query<{ c: number }>('SELECT count(*)::int AS c FROM notes')).rows[0]!.c;
      console.error(JSON.stringify({ doc, ...(await pgNoteStats(pgUrl, [schema, `${schema}_sim`], all, walAtStart, await walLsn(pgUrl))) }, null, 1));
    }
    const statuses = await db.query<{ status: string; c: number }>('SELECT status, count(*)::int AS c FROM notes WHERE id = ANY($1) GROUP BY status', [ids]);
    const lat = report.latency.ms.sort((a, b) => a - b);
    const seconds = (lastFinal - report.throughput.firstAt) / 1000;
    return {
      storage: `${store === 'pg' ? 'PostgreSQL' : 'PGlite'} ${LABEL[doc]}`,
      simulator: sim ? 'own process' : 'in gateway',
      'POST p50 ms': +pct(lat, 50).toFixed(1),
      'POST p95 ms': +pct(lat, 95).toFixed(1),
      'POST p99 ms': +pct(lat, 99).toFixed(1),
      [`at ${job.rate}/s failed`]: report.latency.failed,
      'POST in gateway p50 ms': +pct(serverMs.sort((a, b) => a - b), 50).toFixed(1),
      'POST in gateway p99 ms': +pct(serverMs, 99).toFixed(1),
      'notes accepted': ids.length,
      'authorized notes/s': +(ids.length / seconds).toFixed(0),
      'POST->authorized s': +seconds.toFixed(1),
      outcome: statuses.rows.map((s) => `${s.status} ${s.c}`).join(', '),
      [`event loop delay at ${job.rate}/s p99 ms`]: +(loopDelay.percentile(99) / 1e6).toFixed(1),
      [`event loop delay at ${job.rate}/s max ms`]: +(loopDelay.max / 1e6).toFixed(1),
      [`CPU ms/note at ${job.rate}/s gateway`]: cpuPerUnit(cpuAtLatency, cpuAtThroughput, process.pid, report.latency.sent) ?? 'n/a',
      [`CPU ms/note at ${job.rate}/s simulator`]: cpuPerUnit(cpuAtLatency, cpuAtThroughput, sim?.child.pid, report.latency.sent) ?? 'n/a',
      [`CPU ms/note at ${job.rate}/s PostgreSQL`]: store === 'pg' ? (postgresPerUnit(cpuAtLatency, cpuAtThroughput, report.latency.sent) ?? 'n/a') : 'n/a',
      [`CPU ms/note at ${job.rate}/s PostgreSQL, own backends`]: store === 'pg' ? backendsPerUnit(ownLatency, ownThroughput, report.latency.sent) : 'n/a',
      [`CPU ms/note at ${job.rate}/s load client`]: cpuPerUnit(cpuAtLatency, cpuAtThroughput, client.pid, report.latency.sent) ?? 'n/a',
      'CPU ms/note flat out gateway': cpuPerUnit(cpuAtThroughput, cpuAtEnd, process.pid, ids.length) ?? 'n/a',
      'CPU ms/note flat out simulator': cpuPerUnit(cpuAtThroughput, cpuAtEnd, sim?.child.pid, ids.length) ?? 'n/a',
      'CPU ms/note flat out PostgreSQL': store === 'pg' ? (postgresPerUnit(cpuAtThroughput, cpuAtEnd, ids.length) ?? 'n/a') : 'n/a',
      'CPU ms/note flat out PostgreSQL, own backends': store === 'pg' ? backendsPerUnit(ownThroughput, ownEnd, ids.length) : 'n/a',
      'CPU ms/note flat out load client': cpuPerUnit(cpuAtThroughput, cpuAfterLoad, client.pid, ids.length) ?? 'n/a',
      'TLS handshakes': runtime.simulator ? (await runtime.simulator.stats()).tlsHandshakes : 'n/a',
      'gateway peak RSS MB': Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await runtime.close();
    sim?.child.kill('SIGTERM');
    if (store === 'pg') {
      await dropSchema(pgUrl, schema);
      await dropSchema(pgUrl, `${schema}_sim`);
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

/**
 * Each storage is measured by a fresh gateway process: a second run in the same process would
 * inherit the first one's heap (PGlite's hundreds of MB) and its garbage collection pauses.
 */
function storeInItsOwnProcess(store: 'pglite' | 'pg', doc: Doc): Promise<Record<string, string | number>> {
  const child = own(fork(new URL(import.meta.url).pathname, ['--store', store, '--doc', doc], { execArgv: ['--import', 'tsx'], stdio: 'inherit' }));
  return new Promise((resolve, reject) => {
    child.once('message', (row: Record<string, string | number>) => resolve(row));
    child.once('exit', (code) => reject(new Error(`the ${store} run exited with ${code}`)));
  });
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
    for (const doc of (process.env.BENCH_DOCS ?? 'nfce,nfe,nfse').split(',') as Doc[]) {
      console.log(`running ${doc} on ${store} ...`);
      rows.push(await storeInItsOwnProcess(store, doc));
    }
  }
  // One line per figure: the table is too wide for a terminal with one column per figure.
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  console.table(Object.fromEntries(names.map((n) => [n, Object.fromEntries(rows.map((r) => [String(r.storage), r[n]]))])));
  process.exit(0);
}

const storeArg = process.argv.indexOf('--store');
if (storeArg > 0) {
  const store = process.argv[storeArg + 1] as 'pglite' | 'pg';
  const docArg = process.argv.indexOf('--doc');
  benchStore(store, (docArg > 0 ? process.argv[docArg + 1] : 'nfce') as Doc, process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
    .then((row) => process.send!(row, () => process.exit(0)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
} else if (process.argv.includes('--load-client')) {
  process.once('message', (job: LoadJob) => {
    runLoad(job, (phase) => process.send!({ phase }))
      .then((report) => process.send!({ report }))
      .catch((err) => {
        console.error(err);
        process.exit(1);
      });
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
