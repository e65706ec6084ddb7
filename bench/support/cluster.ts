// Process plumbing shared by the crash test and the scale/chaos benches: gateway child processes
// (`node --import tsx src/main.ts serve --role ...`) against one standalone simulator, one storage
// (PostgreSQL schema or PGlite files) and optionally one Redis; an HTTP client; an issuer made ready
// over HTTP; note listing and waiting. Every child is SIGKILLed when this process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';
import { certFile } from '../../test/issuers-harness.js';
import { freshBranchCnpj, sale, SP_ISSUER, TEST_CSC } from '../../test/support/nfce-flow.js';
import { serviceInvoice } from '../../test/support/nfse-flow.js';
import { mainEntry } from './main-entry.js';

export { freshBranchCnpj, sale, serviceInvoice };

/** The document families, as their API paths name them. */
export type Doc = 'nfce' | 'nfe' | 'nfse';

export type Role = 'all' | 'api' | 'worker';
export const SANDBOX_AUTH = { authorization: 'Bearer sk_sandbox_public' };
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const p of live) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/** DATABASE_URL for a schema of its own (the gateway migrates it on start). */
export function withSearchPath(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

export async function createSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).finally(() => c.end());
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => c.end());
}

export interface ClusterOptions {
  /** The standalone simulator's URL, CA file and admin token (SIM_URL, SIM_CA_FILE, SIM_ADMIN_TOKEN). */
  simUrl: string;
  simCaFile: string;
  simToken: string;
  /** DATA_DIR of every gateway (PGlite files when there is no database URL; must survive SIGKILL). */
  dataDir: string;
  /** PostgreSQL server URL and schema; unset = PGlite in dataDir (one process only). */
  databaseUrl?: string;
  schema?: string;
  redisUrl?: string;
  /** Extra environment for every process (e.g. RATE_LIMIT_PER_MINUTE). */
  env?: Record<string, string>;
  /** Keep every line every process printed (Cluster.fullLog), e.g. to search it for secrets. */
  keepFullLog?: boolean;
}

export interface Gateway {
  name: string;
  role: Role;
  /** HTTP port (API and all roles; a worker has none). */
  port: number | undefined;
  base: string | undefined;
  proc: ChildProcess | undefined;
  log: string[];
  env: Record<string, string>;
  starts: number;
}

/** Gateways sharing one simulator and one storage. */
export class Cluster {
  readonly gateways: Gateway[] = [];
  /** Everything the processes printed, when keepFullLog is set. */
  readonly fullLog: string[] = [];
  constructor(readonly o: ClusterOptions) {
    installExitHook();
  }

  env(extra: Record<string, string> = {}, port?: number): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GATEWAY_ENV: 'sandbox',
      HOST: '127.0.0.1',
      PORT: String(port ?? 0),
      DATA_DIR: join(this.o.dataDir, 'gateway'),
      MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'warn',
      SIM_URL: this.o.simUrl,
      SIM_CA_FILE: this.o.simCaFile,
      SIM_ADMIN_TOKEN: this.o.simToken,
      AUTHORITY_RESPONSE_TIMEOUT_MS: '3000',
      IDEMPOTENCY_LOCK_SECONDS: '5',
      WORKER_CONCURRENCY: '16',
      ...this.o.env,
      ...extra,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    if (this.o.databaseUrl) env.DATABASE_URL = this.o.schema ? withSearchPath(this.o.databaseUrl, this.o.schema) : this.o.databaseUrl;
    if (this.o.redisUrl) env.REDIS_URL = this.o.redisUrl;
    return env;
  }

  /** Starts a gateway process and waits until it is ready. */
  async add(role: Role, extraEnv: Record<string, string> = {}): Promise<Gateway> {
    const g: Gateway = {
      name: `${role}-${this.gateways.filter((x) => x.role === role).length + 1}`,
      role,
      port: role === 'worker' ? undefined : await freePort(),
      base: undefined,
      proc: undefined,
      log: [],
      env: extraEnv,
      starts: 0,
    };
    if (g.port) g.base = `http://127.0.0.1:${g.port}`;
    this.gateways.push(g);
    await this.start(g);
    return g;
  }

  async start(g: Gateway): Promise<void> {
    const proc = spawn(process.execPath, [...mainEntry(), 'serve', '--role', g.role], {
      cwd: PROJECT_ROOT,
      env: this.env(g.env, g.port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(proc);
    proc.once('exit', () => live.delete(proc));
    const push = (d: unknown) => {
      if (this.o.keepFullLog) this.fullLog.push(String(d));
      g.log.push(String(d));
      if (g.log.length > 200) g.log.splice(0, g.log.length - 200);
    };
    proc.stdout!.on('data', push);
    proc.stderr!.on('data', push);
    g.proc = proc;
    g.starts++;
    const end = Date.now() + 60_000;
    while (Date.now() < end) {
      if (proc.exitCode !== null) throw new Error(`${g.name} exited ${proc.exitCode}: ${g.log.slice(-20).join('')}`);
      if (g.role === 'worker') {
        if (g.log.some((l) => l.includes('worker ('))) return;
      } else {
        try {
          if ((await fetch(`${g.base}/healthz`)).ok) return;
        } catch {
          // not listening yet
        }
      }
      await sleep(100);
    }
    throw new Error(`${g.name} did not start: ${g.log.slice(-20).join('')}`);
  }

  /** SIGKILL, waiting for the exit. */
  async kill(g: Gateway): Promise<void> {
    const proc = g.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  }

  async restart(g: Gateway): Promise<void> {
    await this.kill(g);
    await this.start(g);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.gateways.map((g) => this.kill(g)));
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ApiAnswer {
  status: number;
  json: Json;
  headers: Headers;
}

/** One JSON call to a gateway (sandbox key unless headers say otherwise). Network errors throw. */
export async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...SANDBOX_AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: Json = {};
  try {
    json = text ? (JSON.parse(text) as Json) : {};
  } catch {
    json = { raw: text };
  }
  return { status: res.status, json, headers: res.headers };
}

/**
 * An issuer of its own (fresh branch CNPJ: the simulator numbers per CNPJ) with certificate and CSC;
 * `extra` adds to or overrides the POST /v1/issuers body (e.g. `contingency`, or a `cnpj` to know).
 */
export async function readyIssuer(base: string, extra: Json = {}): Promise<string> {
  const issuer = await call(base, 'POST', '/v1/issuers', { ...SP_ISSUER, cnpj: freshBranchCnpj(), ...extra });
  if (issuer.status !== 201) throw new Error(`issuer: ${issuer.status} ${JSON.stringify(issuer.json)}`);
  const issuerId = issuer.json.id as string;
  const form = new FormData();
  form.set('password', 'minhasenha');
  form.set('pfx', new Blob([certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx')]), 'a1.pfx');
  const cert = await fetch(`${base}/v1/issuers/${issuerId}/certificate`, { method: 'POST', headers: SANDBOX_AUTH, body: form });
  if (cert.status !== 201) throw new Error(`certificate: ${cert.status} ${await cert.text()}`);
  const csc = await call(base, 'POST', `/v1/issuers/${issuerId}/csc`, TEST_CSC);
  if (csc.status !== 201) throw new Error(`csc: ${csc.status} ${JSON.stringify(csc.json)}`);
  return issuerId;
}

/** The issuer's NFS-e settings (Simples ME/EPP regime, DPS series 1): it may issue NFS-e too. */
export async function enableNfse(base: string, issuerId: string): Promise<void> {
  const r = await call(base, 'PATCH', `/v1/issuers/${issuerId}`, { nfse: { municipal_registration: '12345678', simples_regime: 1, dps_series: 1 } });
  if (r.status !== 200) throw new Error(`NFS-e settings: ${r.status} ${JSON.stringify(r.json)}`);
}

/** Every note of an issuer (all pages), NFC-e by default, NF-e or NFS-e with doc `nfe` / `nfse`. */
export async function listNotes(base: string, issuerId: string, doc: Doc = 'nfce'): Promise<Json[]> {
  const notes: Json[] = [];
  for (let after: string | undefined; ; ) {
    const page = await call(base, 'GET', `/v1/${doc}?issuer_id=${issuerId}&limit=100${after ? `&starting_after=${after}` : ''}`);
    if (page.status !== 200) throw new Error(`list: ${page.status} ${JSON.stringify(page.json)}`);
    notes.push(...page.json.data);
    if (!page.json.has_more) break;
    after = page.json.data.at(-1).id;
  }
  return notes;
}

/** Waits until no note of the issuer (of `doc`) is processing and no cancellation is pending. */
export async function waitSettled(base: () => string, issuerId: string, ms: number, doc: Doc = 'nfce'): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const processing = await call(base(), 'GET', `/v1/${doc}?issuer_id=${issuerId}&status=processing&limit=1`);
      if (processing.status === 200 && processing.json.data.length === 0) {
        const notes = await listNotes(base(), issuerId, doc);
        if (!notes.some((n) => n.cancellation_pending === true)) return;
      }
    } catch {
      // an API process restarting: ask again
    }
    if (Date.now() > end) throw new Error(`notes of ${issuerId} still processing after ${ms} ms`);
    await sleep(250);
  }
}

/**
 * Sends one sale with its Idempotency-Key until a gateway accepts it (202/201), moving to the next
 * base on connection errors, 409 (in progress) and 5xx. Returns the note id; throws on a 4xx.
 */
export async function sendSale(
  bases: () => string[],
  key: string,
  body: unknown,
  stats?: { retries: number; fivexx: number; fivexxSeen?: string[] },
  doc: Doc = 'nfce',
): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const list = bases();
    const base = list[attempt % list.length]!;
    try {
      const r = await call(base, 'POST', `/v1/${doc}`, body, { 'idempotency-key': key });
      if (r.status === 202 || r.status === 201) return r.json.id as string;
      if (r.status >= 500 && stats) {
        stats.fivexx++;
        // What the 5xx said (the first ten): an overloaded process's 503 with Retry-After is not a defect, a 500 is.
        if (stats.fivexxSeen && stats.fivexxSeen.length < 10) stats.fivexxSeen.push(`${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
      }
      if (r.status !== 409 && r.status < 500) throw new Error(`sale ${key}: ${r.status} ${JSON.stringify(r.json)}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('sale ')) throw err;
      // connection refused or reset: that process is down; try again
    }
    if (stats) stats.retries++;
    await sleep(100);
  }
}
