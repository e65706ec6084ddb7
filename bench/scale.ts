// `npm run bench:scale`: the gateway at scale on one machine. A standalone simulated
// SEFAZ (in this process), 2 API processes (`serve --role api`) and 2 worker processes
// (`serve --role worker`) on one PostgreSQL schema and one Redis.
//   1. throughput: SCALE_THROUGHPUT_SALES sales through 1 API process, then through 2 alternately;
//   2. SCALE_SALES sales, each sent to both APIs at once with the same Idempotency-Key, then
//      SCALE_CANCELS of them cancelled through both APIs at once;
//   3. rate limits: 2 more API processes with RATE_LIMIT_PER_MINUTE=SCALE_RATE_LIMIT hit from one
//      IP (X-Forwarded-For, TRUST_PROXY) within one window: the total accepted must be the limit.
// Checks and prints: every note final, one authorization per sale, numbers gap-free per series, one
// note per key, no 5xx, the shared rate limit. Exits 1 when a check fails.
// Environment: SCALE_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test),
// SCALE_REDIS_URL (else TEST_REDIS_URL, else redis://127.0.0.1:6379), SCALE_SALES (400),
// SCALE_CANCELS (40), SCALE_THROUGHPUT_SALES (300), SCALE_CONCURRENCY (16), SCALE_RATE_LIMIT (30),
// SCALE_SIM_LATENCY_MS (5-40), SCALE_TIMEOUT_S (300).
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import type { Db } from '../src/infra/storage/db.js';
import { call, Cluster, createSchema, dropSchema, listNotes, readyIssuer, sale, sendSale, sleep, waitSettled, type Gateway, type Json } from './support/cluster.js';

export interface ScaleOptions {
  databaseUrl: string;
  /** Without it the rate-limit phase is skipped (counters would be per process). */
  redisUrl?: string;
  sales: number;
  cancels: number;
  /** Sales per throughput phase; 0 skips them. */
  throughputSales: number;
  concurrency: number;
  rateLimit: number;
  simLatency: string;
  /** The simulator's database handle (tests share theirs); default: its own schema on databaseUrl. */
  simDb?: Db;
  timeoutMs: number;
  log?: (line: string) => void;
}

export interface ThroughputFigure {
  apis: number;
  sales: number;
  acceptedPerSecond: number;
  finalPerSecond: number;
  seconds: number;
}

export interface ScaleReport {
  sales: number;
  notes: number;
  /** Keys whose two concurrent requests (one per API) named different notes. */
  keysWithTwoNotes: number;
  notFinal: string[];
  /** Notes the simulator authorized a number of times other than once. */
  authorizationMismatches: string[];
  /** Per series: numbers missing from 1..max or repeated. */
  gaps: string[];
  cancelsRequested: number;
  canceled: number;
  cancelAnswers: Record<string, number>;
  fiveHundreds: number;
  rateLimit: { limit: number; sent: number; accepted: number; limited: number; other: number } | null;
  throughput: ThroughputFigure[];
  seconds: number;
  failures: string[];
}

export async function runScale(o: ScaleOptions): Promise<ScaleReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const started = Date.now();
  const tag = randomBytes(4).toString('hex');
  const schema = `scale_${tag}`;
  const simSchema = `scale_sim_${tag}`;
  const dir = mkdtempSync(join(tmpdir(), 'fg-scale-'));
  const token = 'scale-admin-token-' + randomBytes(8).toString('hex');
  let standalone: StandaloneSimulator | undefined;
  let cluster: Cluster | undefined;
  await createSchema(o.databaseUrl, schema);
  const stats = { retries: 0, fivexx: 0 };
  try {
    standalone = await startStandaloneSimulator(
      {
        SIM_ADMIN_TOKEN: token,
        SIM_DATA_DIR: join(dir, 'sim'),
        AUTHORITY_SIM_LATENCY_MS: o.simLatency,
        AUTHORITY_SIM_HOST: '127.0.0.1',
        AUTHORITY_SIM_PORT: '0',
        ...(o.simDb ? {} : { SIM_DATABASE_URL: o.databaseUrl, SIM_DATABASE_SCHEMA: simSchema }),
      },
      o.simDb,
    );
    cluster = new Cluster({
      simUrl: standalone.sim.url,
      simCaFile: standalone.caFile,
      simToken: token,
      dataDir: dir,
      databaseUrl: o.databaseUrl,
      schema,
      ...(o.redisUrl ? { redisUrl: o.redisUrl } : {}),
    });
    // The first API process migrates the schema; the others start together.
    const api1 = await cluster.add('api');
    const [api2] = await Promise.all([cluster.add('api'), cluster.add('worker'), cluster.add('worker')]);
    const apis = [api1, api2!];
    log(`cluster: simulator ${standalone.sim.url}; ${apis.map((a) => `${a.name} ${a.base}`).join(', ')}; 2 workers; schema ${schema}${o.redisUrl ? '; Redis' : ''}`);

    const deadline = started + o.timeoutMs;
    const left = () => Math.max(5_000, deadline - Date.now());

    // 1. Throughput with 1 and with 2 API processes (each on an issuer of its own).
    const throughput: ThroughputFigure[] = [];
    for (const n of o.throughputSales > 0 ? [1, 2] : []) {
      const issuerId = await readyIssuer(api1.base!);
      const bases = apis.slice(0, n).map((a) => a.base!);
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: o.concurrency }, async () => {
          while (next < o.throughputSales) {
            const i = next++;
            await sendSale(() => [bases[i % bases.length]!], `tp${n}-${tag}-${i}`, sale(issuerId, { external_ref: `tp${n}-${tag}-${i}` }), stats);
          }
        }),
      );
      const accepted = (performance.now() - t0) / 1000;
      await waitSettled(() => api1.base!, issuerId, left());
      const seconds = (performance.now() - t0) / 1000;
      const fig = { apis: n, sales: o.throughputSales, acceptedPerSecond: o.throughputSales / accepted, finalPerSecond: o.throughputSales / seconds, seconds };
      throughput.push(fig);
      log(`throughput, ${n} API process${n > 1 ? 'es' : ''}: ${fig.sales} sales accepted at ${fig.acceptedPerSecond.toFixed(1)}/s, final at ${fig.finalPerSecond.toFixed(1)}/s (${seconds.toFixed(1)} s)`);
    }

    // 2. Every sale to both APIs at once with one Idempotency-Key.
    const issuerId = await readyIssuer(api2!.base!);
    const byKey = new Map<string, Set<string>>();
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (next < o.sales) {
          const i = next++;
          const key = `scale-${tag}-${i}`;
          const body = sale(issuerId, { external_ref: key });
          // Each request starts at a different API; a retry moves to the other.
          const ids = await Promise.all(
            [0, 1].map((k) =>
              sendSale(() => (k === 0 ? [apis[0]!.base!, apis[1]!.base!] : [apis[1]!.base!, apis[0]!.base!]), key, body, stats),
            ),
          );
          byKey.set(key, new Set(ids));
        }
      }),
    );
    log(`${o.sales} sales, each sent to both APIs at once: accepted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await waitSettled(() => api1.base!, issuerId, left());

    // Cancellations: the same note cancelled through both APIs at once.
    const authorizedIds = [...byKey.values()].map((s) => [...s][0]!);
    const toCancel = authorizedIds.slice(0, o.cancels);
    const cancelAnswers: Record<string, number> = {};
    let cursor = 0;
    await Promise.all(
      Array.from({ length: Math.min(8, o.concurrency) }, async () => {
        while (cursor < toCancel.length) {
          const id = toCancel[cursor++]!;
          const answers = await Promise.all(
            apis.map((a) =>
              call(a.base!, 'POST', `/v1/nfce/${id}/cancel`, { reason: 'Venda cancelada a pedido do cliente (teste de escala)' }).then(
                (r) => r.status,
                () => -1,
              ),
            ),
          );
          for (const s of answers) {
            cancelAnswers[s] = (cancelAnswers[s] ?? 0) + 1;
            if (s >= 500) stats.fivexx++;
          }
        }
      }),
    );
    await waitSettled(() => api1.base!, issuerId, left());
    const notes = await listNotes(api1.base!, issuerId);

    // 3. Rate limits shared through Redis.
    let rateLimit: ScaleReport['rateLimit'] = null;
    if (o.redisUrl) rateLimit = await rateLimitPhase(cluster, o.rateLimit, log);
    else log('rate limits: skipped (no Redis URL)');

    // Checks.
    const keysWithTwoNotes = [...byKey.values()].filter((s) => s.size !== 1).length;
    const ids = new Set([...byKey.values()].flatMap((s) => [...s]));
    const cancelSet = new Set(toCancel);
    const notFinal = notes
      .filter((n) => n.status !== (cancelSet.has(n.id) ? 'canceled' : 'authorized') || n.cancellation_pending)
      .map((n) => `${n.id} ${n.status}${n.cancellation_pending ? ' (cancellation pending)' : ''} ${JSON.stringify(n.rejection ?? null)}`);
    const counts = await Promise.all(notes.map(async (n) => [n, await standalone!.sim.authorizationsFor(n.access_key)] as const));
    const authorizationMismatches = counts.filter(([, c]) => c !== 1).map(([n, c]) => `${n.id} authorized ${c} times`);
    const gaps = gapsPerSeries(notes);
    const report: ScaleReport = {
      sales: o.sales,
      notes: notes.length,
      keysWithTwoNotes,
      notFinal,
      authorizationMismatches,
      gaps,
      cancelsRequested: toCancel.length,
      canceled: notes.filter((n) => n.status === 'canceled').length,
      cancelAnswers,
      fiveHundreds: stats.fivexx,
      rateLimit,
      throughput,
      seconds: (Date.now() - started) / 1000,
      failures: [],
    };
    const f = report.failures;
    if (notes.length !== o.sales) f.push(`${notes.length} notes for ${o.sales} sales`);
    if (ids.size !== o.sales || !notes.every((n) => ids.has(n.id))) f.push('the notes listed are not the notes the keys named');
    if (new Set(notes.map((n) => n.external_ref)).size !== notes.length) f.push('two notes for one sale');
    if (keysWithTwoNotes) f.push(`${keysWithTwoNotes} keys named two notes across the API processes`);
    if (notFinal.length) f.push(`${notFinal.length} notes not in their final state: ${notFinal.slice(0, 5).join('; ')}`);
    if (authorizationMismatches.length) f.push(`${authorizationMismatches.length} authorization counts != 1: ${authorizationMismatches.slice(0, 5).join('; ')}`);
    if (gaps.length) f.push(`numbering: ${gaps.join('; ')}`);
    if (report.canceled !== toCancel.length) f.push(`${report.canceled} canceled, ${toCancel.length} requested`);
    if (Object.keys(cancelAnswers).some((s) => s !== '200' && s !== '202')) f.push(`cancel answers ${JSON.stringify(cancelAnswers)}`);
    if (stats.fivexx) f.push(`${stats.fivexx} answers were 5xx`);
    if (rateLimit && rateLimit.accepted !== rateLimit.limit) f.push(`rate limit ${rateLimit.limit}/min, but ${rateLimit.accepted} accepted across 2 API processes`);
    if (rateLimit && rateLimit.other) f.push(`rate-limit phase: ${rateLimit.other} answers neither 200 nor 429`);
    printReport(report, log);
    return report;
  } finally {
    await cluster?.stopAll();
    await standalone?.close();
    await dropSchema(o.databaseUrl, schema).catch(() => undefined);
    if (!o.simDb) await dropSchema(o.databaseUrl, simSchema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two API processes with a low limit, one client IP, both hit at once within one window. */
async function rateLimitPhase(cluster: Cluster, limit: number, log: (l: string) => void): Promise<NonNullable<ScaleReport['rateLimit']>> {
  const env = { RATE_LIMIT_PER_MINUTE: String(limit), TRUST_PROXY: 'true' };
  const pair: Gateway[] = await Promise.all([cluster.add('api', env), cluster.add('api', env)]);
  // A client IP of this run only: Redis counters are per IP and window, shared with other runs.
  const ip = `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  // Fixed one-minute windows: start with at least 10 s of the window left so all hits count in one.
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 50_000) await sleep(60_000 - intoWindow + 200);
  const sent = limit * 3;
  const statuses = await Promise.all(
    Array.from({ length: sent }, (_, i) =>
      call(pair[i % 2]!.base!, 'GET', '/v1/nfce?limit=1', undefined, { 'x-forwarded-for': ip }).then(
        (r) => r.status,
        () => -1,
      ),
    ),
  );
  await Promise.all(pair.map((g) => cluster.kill(g)));
  const r = {
    limit,
    sent,
    accepted: statuses.filter((s) => s === 200).length,
    limited: statuses.filter((s) => s === 429).length,
    other: statuses.filter((s) => s !== 200 && s !== 429).length,
  };
  log(`rate limits: ${sent} requests from ${ip} to 2 API processes (limit ${limit}/min): ${r.accepted} accepted, ${r.limited} answered 429`);
  return r;
}

/** For each series: numbers missing from 1..max, and numbers used twice. */
export function gapsPerSeries(notes: Json[]): string[] {
  const bySerie = new Map<number, number[]>();
  for (const n of notes) bySerie.set(n.serie, [...(bySerie.get(n.serie) ?? []), n.number]);
  const out: string[] = [];
  for (const [serie, numbers] of bySerie) {
    const seen = new Set<number>();
    const twice = numbers.filter((x) => (seen.has(x) ? true : (seen.add(x), false)));
    const max = Math.max(...numbers);
    const missing = Array.from({ length: max }, (_, i) => i + 1).filter((x) => !seen.has(x));
    if (twice.length) out.push(`series ${serie}: numbers used twice ${twice.slice(0, 10).join(',')}`);
    if (missing.length) out.push(`series ${serie}: missing ${missing.slice(0, 10).join(',')}${missing.length > 10 ? ` (+${missing.length - 10})` : ''}`);
  }
  return out;
}

function printReport(r: ScaleReport, log: (l: string) => void): void {
  const ok = (b: boolean) => (b ? 'ok  ' : 'FAIL');
  log('');
  log(`${ok(r.notFinal.length === 0)} every accepted note final: ${r.notes - r.notFinal.length}/${r.notes}`);
  log(`${ok(r.authorizationMismatches.length === 0)} one authorization per sale at the simulator: ${r.notes - r.authorizationMismatches.length}/${r.notes}`);
  log(`${ok(r.gaps.length === 0)} numbers gap-free per series${r.gaps.length ? ': ' + r.gaps.join('; ') : ''}`);
  log(`${ok(r.keysWithTwoNotes === 0 && r.notes === r.sales)} idempotency across processes: ${r.sales} keys sent to both APIs at once -> ${r.notes} notes`);
  log(`${ok(r.canceled === r.cancelsRequested)} cancellations through both APIs at once: ${r.canceled}/${r.cancelsRequested} canceled; answers ${JSON.stringify(r.cancelAnswers)}`);
  log(`${ok(r.fiveHundreds === 0)} 5xx answers: ${r.fiveHundreds}`);
  if (r.rateLimit) log(`${ok(r.rateLimit.accepted === r.rateLimit.limit)} rate limit shared: ${r.rateLimit.accepted} accepted of ${r.rateLimit.sent} (limit ${r.rateLimit.limit}/min, 2 processes)`);
  for (const t of r.throughput) log(`     throughput with ${t.apis} API process${t.apis > 1 ? 'es' : ''}: ${t.acceptedPerSecond.toFixed(1)} sales/s accepted, ${t.finalPerSecond.toFixed(1)} sales/s authorized`);
  log(`     ${r.seconds.toFixed(1)} s in all; ${r.failures.length ? `${r.failures.length} check(s) failed` : 'all checks passed'}`);
}

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(v) || v < 0) throw new Error(`${name} must be a number`);
  return v;
};

async function main(): Promise<void> {
  const timeoutMs = num('SCALE_TIMEOUT_S', 300) * 1000;
  // Bounded: whatever happens, stop (the exit hook kills the children).
  setTimeout(() => {
    console.error(`bench:scale: still running after ${timeoutMs / 1000} s; stopping`);
    process.exit(2);
  }, timeoutMs + 60_000).unref();
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => process.exit(130));
  const report = await runScale({
    databaseUrl: process.env.SCALE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.SCALE_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    sales: num('SCALE_SALES', 400),
    cancels: num('SCALE_CANCELS', 40),
    throughputSales: num('SCALE_THROUGHPUT_SALES', 300),
    concurrency: num('SCALE_CONCURRENCY', 16),
    rateLimit: num('SCALE_RATE_LIMIT', 30),
    simLatency: process.env.SCALE_SIM_LATENCY_MS ?? '5-40',
    timeoutMs,
  });
  process.exit(report.failures.length ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
