// `npm run authority-sim` as the README writes it: no SIM_ADMIN_TOKEN in the environment. The
// sandbox simulator generates a token, prints it, and its admin API answers to that token.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import { mainEntry } from '../bench/support/main-entry.js';

const dir = mkdtempSync(join(tmpdir(), 'fg-sim-cli-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => T | undefined, log: string[], proc: ChildProcess, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`the simulator ended (${proc.exitCode ?? proc.signalCode}) before ${what}; output:\n${log.join('').slice(-3000)}`);
    }
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms; output:\n${log.join('').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function adminGet(url: string, ca: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { ca: [ca], headers: { authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('npm run authority-sim without SIM_ADMIN_TOKEN', () => {
  it('starts in the sandbox with a generated admin token, printed on stdout, that its admin API accepts', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SIM_DATA_DIR: join(dir, 'sim'), AUTHORITY_SIM_LATENCY_MS: '0', LOG_LEVEL: 'warn' };
    for (const name of ['SIM_ADMIN_TOKEN', 'SIM_CLIENT_AUTH', 'GATEWAY_ENV', 'NODE_ENV', 'DATABASE_URL', 'SIM_DATABASE_URL', 'AUTHORITY_SIM_PORT', 'SIM_PORT']) delete env[name];
    const stdout: string[] = [];
    const log: string[] = [];
    const proc = spawn(process.execPath, [...mainEntry(), 'authority-sim'], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(proc);
    proc.stdout!.on('data', (d) => {
      stdout.push(String(d));
      log.push(String(d));
    });
    proc.stderr!.on('data', (d) => log.push(String(d)));

    const url = await until('the listening line', () => /authority simulator listening on (https:\/\/\S+)/.exec(stdout.join(''))?.[1], log, proc);
    const token = await until('the printed admin token', () => /admin token:\s+(\S+)/.exec(stdout.join(''))?.[1], log, proc);
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect(stdout.join('')).toContain(`SIM_ADMIN_TOKEN=${token}`);
    const ca = readFileSync(join(dir, 'sim', 'ca.pem'), 'utf8');

    const stats = await adminGet(`${url}/sim/admin/stats`, ca, token);
    expect(stats.status).toBe(200);
    expect(JSON.parse(stats.body)).toHaveProperty('authorizations');
    expect((await adminGet(`${url}/sim/admin/stats`, ca, 'not-the-token-at-all')).status).toBe(401);

    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);
});
