// SIGTERM sent to the npm process of `npm start` (a service manager stopping it, `docker stop` with
// npm as PID 1) must stop the gateway, not leave it running without its parent. npm 11 forwards
// SIGINT and SIGTERM to its direct child only (@npmcli/run-script signal-manager: proc.kill(signal)),
// and that child is the shell running the script line. Runs the real `npm start` / `npm run
// authority-sim` from the project (dist/ is built first when stale), on a free port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema, dropSchema, freePort, withSearchPath } from '../bench/support/cluster.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';

const dbUrl = process.env.TEST_DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'fg-npm-start-'));
const groups: number[] = [];
const schemas: string[] = [];

beforeAll(() => {
  // What prestart would do, outside the measured part (a no-op when dist/ is up to date).
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  expect(build.status, build.stdout + build.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  // Whatever a failed run left behind: everything npm started shares its process group.
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (dbUrl) for (const s of schemas) await dropSchema(dbUrl, s);
  rmSync(dir, { recursive: true, force: true });
});

/** Live (not zombie) processes whose parent chain leads to `root`, from /proc. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat && stat.state !== 'Z') parent.set(Number(name), stat.ppid);
  }
  const out: number[] = [];
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

function readStat(pid: number): { state: string; ppid: number; cmd: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return { state: state!, ppid: Number(ppid), cmd };
  } catch {
    return undefined;
  }
}

const alive = (pid: number) => {
  const s = readStat(pid);
  return s !== undefined && s.state !== 'Z';
};

async function until<T>(what: string, probe: () => T | undefined, log: string[], ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms; output:\n${log.join('').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function npm(args: string[], env: Record<string, string>): Promise<{ proc: ChildProcess; log: string[] }> {
  const log: string[] = [];
  const proc = spawn('npm', args, {
    cwd: PROJECT_ROOT,
    // Its own process group, as under a service manager (and so that afterAll can clean up).
    detached: true,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', SIM_DATABASE_URL: '', LOG_LEVEL: 'warn', npm_config_update_notifier: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.push(proc.pid!);
  proc.stdout!.on('data', (d) => log.push(String(d)));
  proc.stderr!.on('data', (d) => log.push(String(d)));
  return { proc, log };
}

async function expectStopsOnSigterm(proc: ChildProcess, log: string[], program: string): Promise<void> {
  const tree = descendants(proc.pid!);
  const node = tree.filter((pid) => /^\S*node\s/.test(readStat(pid)?.cmd ?? '') && readStat(pid)!.cmd.includes(program));
  expect(node, `${program} among npm's descendants: ${tree.map((p) => readStat(p)?.cmd).join(' | ')}`).toHaveLength(1);
  const npmExited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  process.kill(proc.pid!, 'SIGTERM');

  await until('npm and every process it started to end', () => (proc.exitCode === null && proc.signalCode === null) || tree.some(alive) ? undefined : true, log, 15_000)
    .catch((err: Error) => {
      const left = tree.filter(alive).map((p) => `${p} ${readStat(p)?.cmd}`);
      throw new Error(`${err.message}\nstill running: ${left.join(', ')}`);
    });
  await npmExited;
  expect(tree.filter(alive)).toEqual([]);
}

describe.runIf(process.platform === 'linux')('SIGTERM to npm', () => {
  it('npm start: the gateway shuts down with npm, no process is left', async () => {
    const port = await freePort();
    const env: Record<string, string> = {
      GATEWAY_ENV: 'sandbox',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(dir, 'gateway'),
      MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      SIM_LATENCY_MS: '0-0',
    };
    if (dbUrl) {
      const schema = `npmstart_${randomBytes(4).toString('hex')}`;
      await createSchema(dbUrl, schema);
      schemas.push(schema);
      env.DATABASE_URL = withSearchPath(dbUrl, schema);
    }
    const { proc, log } = await npm(['start'], env);
    await until('the gateway ready', () => (log.join('').includes('ready in') ? true : undefined), log, 60_000);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // docs/guides/api.md#contract-sandbox-and-secrets: the sandbox is wiped daily at 04:00 UTC; the banner says when next.
    expect(log.join('')).toMatch(/Reset: {4}daily at 04:00 UTC \(next \d{4}-\d\d-\d\dT04:00:00Z\)/);

    await expectStopsOnSigterm(proc, log, 'dist/main.js serve');
    expect(log.join('')).toContain('shutting down (SIGTERM)');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 90_000);

  it('npm run authority-sim: the simulator stops with npm as well', async () => {
    const port = await freePort();
    const { proc, log } = await npm(['run', 'authority-sim'], {
      SIM_DATA_DIR: join(dir, 'sim'),
      AUTHORITY_SIM_HOST: '127.0.0.1',
      AUTHORITY_SIM_PORT: String(port),
      AUTHORITY_SIM_LATENCY_MS: '0',
      SIM_CLIENT_AUTH: 'any-certificate',
    });
    await until('the simulator listening', () => (log.join('').includes('authority simulator listening') ? true : undefined), log, 60_000);
    expect(existsSync(join(dir, 'sim', 'ca.pem'))).toBe(true);
    await expectStopsOnSigterm(proc, log, 'dist/main.js authority-sim');
  }, 90_000);
});
