// POST latency of a sale while the authority is down: the contingency autopilot must answer
// within the caller's bound (`Prefer: wait=N`) plus 100 ms. The gateway (API + worker) and the simulated
// SEFAZ run in this process over real HTTP and mutual TLS; the load client is this process too (fetch,
// keep-alive), so its own time is inside the figures.
//   0. warm-up: BENCH_WARMUP (10) sales authorized normally (schemas compiled, TLS connections open)
//   1. outage: the simulator's outage on demand for the issuer (BENCH_OUTAGE_MODE unavailable | no-answer)
//   2. BENCH_SALES (200) POST /v1/nfce with Prefer: wait=BENCH_WAIT_SECONDS (2), BENCH_CONCURRENCY (8) in
//      flight: latency p50/p95/p99/max against the bound + 100 ms, every answer `contingency`
//   3. the outage ends: time until every contingency note is authorized and every first attempt settled
// Storage: PGlite in memory, or PostgreSQL with BENCH_STORE=pg (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; its own schema, dropped afterwards).
// The ratio: RSA-2048 signatures per second on the same box, measured in the same run.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createAccount } from '../src/cli/create-account.js';
import { loadConfig } from '../src/config.js';
import { startRuntime } from '../src/runtime.js';
import { generateTestPfx } from '../test/support/generate-certificate.js';
import { freshBranchCnpj, sale, SP_ISSUER, TEST_CSC } from '../test/support/nfce-flow.js';
import { createSchema, dropSchema, withSearchPath } from './support/cluster.js';
import { pct, rsaSignaturesPerSecond } from './support/yardstick.js';

const SALES = Number(process.env.BENCH_SALES ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const WAIT_S = Number(process.env.BENCH_WAIT_SECONDS ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
const MODE = (process.env.BENCH_OUTAGE_MODE ?? 'unavailable') as 'unavailable' | 'no-answer';
const STORE = process.env.BENCH_STORE === 'pg' ? 'pg' : 'pglite';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function main(): Promise<void> {
  const schema = `bench_cont_${Date.now().toString(36)}`;
  if (STORE === 'pg') await createSchema(PG_URL, schema);
  const config = loadConfig({
    GATEWAY_ENV: 'sandbox',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SIM_LATENCY_MS: '0',
    LOG_LEVEL: 'silent',
    DATA_DIR: `/tmp/fg-bench-${randomBytes(4).toString('hex')}`,
    MASTER_KEY: randomBytes(32).toString('base64'),
    // A no-answer outage holds each connection until the client gives up.
    AUTHORITY_RESPONSE_TIMEOUT_MS: '5000',
    ...(STORE === 'pg' ? { DATABASE_URL: withSearchPath(PG_URL, schema) } : {}),
  });
  const runtime = await startRuntime(config);
  const app = runtime.app!;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const { key } = await createAccount(runtime.ctx.db, config, 'bench');
    const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const cnpj = freshBranchCnpj();
    const issuer = await app.inject({ method: 'POST', url: '/v1/issuers', headers: h, payload: { ...SP_ISSUER, cnpj, contingency: { mode: 'offline', wait_seconds: WAIT_S } } });
    const issuerId = issuer.json().id as string;
    const boundary = 'bench' + randomBytes(6).toString('hex');
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\nbench-password\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="pfx"; filename="a1.pfx"\r\nContent-Type: application/x-pkcs12\r\n\r\n`),
      generateTestPfx(cnpj, 'bench-password'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cert = await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/certificate`, headers: { ...h, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipart });
    if (cert.statusCode !== 201) throw new Error(`certificate upload: ${cert.body}`);
    await app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/csc`, headers: h, payload: TEST_CSC });

    const post = async (wait: number) => {
      const started = performance.now();
      const res = await fetch(`${base}/v1/nfce`, { method: 'POST', headers: { ...h, prefer: `wait=${wait}` }, body: JSON.stringify(sale(issuerId)) });
      const body = (await res.json()) as { id: string; status: string };
      return { ms: performance.now() - started, status: body.status, id: body.id };
    };
    for (let i = 0; i < WARMUP; i++) {
      const r = await post(10);
      if (r.status !== 'authorized') throw new Error(`warm-up sale ${r.id} is ${r.status}`);
    }

    await runtime.simulator!.startOutage({ mode: MODE, seconds: 3600, cnpj });
    const results: Array<{ ms: number; status: string; id: string }> = [];
    let next = 0;
    const outageStart = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < SALES) {
        next++;
        results.push(await post(WAIT_S));
      }
    }));
    const outageSeconds = (performance.now() - outageStart) / 1000;
    await runtime.simulator!.endOutage(cnpj);
    const back = performance.now();
    for (;;) {
      const res = await fetch(`${base}/v1/contingency`, { headers: h });
      const data = ((await res.json()) as { data: unknown[] }).data;
      if (data.length === 0) break;
      if (performance.now() - back > 600_000) throw new Error(`still outstanding after 10 minutes: ${JSON.stringify(data)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const drainSeconds = (performance.now() - back) / 1000;

    const ms = results.map((r) => r.ms).sort((a, b) => a - b);
    const statuses = results.reduce<Record<string, number>>((acc, r) => ((acc[r.status] = (acc[r.status] ?? 0) + 1), acc), {});
    const bound = WAIT_S * 1000 + 100;
    const rsa = rsaSignaturesPerSecond();
    const p99 = pct(ms, 99);
    console.log(JSON.stringify({
      store: STORE, mode: MODE, sales: SALES, concurrency: CONCURRENCY, wait_seconds: WAIT_S,
      statuses,
      latency_ms: { p50: Math.round(pct(ms, 50)), p95: Math.round(pct(ms, 95)), p99: Math.round(p99), max: Math.round(ms[ms.length - 1]!) },
      bound_ms: bound,
      within_bound: ms.filter((x) => x <= bound).length,
      sales_per_second_during_outage: +(SALES / outageSeconds).toFixed(1),
      drain_seconds_after_outage: +drainSeconds.toFixed(1),
      rsa2048_signatures_per_second: Math.round(rsa),
      p99_over_rsa_signature_ms: +(p99 / (1000 / rsa)).toFixed(1),
    }, null, 2));
    if (p99 > bound) process.exitCode = 1;
  } finally {
    await runtime.close();
    if (STORE === 'pg') await dropSchema(PG_URL, schema);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
