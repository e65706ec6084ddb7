// `npm run bench:hostile`: the attack list against production-mode gateways, as an attacker
// would send it. Two API processes on one PostgreSQL schema and one Redis (or, with
// HOSTILE_STORAGE=pglite, one process on PGlite, which a second process cannot share). Each case runs
// as a client IP of its own and must get its expected answer; meanwhile /healthz of every process is
// asked every 25 ms over a connection of its own and must answer within HOSTILE_HEALTH_BUDGET_MS
// (200); no process may exit; after the hostile phase each process's RSS must come back to within
// HOSTILE_RSS_SLACK_MB (50) of what it was before. Exits 1 when a check fails.
// The same suite runs in `npm run test:proofs` (bench/proofs/hostile.test.ts) with short timeouts and a small flood;
// here the timeouts are the product's defaults and the flood is 3,000 requests.
// Environment: HOSTILE_STORAGE (postgres | pglite), HOSTILE_DATABASE_URL (else TEST_DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/test), HOSTILE_REDIS_URL (else TEST_REDIS_URL, else
// redis://127.0.0.1:6379), HOSTILE_FLOOD (3000), HOSTILE_ONLY (a substring of the case names).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dataUrl, logoPng } from '../test/support/logo-samples.js';
import { sale } from '../test/support/nfce-flow.js';
import { HealthMonitor } from './support/health-monitor.js';
import { HOSTILE_CASES, type HostileSettings } from './support/hostile-cases.js';
import { createAccountKey, HostileWorld } from './support/hostile-world.js';
import { Cluster, createSchema, dropSchema, sleep } from './support/cluster.js';

export interface HostileOptions {
  /** PostgreSQL server; unset = PGlite (one process). */
  databaseUrl?: string;
  redisUrl?: string;
  /** API processes (PostgreSQL only; PGlite is always one). */
  apis: number;
  settings: HostileSettings;
  /** Slowest /healthz answer allowed during any case, ms. */
  healthBudgetMs: number;
  rssSlackMb: number;
  /** How long RSS may take to come back after the hostile phase. */
  rssWaitMs: number;
  /** Run only the cases whose name contains this. */
  only?: string;
  log?: (line: string) => void;
}

export interface CaseReport {
  name: string;
  expected: string;
  got: string;
  problems: string[];
  healthMaxMs: number;
}

export interface HostileReport {
  cases: CaseReport[];
  rss: { gateway: string; startMb: number; peakMb: number; endMb: number }[];
  exits: string[];
  failures: string[];
  seconds: number;
}

export async function runHostile(o: HostileOptions): Promise<HostileReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const started = Date.now();
  const tag = randomBytes(4).toString('hex');
  const schema = `hostile_${tag}`;
  const dir = mkdtempSync(join(tmpdir(), 'fg-hostile-'));
  const s = o.settings;
  if (o.databaseUrl) await createSchema(o.databaseUrl, schema);
  const cluster = new Cluster({
    // Production mode talks to no simulator; these only satisfy the configuration's checks.
    simUrl: 'https://127.0.0.1:9',
    simCaFile: '',
    simToken: 'unused-in-production-mode',
    dataDir: dir,
    ...(o.databaseUrl ? { databaseUrl: o.databaseUrl, schema } : {}),
    ...(o.redisUrl ? { redisUrl: o.redisUrl } : {}),
    env: {
      GATEWAY_ENV: 'production',
      TRUST_PROXY: 'true',
      RATE_LIMIT_PER_MINUTE: String(s.limit),
      HTTP_REQUEST_TIMEOUT_MS: String(s.requestTimeoutMs),
      HTTP_HEADERS_TIMEOUT_MS: String(s.headersTimeoutMs),
      MAX_CONNECTIONS_PER_IP: String(s.maxConnectionsPerIp),
    },
  });
  const world = new HostileWorld(cluster);
  const cases: CaseReport[] = [];
  const rss: HostileReport['rss'] = [];
  let monitor: HealthMonitor | undefined;
  let exits: string[] = [];
  try {
    const account = await createAccountKey(cluster);
    world.ownerKey = account.key;
    world.accountId = account.accountId;
    const apis = o.databaseUrl ? Math.max(1, o.apis) : 1;
    world.gateways.push(await cluster.add('api'));
    world.gateways.push(...(await Promise.all(Array.from({ length: apis - 1 }, () => cluster.add('api')))));
    // A production account starts on the free plan (one issuer): the cases make several, as an
    // enterprise customer would (plan limits).
    const up = await world.call(world.gateways[0]!, 'POST', '/v1/billing/upgrade', { body: { plan: 'enterprise' }, headers: { 'idempotency-key': `hostile-${account.accountId}` }, key: account.key });
    if (up.status !== 200) throw new Error(`upgrade: ${up.status} ${JSON.stringify(up.json)}`);
    log(`hostile: ${world.gateways.map((g) => `${g.name} ${g.base}`).join(', ')} (production mode) on ${o.databaseUrl ? `PostgreSQL schema ${schema}` : 'PGlite'}${o.redisUrl ? ' + Redis' : ''}`);

    // Warm up every legitimate path the cases touch (JIT, pools, the logo and certificate worker
    // threads, the XSD validator of the first sale) before the baseline RSS: what the hostile phase
    // adds on top of that is what it must give back.
    const warmIssuer = await world.readyIssuer();
    for (const g of world.gateways) {
      const logo = await world.call(g, 'PATCH', `/v1/issuers/${warmIssuer}/danfe-settings`, { body: { danfeLogo: dataUrl('image/png', logoPng({ colorType: 6, bitDepth: 8 })) } });
      const sold = await world.call(g, 'POST', '/v1/nfce', { body: sale(warmIssuer, { external_ref: `warm-${g.name}` }) });
      if (logo.status !== 200 || sold.status !== 202) throw new Error(`warm-up: logo ${logo.status}, sale ${sold.status} ${JSON.stringify(sold.json)}`);
    }
    monitor = new HealthMonitor(world.gateways.map((g) => ({ name: g.name, base: g.base! })));
    monitor.start();
    await sleep(500);
    await monitor.cut();
    const start = new Map(world.gateways.map((g) => [g.name, world.rssMb(g)]));
    const peak = new Map(start);

    for (const c of HOSTILE_CASES.filter((x) => !o.only || x.name.includes(o.only))) {
      const t0 = performance.now();
      let outcome: { got: string; problems: string[] };
      try {
        world.caseKey = (await world.keyWith(['*'])).key;
        let ready: unknown;
        if (c.setup) {
          ready = await c.setup(world, s);
          const setupHealth = Math.max(0, ...[...(await monitor.cut()).values()].map((h) => h.maxMs));
          log(`     ${c.name}: setup done (/healthz max ${setupHealth.toFixed(0)} ms, not held to the budget)`);
        }
        outcome = await c.run(world, s, ready);
      } catch (err) {
        outcome = { got: `threw ${err instanceof Error ? err.message : String(err)}`, problems: ['the case threw'] };
      }
      await sleep(60); // one more health probe after the case's last answer
      const health = await monitor.cut();
      const healthMaxMs = Math.max(0, ...[...health.values()].map((h) => h.maxMs));
      const problems = [...outcome.problems];
      if (healthMaxMs > o.healthBudgetMs) {
        problems.push(`/healthz took ${healthMaxMs === Infinity ? 'forever' : `${healthMaxMs.toFixed(0)} ms`}${[...health.values()].flatMap((h) => h.failures).slice(0, 2).map((f) => ` (${f})`).join('')}`);
      }
      for (const g of world.gateways) if (g.proc?.exitCode === null) peak.set(g.name, Math.max(peak.get(g.name)!, world.rssMb(g)));
      const exits = world.exits();
      if (exits.length) problems.push(`process exit: ${exits.join('; ')}`);
      cases.push({ name: c.name, expected: c.expected, got: outcome.got, problems, healthMaxMs });
      const rssNow = world.gateways.filter((g) => g.proc?.exitCode === null).map((g) => world.rssMb(g).toFixed(0)).join('/');
      log(`${problems.length ? 'FAIL' : 'ok  '} ${c.name} -> ${outcome.got} (${((performance.now() - t0) / 1000).toFixed(1)} s, /healthz max ${healthMaxMs.toFixed(0)} ms, RSS ${rssNow} MB)${problems.length ? `\n       ${problems.join('; ')}` : ''}`);
    }

    // The memory a hostile phase took must come back (an undecoded bomb leaves nothing behind).
    const until = Date.now() + o.rssWaitMs;
    for (;;) {
      const now = world.gateways.filter((g) => g.proc?.exitCode === null).map((g) => [g.name, world.rssMb(g)] as const);
      if (now.every(([n, mb]) => mb <= start.get(n)! + o.rssSlackMb) || Date.now() > until) {
        for (const [n, mb] of now) rss.push({ gateway: n, startMb: start.get(n)!, peakMb: peak.get(n)!, endMb: mb });
        break;
      }
      await sleep(500);
    }
    exits = world.exits();
  } finally {
    await monitor?.stop();
    await cluster.stopAll();
    if (o.databaseUrl) await dropSchema(o.databaseUrl, schema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }

  const failures = [
    ...cases.filter((c) => c.problems.length).map((c) => `${c.name}: ${c.problems.join('; ')}`),
    ...rss.filter((r) => r.endMb > r.startMb + o.rssSlackMb).map((r) => `${r.gateway}: RSS ${r.startMb.toFixed(0)} -> ${r.endMb.toFixed(0)} MB`),
  ];
  const report = { cases, rss, exits, failures, seconds: (Date.now() - started) / 1000 };
  for (const r of rss) log(`${r.endMb <= r.startMb + o.rssSlackMb ? 'ok  ' : 'FAIL'} ${r.gateway} RSS ${r.startMb.toFixed(0)} MB before, ${r.peakMb.toFixed(0)} MB peak, ${r.endMb.toFixed(0)} MB after`);
  log(`     ${report.seconds.toFixed(1)} s; ${cases.length} cases; ${failures.length ? `${failures.length} check(s) failed` : 'all checks passed'}`);
  return report;
}

async function main(): Promise<void> {
  const pglite = process.env.HOSTILE_STORAGE === 'pglite';
  setTimeout(() => {
    console.error('bench:hostile: still running after 15 minutes; stopping');
    process.exit(2);
  }, 15 * 60_000).unref();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => process.exit(130));
  const report = await runHostile({
    ...(pglite
      ? {}
      : {
          databaseUrl: process.env.HOSTILE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
          redisUrl: process.env.HOSTILE_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        }),
    apis: 2,
    // The product's defaults (README, limits), except a flood large enough to matter.
    settings: { limit: 60, requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, maxConnectionsPerIp: 256, floodRequests: Number(process.env.HOSTILE_FLOOD ?? 3000) },
    healthBudgetMs: 200,
    rssSlackMb: 50,
    rssWaitMs: 60_000,
    ...(process.env.HOSTILE_ONLY ? { only: process.env.HOSTILE_ONLY } : {}),
  });
  process.exit(report.failures.length || report.exits.length ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
