// Certificate keys and CSCs in an HSM (pkcs11, SoftHSM2) or KMS (aws-kms, against the KMS
// test double of test/support/kms-double.ts, whose cryptography is done by SoftHSM2). In each mode:
// a note is emitted with a certificate uploaded under the provider; a certificate uploaded under the
// local master key is moved by POST /v1/issuers/:id/migrate-cert-to-kms, and a fault in the middle of
// the move leaves the old copy working; GET /v1/hsm/status shows the provider, a live probe and the
// secrets per mode; the database holds no key material in clear.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { clearSigningMaterialCache } from '../src/platform/issuers/issuer-signing-material.js';
import { initPkcs11MasterKey } from '../src/infra/security/pkcs11-key-provider.js';
import { SecretBox } from '../src/infra/security/secret-box.js';
import type { Db, Queryable } from '../src/infra/storage/db.js';
import { certFile } from './issuers-harness.js';
import { createTestApp, type TestApp } from './support/app.js';
import { startKmsDouble, type KmsDouble } from './support/kms-double.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { dumpDatabase, fragments } from './support/security-world.js';
import { softHsmSettings } from './support/softhsm.js';

type Mode = 'pkcs11' | 'aws-kms';
type Auth = { authorization: string };

let kms: KmsDouble;
let envelope: TestApp;
const apps = {} as Record<Mode, TestApp>;
const savedAws = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

beforeAll(async () => {
  const p11 = softHsmSettings('gateway', `custody-test-${randomBytes(4).toString('hex')}`);
  initPkcs11MasterKey(p11);
  kms = await startKmsDouble({ token: softHsmSettings('kmsDouble', 'unused') });
  const key = kms.createKey();
  // The SDK's default credential chain reads these (the double checks every request's SigV4 signature).
  process.env.AWS_ACCESS_KEY_ID = kms.credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = kms.credentials.secretAccessKey;
  envelope = await createTestApp({ role: 'all' });
  apps.pkcs11 = await createTestApp({
    role: 'all',
    env: { KEY_PROVIDER: 'pkcs11', PKCS11_LIBRARY: p11.library, PKCS11_TOKEN_LABEL: p11.tokenLabel, PKCS11_PIN: p11.pin, PKCS11_KEY_LABEL: p11.keyLabel },
  });
  apps['aws-kms'] = await createTestApp({
    role: 'all',
    env: { KEY_PROVIDER: 'aws-kms', AWS_KMS_KEY_ID: key.keyId, AWS_REGION: kms.region, AWS_KMS_ENDPOINT: kms.url },
  });
}, 180_000);

afterAll(async () => {
  await Promise.all([envelope, ...Object.values(apps)].map((t) => t?.runtime.close()));
  await kms?.close();
  process.env.AWS_ACCESS_KEY_ID = savedAws.id;
  process.env.AWS_SECRET_ACCESS_KEY = savedAws.secret;
  if (savedAws.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  if (savedAws.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
});

async function blobs(db: Queryable, issuerId: string) {
  const c = await db.query<{ private_key_blob: string; certificate_blob: string; storage_mode: string; master_key_id: string }>(
    'SELECT private_key_blob, certificate_blob, storage_mode, master_key_id FROM issuer_certificates WHERE issuer_id = $1',
    [issuerId],
  );
  const s = await db.query<{ csc_blob: string }>('SELECT csc_blob FROM issuer_cscs WHERE issuer_id = $1', [issuerId]);
  const row = c.rows[0]!;
  return { ...row, csc_blob: s.rows[0]!.csc_blob, kids: [row.private_key_blob, row.certificate_blob, s.rows[0]!.csc_blob].map((b) => SecretBox.keyIdOf(b)) };
}

async function emitAuthorized(t: TestApp, auth: Auth, issuerId: string): Promise<void> {
  const { note } = await emitSettled(t, auth, sale(issuerId));
  expect(note.status, JSON.stringify(note)).toBe('authorized');
}

const migrate = (t: TestApp, auth: Auth, issuerId: string) =>
  t.app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/migrate-cert-to-kms`, headers: { ...auth, 'idempotency-key': `mig-${randomBytes(6).toString('hex')}` } });

/** Makes the n-th statement matching `pattern` inside a transaction of `db` throw, as a crash there would end it. */
function failInsideTransaction(db: Db, pattern: RegExp): () => void {
  const original = db.transaction.bind(db);
  db.transaction = (<T>(fn: (tx: Queryable) => Promise<T>) =>
    original((tx) =>
      fn({
        query: (sql: string, params?: readonly unknown[]) => {
          if (pattern.test(sql)) return Promise.reject(new Error('injected crash between the two replacements'));
          return tx.query(sql, params);
        },
      } as Queryable),
    )) as Db['transaction'];
  return () => {
    db.transaction = original;
  };
}

describe.each<Mode>(['pkcs11', 'aws-kms'])('certificate custody: %s', (mode) => {
  it('stores an uploaded certificate and CSC under the provider and emits with them', async () => {
    const t = apps[mode];
    const { auth } = await t.newAccount();
    const generated = mode === 'aws-kms' ? kms.requests('GenerateDataKey') : 0;
    const issuerId = await readyIssuer(t, auth);
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json();
    expect(issuer.certificate.storage_mode).toBe(mode);
    const stored = await blobs(t.db, issuerId);
    expect(stored.storage_mode).toBe(mode);
    expect(new Set(stored.kids)).toEqual(new Set([t.ctx.secrets.custody.keyId]));
    expect(stored.kids.every((k) => k.startsWith(mode === 'pkcs11' ? 'p11_' : 'kms_'))).toBe(true);
    if (mode === 'aws-kms') expect(kms.requests('GenerateDataKey') - generated).toBe(3); // key, certificate, CSC

    clearSigningMaterialCache();
    await emitAuthorized(t, auth, issuerId);
  });

  it('moves an envelope certificate to the provider, verified, once; the issuer keeps emitting', async () => {
    const t = apps[mode];
    const { auth } = await t.newAccount();
    // Uploaded by a gateway whose KEY_PROVIDER is envelope: the same database and local master key.
    const issuerId = await readyIssuer(envelope, auth);
    expect((await blobs(t.db, issuerId)).storage_mode).toBe('envelope');

    const before = (await t.app.inject({ method: 'GET', url: '/v1/hsm/status', headers: auth })).json();
    expect(before.secrets.envelope).toEqual({ certificates: 1, cscs: 1 });
    expect(before.secrets[mode]).toEqual({ certificates: 0, cscs: 0 });

    const decrypts = mode === 'aws-kms' ? kms.requests('Decrypt') : 0;
    const res = await migrate(t, auth, issuerId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: issuerId,
      object: 'certificate_custody',
      storage_mode: mode,
      master_key_id: t.ctx.secrets.custody.keyId,
      changed: true,
      secrets: [
        { name: 'certificate_key', storage_mode: mode },
        { name: 'certificate', storage_mode: mode },
        { name: 'csc', storage_mode: mode },
      ],
    });
    // Verified through KMS itself, never the cache: each new blob opened once.
    if (mode === 'aws-kms') expect(kms.requests('Decrypt') - decrypts).toBe(3);
    const stored = await blobs(t.db, issuerId);
    expect(stored.storage_mode).toBe(mode);
    expect(new Set(stored.kids)).toEqual(new Set([t.ctx.secrets.custody.keyId]));
    const issuer = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json();
    expect(issuer.certificate.storage_mode).toBe(mode);

    const after = (await t.app.inject({ method: 'GET', url: '/v1/hsm/status', headers: auth })).json();
    expect(after).toMatchObject({ mode, healthy: true, provider: { mode, key_id: t.ctx.secrets.custody.keyId }, probe: { error: null } });
    expect(after.secrets.envelope).toEqual({ certificates: 0, cscs: 0 });
    expect(after.secrets[mode]).toEqual({ certificates: 1, cscs: 1 });
    expect(after.probe.unwrap_ms).toBeGreaterThan(0);

    clearSigningMaterialCache();
    await emitAuthorized(t, auth, issuerId);

    // Again: nothing left to move, nothing changes.
    const again = await migrate(t, auth, issuerId);
    expect(again.statusCode).toBe(200);
    expect(again.json().changed).toBe(false);
    expect((await blobs(t.db, issuerId)).private_key_blob).toBe(stored.private_key_blob);
  });

  it('a crash between the replacements leaves the envelope copy, complete and working; the retry moves it', async () => {
    const t = apps[mode];
    const { auth } = await t.newAccount();
    const issuerId = await readyIssuer(envelope, auth);
    const old = await blobs(t.db, issuerId);

    // The certificate's row is replaced, then the process "dies" before the CSC's: all rolled back.
    const restore = failInsideTransaction(t.db, /UPDATE issuer_cscs/);
    try {
      const res = await migrate(t, auth, issuerId);
      expect(res.statusCode).toBe(500);
    } finally {
      restore();
    }
    const kept = await blobs(t.db, issuerId);
    expect(kept).toEqual(old);
    clearSigningMaterialCache();
    await emitAuthorized(t, auth, issuerId);

    const res = await migrate(t, auth, issuerId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changed).toBe(true);
    clearSigningMaterialCache();
    await emitAuthorized(t, auth, issuerId);
  });

  it('moves every issuer of the account in bulk', async () => {
    const t = apps[mode];
    const { auth } = await t.newAccount();
    const ids = [await readyIssuer(envelope, auth), await readyIssuer(envelope, auth), await readyIssuer(t, auth)];
    const res = await t.app.inject({ method: 'POST', url: '/v1/issuers/migrate-cert-to-kms?limit=1', headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: [{ issuer_id: ids[0], outcome: 'migrated', error: null }], has_more: true });
    const rest = (await t.app.inject({ method: 'POST', url: '/v1/issuers/migrate-cert-to-kms', headers: auth })).json();
    expect(rest).toEqual({ data: [{ issuer_id: ids[1], outcome: 'migrated', error: null }], has_more: false });
    for (const id of ids) expect((await blobs(t.db, id)).storage_mode).toBe(mode);
  });
});

describe('certificate custody: refusals and what is at rest', () => {
  it('refuses incomplete provider settings at start, naming the variable', () => {
    expect(() => loadConfig({ KEY_PROVIDER: 'pkcs11' })).toThrow(/PKCS11_PIN/);
    expect(() => loadConfig({ KEY_PROVIDER: 'aws-kms', AWS_REGION: 'sa-east-1' })).toThrow(/AWS_KMS_KEY_ID/);
    expect(() => loadConfig({ KEY_PROVIDER: 'aws-kms', AWS_REGION: 'sa-east-1', AWS_KMS_KEY_ID: 'alias/fiscal' })).toThrow(/not an alias/);
    expect(() => loadConfig({ KEY_PROVIDER: 'hsm' })).toThrow(/KEY_PROVIDER/);
    expect(loadConfig({ KEY_PROVIDER: 'aws-kms', AWS_DEFAULT_REGION: 'sa-east-1', AWS_KMS_KEY_ID: 'arn:aws:kms:sa-east-1:111122223333:key/1234' }).keyStorage.kms.region).toBe('sa-east-1');
  });

  it('refuses to migrate when KEY_PROVIDER is envelope, and another account gets 404', async () => {
    const { auth } = await envelope.newAccount();
    const issuerId = await readyIssuer(envelope, auth);
    const res = await migrate(envelope, auth, issuerId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('key_provider_not_configured');
    const other = await apps.pkcs11.newAccount();
    const foreign = await migrate(apps.pkcs11, other.auth, issuerId);
    expect(foreign.statusCode).toBe(404);
    expect((await blobs(envelope.db, issuerId)).storage_mode).toBe('envelope');
  });

  it('a disabled KMS key: the status says so, a migration answers 503 and changes nothing', async () => {
    const t = apps['aws-kms'];
    const { auth } = await t.newAccount();
    const issuerId = await readyIssuer(envelope, auth);
    const keyId = t.config.keyStorage.kms.keyId!;
    kms.disableKey(keyId);
    try {
      const status = (await t.app.inject({ method: 'GET', url: '/v1/hsm/status', headers: auth })).json();
      expect(status.healthy).toBe(false);
      expect(status.probe.error).toMatch(/DisabledException/);
      const res = await migrate(t, auth, issuerId);
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('key_custody_unavailable');
    } finally {
      kms.enableKey(keyId);
    }
    expect((await blobs(t.db, issuerId)).storage_mode).toBe('envelope');
  });

  it('keeps no private key or CSC in clear in any table, in any mode', async () => {
    const parsed = parsePfx(certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'), 'minhasenha');
    const keyDer = parsed.privateKey.export({ type: 'pkcs8', format: 'der' });
    const pkcs1 = parsed.privateKey.export({ type: 'pkcs1', format: 'der' });
    // A CSC of its own under each provider (the usual test CSC is also in the simulated authority's
    // own table, sim_csc, where the state keeps what taxpayers registered: not the gateway's data).
    const cscs: string[] = [];
    for (const t of [apps.pkcs11, apps['aws-kms']]) {
      const { auth } = await t.newAccount();
      const issuerId = await readyIssuer(t, auth);
      const csc = `CSC${randomBytes(12).toString('hex').toUpperCase()}`;
      const res = await t.app.inject({ method: 'POST', url: `/v1/issuers/${issuerId}/csc`, headers: auth, payload: { id_csc: '2', csc } });
      expect(res.statusCode, res.body).toBe(201);
      expect(SecretBox.modeOf((await blobs(t.db, issuerId)).csc_blob)).toBe(t.ctx.secrets.custody.mode);
      cscs.push(csc, csc.toLowerCase());
    }
    // The database holds certificates of all three modes (the scan is not vacuous).
    const modes = await apps.pkcs11.db.query<{ storage_mode: string }>('SELECT DISTINCT storage_mode FROM issuer_certificates');
    expect(modes.rows.map((r) => r.storage_mode).sort()).toEqual(expect.arrayContaining(['aws-kms', 'envelope', 'pkcs11']));
    const dump = await dumpDatabase(apps.pkcs11.db);
    for (const kid of [apps.pkcs11.ctx.secrets.custody.keyId, apps['aws-kms'].ctx.secrets.custody.keyId]) expect(dump).toContain(kid);
    const publicCert = parsed.certificateBase64 + parsed.certificatePem.replace(/\n/g, '');
    const needles = ['PRIVATE KEY', ...cscs, ...fragments(keyDer), ...fragments(pkcs1)].filter((f) => !publicCert.includes(f));
    expect(needles.filter((f) => dump.includes(f))).toEqual([]);
  });
});
