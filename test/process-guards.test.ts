// No uncaught exception or unhandled rejection may end a serving process. A real
// `main.ts serve` (and `authority-sim`) child process gets a preload that, on SIGUSR2, throws
// from a timer callback and from a zlib callback and leaves a promise rejection unhandled; the
// process must log each one, count them in /healthz/deep and keep answering requests.
// Storage: a schema of its own on TEST_DATABASE_URL, else PGlite files in a temporary directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { createSchema, dropSchema, freePort, withSearchPath } from '../bench/support/cluster.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import { mainEntry } from '../bench/support/main-entry.js';

const dbUrl = process.env.TEST_DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'fg-guards-'));
const schemas: string[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (dbUrl) for (const s of schemas) await dropSchema(dbUrl, s);
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, log: string[], ms = 90_000, proc?: ChildProcess): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) {
      throw new Error(`the process ended (${proc.exitCode ?? proc.signalCode}) before ${what}; output:\n${log.join('').slice(-3000)}`);
    }
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms; output:\n${log.join('').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function child(args: string[], env: Record<string, string>): Promise<{ proc: ChildProcess; log: string[] }> {
  const schema = `guards_${randomBytes(4).toString('hex')}`;
  if (dbUrl) {
    await createSchema(dbUrl, schema);
    schemas.push(schema);
  }
  const log: string[] = [];
  const proc = spawn(process.execPath, ['--import', join(PROJECT_ROOT, 'test/support/fault-on-signal.mjs'), ...mainEntry(), ...args], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      ...(dbUrl ? { DATABASE_URL: withSearchPath(dbUrl, schema), SIM_DATABASE_URL: dbUrl, SIM_DATABASE_SCHEMA: schema } : {}),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  proc.stdout!.on('data', (d) => log.push(String(d)));
  proc.stderr!.on('data', (d) => log.push(String(d)));
  return { proc, log };
}

const faultLines = (log: string[]) => log.join('').split('\n').filter((l) => l.includes('caught by the process guard'));

describe('process guards of the serving entry points', () => {
  it('serve: exceptions thrown in callbacks and an unhandled rejection are logged and counted, and the gateway keeps serving', async () => {
    const port = await freePort();
    const { proc, log } = await child(['serve', '--role', 'api'], {
      GATEWAY_ENV: 'sandbox',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: join(dir, 'gateway'),
      MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
      SIM_LATENCY_MS: '0-0',
      HEALTH_TOKEN: 'operator-token-of-this-test',
    });
    const base = `http://127.0.0.1:${port}`;
    const deep = async () => (await fetch(`${base}/healthz/deep`, { headers: { authorization: 'Bearer operator-token-of-this-test' } })).json() as Promise<{ process: { uncaught_exceptions: number; unhandled_rejections: number } }>;
    await until('the gateway answering /healthz', async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), log);
    expect((await deep()).process).toEqual({ uncaught_exceptions: 0, unhandled_rejections: 0 });

    proc.kill('SIGUSR2');
    const counted = await until('the faults counted in /healthz/deep', async () => {
      const p = (await deep()).process;
      return p.uncaught_exceptions === 2 && p.unhandled_rejections === 1 ? p : undefined;
    }, log, 30_000, proc);
    expect(counted).toEqual({ uncaught_exceptions: 2, unhandled_rejections: 1 });

    // Still the same process, still serving real requests.
    expect(proc.exitCode).toBeNull();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ufs = await fetch(`${base}/v1/ufs`, { headers: { authorization: 'Bearer sk_sandbox_public' } });
    expect(ufs.status).toBe(200);
    const lines = await until('the three fault lines in the log', async () => (faultLines(log).length === 3 ? faultLines(log) : undefined), log, 30_000);
    expect(lines.some((l) => l.includes('fault-on-signal: thrown from a timer callback'))).toBe(true);
    expect(lines.some((l) => l.includes('incorrect header check'))).toBe(true);
    expect(lines.some((l) => l.includes('"fault":"unhandledRejection"') && l.includes('rejected with nobody listening'))).toBe(true);
    proc.kill('SIGTERM');
  }, 180_000);

  it('authority-sim: the same faults are logged and the simulator keeps answering', async () => {
    const port = await freePort();
    const { proc, log } = await child(['authority-sim'], {
      SIM_CLIENT_AUTH: 'any-certificate',
      SIM_DATA_DIR: join(dir, 'sim'),
      AUTHORITY_SIM_HOST: '127.0.0.1',
      AUTHORITY_SIM_PORT: String(port),
      AUTHORITY_SIM_LATENCY_MS: '0',
    });
    // The simulator asks for a client certificate in the handshake; its server certificate
    // arriving is the sign of life wanted here.
    const answer = () =>
      new Promise<string>((resolve, reject) => {
        const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
          const subject = String(socket.getPeerCertificate().subject?.CN ?? 'certificate');
          socket.destroy();
          resolve(subject);
        });
        socket.on('error', reject);
      });
    await until('the simulator listening', async () => (log.join('').includes('authority simulator listening') ? await answer() : undefined), log);
    proc.kill('SIGUSR2');
    await until('the three fault lines in the log', async () => (faultLines(log).length === 3 ? true : undefined), log, 30_000, proc);
    expect(proc.exitCode).toBeNull();
    expect(await answer()).toBeTruthy();
    proc.kill('SIGTERM');
  }, 180_000);
});
