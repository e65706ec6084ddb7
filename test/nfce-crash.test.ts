// Crash test (issue 5): while 300 sales are being emitted, the gateway process is killed with
// SIGKILL at random moments (at least 5 times) and restarted. The simulated SEFAZ lives in this test
// process, so it outlives every kill and remembers what it authorized. Afterwards: every accepted
// sale is final, the authority authorized each one exactly once, and the numbers have no gap.
// Storage of the gateway: the PostgreSQL server when TEST_DATABASE_URL is set (own schema), else
// PGlite files in a temporary DATA_DIR (which must survive SIGKILL too).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { PROJECT_ROOT } from '../src/paths.js';
import { certFile } from './issuers-harness.js';
import { getTestDb } from './support/db.js';
import { freshBranchCnpj, sale, SP_ISSUER, TEST_CSC } from './support/nfce-flow.js';

const SALES = 300;
const MIN_KILLS = 5;
const TOKEN = 'crash-admin-token-' + randomBytes(8).toString('hex');
const dir = mkdtempSync(join(tmpdir(), 'fg-crash-'));
const dbUrl = process.env.TEST_DATABASE_URL;
const schema = `crash_${randomBytes(4).toString('hex')}`;
const auth = { authorization: 'Bearer sk_sandbox_public' };

let standalone: StandaloneSimulator;
let port: number;
let child: ChildProcess | undefined;
const childLog: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

function gatewayEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GATEWAY_ENV: 'sandbox',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: join(dir, 'gateway'),
    MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    SIM_URL: standalone.sim.url,
    SIM_CA_FILE: standalone.caFile,
    SIM_ADMIN_TOKEN: TOKEN,
    AUTHORITY_RESPONSE_TIMEOUT_MS: '3000',
    IDEMPOTENCY_LOCK_SECONDS: '5',
    WORKER_CONCURRENCY: '16',
  };
  delete env.DATABASE_URL;
  if (dbUrl) env.DATABASE_URL = `${dbUrl}${dbUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return env;
}

async function startGateway(): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'src/main.ts'), 'serve'], {
    cwd: PROJECT_ROOT,
    env: gatewayEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => childLog.push(String(d)));
  proc.stderr!.on('data', (d) => childLog.push(String(d)));
  child = proc;
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    if (proc.exitCode !== null) throw new Error(`gateway exited ${proc.exitCode}: ${childLog.slice(-20).join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gateway did not start: ${childLog.slice(-20).join('')}`);
}

async function killGateway(): Promise<void> {
  const proc = child;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

beforeAll(async () => {
  if (dbUrl) {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    await c.query(`CREATE SCHEMA ${schema}`).finally(() => c.end());
  }
  standalone = await startStandaloneSimulator(
    { SIM_ADMIN_TOKEN: TOKEN, SIM_DATA_DIR: join(dir, 'sim'), AUTHORITY_SIM_LATENCY_MS: '5-40', AUTHORITY_SIM_HOST: '127.0.0.1', AUTHORITY_SIM_PORT: '0' },
    await getTestDb(),
  );
  port = await freePort();
  await startGateway();
}, 120_000);

afterAll(async () => {
  await killGateway();
  await standalone?.close();
  if (dbUrl) {
    const c = new pg.Client({ connectionString: dbUrl });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => c.end());
  }
});

describe('SIGKILL during emission', () => {
  it(`${SALES} sales, ${MIN_KILLS}+ kills: every sale final, authorized once, numbers gap-free`, async () => {
    // An issuer of its own (the simulator keeps one numbering per CNPJ).
    const cnpj = freshBranchCnpj();
    const issuer = await api('POST', '/v1/issuers', { ...SP_ISSUER, cnpj });
    expect(issuer.status).toBe(201);
    const issuerId = issuer.json.id as string;
    const form = new FormData();
    form.set('password', 'minhasenha');
    form.set('pfx', new Blob([certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx')]), 'a1.pfx');
    const cert = await fetch(`http://127.0.0.1:${port}/v1/issuers/${issuerId}/certificate`, { method: 'POST', headers: auth, body: form });
    expect(cert.status).toBe(201);
    expect((await api('POST', `/v1/issuers/${issuerId}/csc`, TEST_CSC)).status).toBe(201);

    // The clients: each sale retried with its Idempotency-Key until the gateway accepts it.
    const accepted = new Map<string, string>(); // key -> note id
    let next = 0;
    const client = async () => {
      while (next < SALES) {
        const key = `crash-sale-${next++}`;
        const body = sale(issuerId, { external_ref: key });
        for (;;) {
          try {
            const r = await api('POST', '/v1/nfce', body, { 'idempotency-key': key });
            if (r.status === 202 || r.status === 201) {
              accepted.set(key, r.json.id);
              break;
            }
            if (r.status !== 409 && r.status < 500) throw new Error(`sale ${key}: ${r.status} ${JSON.stringify(r.json)}`);
          } catch (err) {
            if (err instanceof Error && err.message.startsWith('sale ')) throw err;
            // connection refused or reset: the gateway is down; try again
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };

    // The killer: random moments while sales go in and while they are being authorized.
    let kills = 0;
    let clientsDone = false;
    const killer = async () => {
      while (kills < MIN_KILLS || !clientsDone) {
        await new Promise((r) => setTimeout(r, randomInt(200, 1200)));
        await killGateway();
        kills++;
        await startGateway();
        if (clientsDone && kills >= MIN_KILLS) break;
      }
    };
    const killing = killer();
    await Promise.all(Array.from({ length: 6 }, client));
    clientsDone = true;
    await killing;

    // Let the last process finish the work.
    const end = Date.now() + 120_000;
    for (;;) {
      const processing = await api('GET', `/v1/nfce?issuer_id=${issuerId}&status=processing&limit=1`);
      if (processing.json.data.length === 0) break;
      if (Date.now() > end) throw new Error('notes still processing');
      await new Promise((r) => setTimeout(r, 250));
    }

    const notes: Array<Record<string, any>> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (let after: string | undefined; ; ) {
      const page = await api('GET', `/v1/nfce?issuer_id=${issuerId}&limit=100${after ? `&starting_after=${after}` : ''}`);
      notes.push(...page.json.data);
      if (!page.json.has_more) break;
      after = page.json.data.at(-1).id;
    }

    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(accepted.size).toBe(SALES);
    // One note per sale: no retry made a second one.
    expect(notes).toHaveLength(SALES);
    expect(new Set(notes.map((n) => n.id))).toEqual(new Set(accepted.values()));
    expect(new Set(notes.map((n) => n.external_ref)).size).toBe(SALES);
    // Every sale final, and authorized exactly once by the authority.
    expect(notes.filter((n) => n.status !== 'authorized').map((n) => `${n.id} ${n.status} ${JSON.stringify(n.rejection)}`)).toEqual([]);
    const counts = await Promise.all(notes.map((n) => standalone.sim.authorizationsFor(n.access_key)));
    expect(counts.filter((c) => c !== 1)).toEqual([]);
    // Gap-free numbering: 1..300.
    expect(notes.map((n) => n.number).sort((a, b) => a - b)).toEqual(Array.from({ length: SALES }, (_, i) => i + 1));
  }, 300_000);
});
