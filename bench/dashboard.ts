// The dashboard's weight and first load: what a browser downloads before the first screen
// (the entry script, its preloaded chunks and the stylesheet) raw, gzip and brotli; every built file;
// then, in headless Chromium against the gateway in this process (sandbox, embedded PGlite), the
// time from navigation to the first screen being usable, with a cold cache each time:
//   signed out: /dashboard/ -> the sign-in form;   signed in: /dashboard/ -> the overview's heading,
// on loopback and under Lighthouse's mobile throttling (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up,
// 4x CPU slowdown). BENCH_RUNS (15) loads per case, p50 and p95. The ratio: RSA-2048 signatures per
// second measured in the same run. Run: npm run bench:dashboard (builds the dashboard when stale).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { DASHBOARD_DIR } from '../src/http/dashboard.js';
import { startRuntime } from '../src/runtime.js';
import { pct, rsaSignaturesPerSecond } from './support/yardstick.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

function sizes(files: string[]) {
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const f of files) {
    const body = readFileSync(join(DASHBOARD_DIR, f));
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    brotli += brotliCompressSync(body).length;
  }
  return { raw, gzip, brotli };
}

function weights() {
  const html = readFileSync(join(DASHBOARD_DIR, 'index.html'), 'utf8');
  // What index.html makes the browser fetch before the app runs.
  const initial = [...html.matchAll(/(?:src|href)="\/dashboard\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  // The built files themselves, not their .br/.gz copies.
  const all = readdirSync(join(DASHBOARD_DIR, 'assets')).filter((f) => !/\.(br|gz)$/.test(f)).map((f) => `assets/${f}`);
  const largest = all
    .filter((f) => f.endsWith('.js') && !initial.includes(f))
    .map((f) => ({ f, size: statSync(join(DASHBOARD_DIR, f)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 3);
  return { initial: sizes(['index.html', ...initial]), initialFiles: initial.length + 1, all: sizes(all), allFiles: all.length, largest };
}

async function firstLoads(browser: Browser, origin: string, session: { session_token: string; refresh_token: string } | null, throttled: boolean) {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } }); // a cold cache each time
    if (session) {
      await context.addCookies([{ name: '__Host-session', value: session.session_token, domain: new URL(origin).hostname, path: '/', secure: true, httpOnly: true, sameSite: 'Lax' }]);
    }
    const page = await context.newPage();
    if (throttled) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    }
    const started = performance.now();
    await page.goto(`${origin}/dashboard/`, { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
    samples.push(performance.now() - started);
    await context.close();
  }
  samples.sort((a, b) => a - b);
  return { p50: pct(samples, 50), p95: pct(samples, 95) };
}

async function main() {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const w = weights();
  console.log(`initial load: ${w.initialFiles} files, ${kb(w.initial.raw)} raw, ${kb(w.initial.gzip)} gzip, ${kb(w.initial.brotli)} brotli`);
  console.log(`all files:    ${w.allFiles} files, ${kb(w.all.raw)} raw, ${kb(w.all.gzip)} gzip, ${kb(w.all.brotli)} brotli`);
  console.log(`largest lazy chunks: ${w.largest.map((l) => `${l.f} ${kb(l.size)}`).join(', ')}`);

  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const origin = `http://localhost:${port}`;
  const config = loadConfig({
    GATEWAY_ENV: 'sandbox',
    PORT: String(port),
    PUBLIC_BASE_URL: origin,
    LOG_LEVEL: 'silent',
    SIM_LATENCY_MS: '0',
    // Every load asks GET /v1/auth/session (and, signed out, GET /v1/auth/methods) from one address:
    // the per-address limits would answer 429 within the bench's minute.
    RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    SANDBOX_RESET_AT: 'off',
    DATA_DIR: `/tmp/fg-bench-dashboard-${randomBytes(4).toString('hex')}`,
  });
  const runtime = await startRuntime(config);
  await runtime.app!.listen({ host: '127.0.0.1', port });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const email = `bench.${randomBytes(4).toString('hex')}@example.com`;
    const signup = await fetch(`${origin}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery staple' }) });
    const session = (await signup.json()) as { session_token: string; refresh_token: string };
    if (!session.session_token) throw new Error(`signup: ${signup.status} ${JSON.stringify(session)}`);
    // The e-mail confirmed straight in the database: the bench measures pages, not the mail flow.
    await runtime.ctx.db.query('UPDATE users SET email_verified_at = now() WHERE email = $1', [email]);
    const rsa = rsaSignaturesPerSecond();
    for (const throttled of [false, true]) {
      const out = await firstLoads(browser, origin, null, throttled);
      const inn = await firstLoads(browser, origin, session, throttled);
      const label = throttled ? 'mobile throttling' : 'loopback';
      console.log(`first load (${label}), ${RUNS} runs: sign-in form p50 ${out.p50.toFixed(0)} ms p95 ${out.p95.toFixed(0)} ms; overview p50 ${inn.p50.toFixed(0)} ms p95 ${inn.p95.toFixed(0)} ms`);
      console.log(`  = ${((out.p50 / 1000) * rsa).toFixed(0)} and ${((inn.p50 / 1000) * rsa).toFixed(0)} RSA-2048 signatures' worth (${rsa.toFixed(0)} signatures/s on this machine in this run)`);
    }
  } finally {
    await browser.close();
    await runtime.close();
  }
}

await main();
process.exit(0);
