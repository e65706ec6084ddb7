// What `npm start` costs a new user: the sandbox started as the README starts it (`node dist/main.js
// serve`, a fresh DATA_DIR), timed from spawn to the first 200 of /healthz, and its resident memory
// (VmRSS from /proc) once ready and after BENCH_SETTLE_MS (3000) more; then the same data directory
// started again. BENCH_REPEAT (3) rounds. The yardstick, measured in the same run: a bare PGlite
// created on a fresh directory with the same extensions and settings (its initdb is most of a first
// start), so the ratio says what the gateway adds on top of its embedded database.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import { mainEntry } from './support/main-entry.js';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);

const rssMb = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const until = async (ok: () => Promise<boolean>, limitMs: number): Promise<void> => {
  const end = performance.now() + limitMs;
  while (!(await ok())) {
    if (performance.now() > end) throw new Error('the gateway did not answer /healthz in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

interface Start {
  readyMs: number;
  rssReady: number;
  rssSettled: number;
}

async function startOnce(dataDir: string): Promise<Start> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [...mainEntry(), 'serve'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: '', REDIS_URL: '', SANDBOX_RESET_AT: 'off' },
    stdio: 'ignore',
  });
  try {
    await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status === 200, 120_000);
    const readyMs = performance.now() - t0;
    const rssReady = rssMb(child.pid!);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { readyMs, rssReady, rssSettled: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

/** A bare PGlite on a fresh directory, in a child process of its own: its create time and RSS. */
async function barePglite(): Promise<{ ms: number; rss: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'fg-first-start-pglite-'));
  const script = `
    const { openDb } = await import(${JSON.stringify(join(PROJECT_ROOT, 'dist/infra/storage/db.js'))});
    const t0 = performance.now();
    const db = await openDb({ dataDir: ${JSON.stringify(dir)} });
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, ${SETTLE_MS}));
    const rss = Number(require('node:fs').readFileSync('/proc/self/status', 'utf8').match(/VmRSS:\\s+(\\d+)/)[1]) / 1024;
    console.log(JSON.stringify({ ms, rss: Math.round(rss) }));
    await db.close();`;
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const c = spawn(process.execPath, ['--input-type=commonjs', '-e', `(async () => { ${script} })().catch((e) => { console.error(e); process.exit(1); })`], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      c.stdout.on('data', (d) => (text += d));
      c.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`bare PGlite exited ${code}`))));
    });
    return JSON.parse(out.trim().split('\n').pop()!) as { ms: number; rss: number };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (mainEntry()[0] === '--import') console.warn('dist/ is stale: the gateway runs through tsx (run npm run build for the figures of npm start)');
  const rows: string[] = [];
  const firsts: number[] = [];
  const bares: number[] = [];
  for (let round = 1; round <= REPEAT; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'fg-first-start-'));
    try {
      const bare = await barePglite();
      const first = await startOnce(dir);
      const again = await startOnce(dir);
      firsts.push(first.readyMs);
      bares.push(bare.ms);
      rows.push(
        `| ${round} | ${(first.readyMs / 1000).toFixed(1)} s | ${first.rssReady} / ${first.rssSettled} MB | ${(again.readyMs / 1000).toFixed(1)} s | ${again.rssReady} / ${again.rssSettled} MB | ${(bare.ms / 1000).toFixed(1)} s, ${bare.rss} MB | ${(first.readyMs / bare.ms).toFixed(2)} |`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log('| round | first start: ready | RSS ready / settled | second start: ready | RSS ready / settled | bare PGlite (fresh dir) | first start / bare PGlite |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  console.log(`median first start ${(median(firsts) / 1000).toFixed(1)} s; median bare PGlite ${(median(bares) / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
