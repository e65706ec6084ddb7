// The stage of the hostile suite: production-mode API processes (`serve --role api`, no simulator:
// nothing here needs an authorization) on one storage, an account made by the `create-account`
// command as a production install makes it, and helpers to call them as a given client IP
// (TRUST_PROXY: each case is its own client, so no case spends another's rate budget).
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';
import { certFile } from '../../test/issuers-harness.js';
import { freshBranchCnpj, SP_ISSUER, TEST_CSC } from '../../test/support/nfce-flow.js';
import type { Cluster, Gateway, Json } from './cluster.js';
import { mainEntry } from './main-entry.js';

export const PRODUCTION_CERT = 'novo_cert_cnpj_06157250000116_senha_minhasenha.pfx';

export interface Answer {
  status: number;
  json: Json;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body (multipart, garbage); with `contentType`. */
  raw?: string | Buffer | FormData;
  contentType?: string;
  /** API key; default: the running case's key. `null` sends no Authorization header. */
  key?: string | null;
  /** Client IP as the load balancer reports it (X-Forwarded-For). */
  ip?: string;
  headers?: Record<string, string>;
}

export class HostileWorld {
  ownerKey = '';
  /** An all-scopes key of the case running now (each case spends its own per-key budget). */
  caseKey = '';
  accountId = '';
  readonly gateways: Gateway[] = [];

  constructor(readonly cluster: Cluster) {}

  /** The suite's own address for calls that name none: never 127.0.0.1, whose counters in a shared
   * Redis other runs and test files also fill. */
  private readonly ownIp = this.newIp();

  /** A client IP nobody else uses in this run (counters in Redis outlive it: random, not sequential). */
  newIp(): string {
    return `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
  }

  port(g: Gateway): number {
    return g.port!;
  }

  async call(g: Gateway, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? this.caseKey || this.ownerKey : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    headers['x-forwarded-for'] = o.ip ?? this.ownIp;
    let body: string | Buffer | FormData | undefined;
    if (o.raw !== undefined) {
      body = o.raw;
      if (o.contentType) headers['content-type'] = o.contentType;
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${g.base}${path}`, { method, headers, body });
    const text = await res.text();
    let json: Json;
    try {
      json = text ? (JSON.parse(text) as Json) : {};
    } catch {
      json = { raw: text.slice(0, 500) };
    }
    return { status: res.status, json, headers: res.headers };
  }

  /** A key of the account with these scopes (made with the owner key). */
  async keyWith(scopes: string[], ip = this.newIp()): Promise<{ id: string; key: string }> {
    const r = await this.call(this.gateways[0]!, 'POST', '/v1/applications', { body: { name: `hostile ${scopes.join(' ')}`, scopes }, ip, key: this.ownerKey });
    if (r.status !== 201) throw new Error(`application: ${r.status} ${JSON.stringify(r.json)}`);
    return { id: r.json.id as string, key: r.json.key as string };
  }

  /** An issuer of its own, with the test A1 certificate and a CSC: ready to sell. */
  async readyIssuer(ip = this.newIp()): Promise<string> {
    const g = this.gateways[0]!;
    // A random branch (1 in ~10,000) can repeat one an earlier case registered in this account: draw again.
    let issuer = await this.call(g, 'POST', '/v1/issuers', { body: { ...SP_ISSUER, cnpj: freshBranchCnpj() }, ip });
    for (let tries = 0; issuer.status === 409 && tries < 5; tries++) issuer = await this.call(g, 'POST', '/v1/issuers', { body: { ...SP_ISSUER, cnpj: freshBranchCnpj() }, ip });
    if (issuer.status !== 201) throw new Error(`issuer: ${issuer.status} ${JSON.stringify(issuer.json)}`);
    const id = issuer.json.id as string;
    const form = new FormData();
    form.set('password', 'minhasenha');
    form.set('pfx', new Blob([certFile(PRODUCTION_CERT)]), 'a1.pfx');
    const cert = await this.call(g, 'POST', `/v1/issuers/${id}/certificate`, { raw: form, ip });
    if (cert.status !== 201) throw new Error(`certificate: ${cert.status} ${JSON.stringify(cert.json)}`);
    const csc = await this.call(g, 'POST', `/v1/issuers/${id}/csc`, { body: TEST_CSC, ip });
    if (csc.status !== 201) throw new Error(`csc: ${csc.status} ${JSON.stringify(csc.json)}`);
    return id;
  }

  /** Resident set size of a gateway process, MB (Linux /proc). */
  rssMb(g: Gateway): number {
    const status = readFileSync(`/proc/${g.proc!.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  }

  /** Processes that exited (or restarted) since they started: must stay empty. */
  exits(): string[] {
    return this.gateways.filter((g) => g.starts !== 1 || g.proc?.exitCode !== null || g.proc?.signalCode !== null).map((g) => `${g.name}: exit ${g.proc?.exitCode ?? g.proc?.signalCode}; ${g.log.slice(-5).join('').slice(-800)}`);
  }
}

/** `node src/main.ts create-account` with the gateways' environment: the owner key of a new account. */
export async function createAccountKey(cluster: Cluster): Promise<{ accountId: string; key: string }> {
  const proc = spawn(process.execPath, [...mainEntry(), 'create-account', '--name', `Hostile ${randomBytes(3).toString('hex')}`], {
    cwd: PROJECT_ROOT,
    env: cluster.env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += String(d)));
  proc.stderr.on('data', (d) => (out += String(d)));
  const code = await new Promise<number | null>((r) => proc.once('exit', r));
  const key = /api key:\s+(\S+)/.exec(out)?.[1];
  const accountId = /account:\s+(\S+)/.exec(out)?.[1];
  if (code !== 0 || !key || !accountId) throw new Error(`create-account exited ${code}: ${out}`);
  return { accountId, key };
}
