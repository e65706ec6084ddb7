import https from 'node:https';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthoritySimulator, type AuthoritySimulator } from '../src/authority-sim/authority-simulator.js';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { remoteSimulatorLink } from '../src/authority-sim/sim-admin-client.js';
import { createAccount } from '../src/cli/create-account.js';
import { loadConfig } from '../src/config.js';
import { createSefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { cnpjCheckDigits } from '../src/kernel/tax-id.js';
import { startRuntime, type Runtime } from '../src/runtime.js';
import { TEST_MASTER_KEY, type TestApp } from './support/app.js';
import { BA } from './support/authority-harness.js';
import { testIssuer } from './support/authority-fixtures.js';
import { getTestDb } from './support/db.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';

const TOKEN = 'test-admin-token-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'authority-sim-'));
let standalone: StandaloneSimulator;

// A branch of the test certificate's CNPJ root (06157250): the certificate still matches the issuer
// (213 compares roots), and the number series cannot collide with other files' notes in the shared database.
const branch = String(1000 + (process.pid % 9000)).padStart(4, '0');
const CNPJ = `06157250${branch}` + cnpjCheckDigits(`06157250${branch}`);

async function gateway(
  simUrl: string,
  caFile: string,
  existing?: { authorization: string },
): Promise<{ runtime: Runtime; t: TestApp; auth: { authorization: string } }> {
  const db = await getTestDb();
  const config = loadConfig({
    DATA_DIR: join(dir, 'gateway'),
    MASTER_KEY: TEST_MASTER_KEY,
    RATE_LIMIT_PER_MINUTE: '100000',
    AUTHORITY_RESPONSE_TIMEOUT_MS: '15000', // a last guard: no test here waits a timeout out
    SIM_URL: simUrl,
    SIM_CA_FILE: caFile,
    SIM_ADMIN_TOKEN: TOKEN,
    // As test/support/app.ts: the worker's database is shared by the files it runs. A reset queued here
    // for the next 04:00 was run (as a no-op, resets being off there) by a later file's runner whose
    // clock had passed it, and sandbox-reset.test.ts then found its day's job already done.
    SANDBOX_RESET_AT: 'off',
    NFE_RECEIVED_SYNC: 'false',
  });
  const runtime = await startRuntime(config, { db, role: 'all', workerPollMs: 50 });
  await runtime.app!.ready();
  const auth = existing ?? { authorization: `Bearer ${(await createAccount(db, config, 'external simulator')).key}` };
  // The flow helpers only use the HTTP app.
  return { runtime, t: { app: runtime.app! } as TestApp, auth };
}

async function emitAndWait(t: TestApp, auth: { authorization: string }, issuerId: string) {
  return (await emitSettled(t, auth, sale(issuerId))).note;
}

function rawRequest(url: string, opts: https.RequestOptions, body?: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = https.request(url, { ca: [standalone.sim.caPem], ...opts }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(body);
  });
}

beforeAll(async () => {
  standalone = await startStandaloneSimulator(
    { SIM_DATA_DIR: join(dir, 'sim'), SIM_ADMIN_TOKEN: TOKEN, AUTHORITY_SIM_LATENCY_MS: '0' },
    await getTestDb(),
  );
});
afterAll(async () => standalone.close());

describe('standalone simulator: admin API', () => {
  it('writes its CA file and refuses admin calls without the token', async () => {
    expect(standalone.caFile).toBe(join(dir, 'sim', 'ca.pem'));
    const url = `${standalone.sim.url}/sim/admin/stats`;
    expect(await rawRequest(url, { method: 'GET' })).toMatchObject({ status: 401 });
    expect(await rawRequest(url, { method: 'GET', headers: { authorization: `Bearer ${TOKEN}x` } })).toMatchObject({ status: 401 });
    const ok = await rawRequest(url, { method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok).toMatchObject({ status: 200 });
    expect(JSON.parse((ok as { body: string }).body)).toHaveProperty('authorizations');
  });

  it('serves SOAP to no client without a registered certificate', async () => {
    // No certificate: the handshake completes (the admin API needs that) but the SOAP request is dropped unanswered.
    const soap = await rawRequest(`${standalone.sim.url}/NFeStatusServico4`, { method: 'POST', headers: { 'content-type': 'application/soap+xml' } }, '<x/>');
    expect(soap).toEqual({ error: expect.stringMatching(/ECONNRESET|socket hang up/i) });
    // An unregistered certificate is refused; registered through the portal, it passes.
    const other = testIssuer('plain');
    const client = createSefazClient({ credentials: other.credentials, ca: [standalone.sim.caPem], endpointOverride: { baseUrl: standalone.sim.url } });
    try {
      expect((await client.status(BA)).kind).toBe('unknown');
      const link = remoteSimulatorLink({ url: standalone.sim.url, caPem: standalone.sim.caPem, token: TOKEN });
      await link.registerClientCertificate(other.credentials.cert);
      expect((await client.status(BA)).kind).toBe('in-operation');
    } finally {
      client.close();
    }
  });

  it('queues fault scenarios for other processes (crash and chaos drivers)', async () => {
    const link = remoteSimulatorLink({ url: standalone.sim.url, caPem: standalone.sim.caPem, token: TOKEN });
    const other = testIssuer('plain');
    await link.registerClientCertificate(other.credentials.cert);
    const client = createSefazClient({ credentials: other.credentials, ca: [standalone.sim.caPem], endpointOverride: { baseUrl: standalone.sim.url } });
    try {
      await link.setScenario('unavailable:109', { service: 'statusServico' });
      expect(await client.status(BA)).toMatchObject({ kind: 'stopped', cStat: 109 });
      expect((await client.status(BA)).kind).toBe('in-operation');
      await expect(link.setScenario('explode')).rejects.toThrow(/HTTP 400/);
    } finally {
      client.close();
    }
  });

  it('validates registrations and never echoes a CSC', async () => {
    const link = remoteSimulatorLink({ url: standalone.sim.url, caPem: standalone.sim.caPem, token: TOKEN });
    const err = await link.registerCsc(CNPJ, 2, 1, 'short-secret!').catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/HTTP 400/);
    expect((err as Error).message).not.toContain('short-secret');
    await expect(link.registerClientCertificate('not a certificate')).rejects.toThrow(/HTTP 400/);
  });
});

describe('standalone simulator: start-up options', () => {
  it('keeps its identity across restarts (gateways keep trusting SIM_CA_FILE) and has a token in registered mode (generated in the sandbox, required in production)', async () => {
    const env = { SIM_DATA_DIR: join(dir, 'sim'), SIM_ADMIN_TOKEN: TOKEN, AUTHORITY_SIM_LATENCY_MS: '0' };
    const again = await startStandaloneSimulator(env, await getTestDb());
    try {
      expect(again.sim.caPem).toBe(standalone.sim.caPem);
    } finally {
      await again.close();
    }
    const generated = await startStandaloneSimulator({ ...env, SIM_ADMIN_TOKEN: '' }, await getTestDb());
    try {
      expect(generated.adminTokenGenerated).toBe(true);
      expect(generated.adminToken!.length).toBeGreaterThanOrEqual(16);
      expect(generated.adminToken).not.toBe(TOKEN);
    } finally {
      await generated.close();
    }
    for (const production of [{ GATEWAY_ENV: 'production' }, { NODE_ENV: 'production' }]) {
      await expect(startStandaloneSimulator({ ...env, ...production, SIM_ADMIN_TOKEN: '' }, await getTestDb())).rejects.toThrow(/SIM_ADMIN_TOKEN .*is required in production/);
    }
    await expect(startStandaloneSimulator({ ...env, SIM_ADMIN_TOKEN: 'short' }, await getTestDb())).rejects.toThrow(/16 characters/);
  });

  it("'any-certificate' serves any client certificate but no client without one, and has no portal without a token", async () => {
    const open = await startStandaloneSimulator(
      { SIM_DATA_DIR: join(dir, 'open'), SIM_CLIENT_AUTH: 'any-certificate', AUTHORITY_SIM_LATENCY_MS: '0' },
      await getTestDb(),
    );
    const stranger = testIssuer('cnpj');
    const client = createSefazClient({ credentials: stranger.credentials, ca: [open.sim.caPem], endpointOverride: { baseUrl: open.sim.url } });
    try {
      expect((await client.status(BA)).kind).toBe('in-operation');
      const bare = await new Promise<string>((resolve) => {
        const req = https.request(`${open.sim.url}/NFeStatusServico4`, { method: 'POST', ca: [open.sim.caPem] }, () => resolve('answered'));
        req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        req.end('<x/>');
      });
      expect(bare).toMatch(/ECONNRESET|EPROTO|ERR_SSL|socket hang up/i);
      const admin = remoteSimulatorLink({ url: open.sim.url, caPem: open.sim.caPem, token: TOKEN });
      // The handshake itself refuses a client without a certificate here: there is no portal to reach.
      await expect(admin.stats()).rejects.toThrow();
    } finally {
      client.close();
      await open.close();
    }
  });
});

describe('gateway with SIM_URL: the authority lives in another process', () => {
  let issuerId: string;
  let auth: { authorization: string };

  it('registers the issuer through the admin API and gets a note authorized end to end', async () => {
    const g = await gateway(standalone.sim.url, standalone.caFile);
    auth = g.auth;
    try {
      expect(g.runtime.simulator?.kind).toBe('remote');
      issuerId = await readyIssuer(g.t, auth, { cnpj: CNPJ });
      const note = await emitAndWait(g.t, auth, issuerId);
      expect(note.status, JSON.stringify(note)).toBe('authorized');
      expect(note.protocolo).toMatch(/^\d{15}$/);
      // The simulator's own books, read over the admin API: exactly one grant for the key.
      expect(await g.runtime.simulator!.authorizationsFor(note.access_key)).toBe(1);
      expect((await g.runtime.simulator!.stats()).authorizations).toBeGreaterThanOrEqual(1);
    } finally {
      await g.runtime.close();
    }
  });

  it('re-registers stored certificates and CSCs on start with a simulator that forgot them', async () => {
    // A simulator with an empty portal (memory only), as after a reset: without re-registration the
    // handshake would refuse the issuer's certificate and the QR code could not be checked (no CSC).
    const blank: AuthoritySimulator = await startAuthoritySimulator({
      db: await getTestDb(),
      latencyMs: [0, 0],
      clientAuth: 'registered',
      cscStorage: 'memory',
      adminToken: TOKEN,
    });
    const caFile = join(dir, 'blank-ca.pem');
    writeFileSync(caFile, blank.caPem);
    const g = await gateway(blank.url, caFile, auth);
    try {
      const note = await emitAndWait(g.t, auth, issuerId);
      expect(note.status, JSON.stringify(note)).toBe('authorized');
      expect(note.number).toBe(2);
      expect(blank.stats().authorizations).toBe(1);
    } finally {
      await g.runtime.close();
      await blank.close();
    }
  });
});
