// A gateway process killed (SIGKILL) in the middle of POST /v1/issuers/:id/migrate-cert-to-kms
// leaves the issuer's envelope copy complete and working, and the migration done again afterwards
// succeeds. Two places to die:
//  - aws-kms: the new blobs are made and KMS is asked to open them again (the verification), the
//    KMS test double holding that Decrypt until the process is dead; any storage.
//  - pkcs11: inside the transaction, after the certificate's row was replaced and before the CSC's
//    (the test holds a lock on the CSC's row, so the process waits there); PostgreSQL only, since
//    PGlite cannot be locked from outside its process.
// The gateways are real processes (`serve`), on PGlite files in DATA_DIR or a PostgreSQL schema; each
// test starts three of them one after the other, hence the long guards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, Cluster, createSchema, dropSchema, readyIssuer, sale, withSearchPath, type Gateway } from '../support/cluster.js';
import { startStandaloneSimulator, type StandaloneSimulator } from '../../src/authority-sim/cli.js';
import { initPkcs11MasterKey } from '../../src/infra/security/pkcs11-key-provider.js';
import { getTestDb } from '../../test/support/db.js';
import { startKmsDouble, type KmsDouble } from '../../test/support/kms-double.js';
import { softHsmSettings } from '../../test/support/softhsm.js';

const TOKEN = 'custody-crash-admin-' + randomBytes(8).toString('hex');
const dbUrl = process.env.TEST_DATABASE_URL;
const schema = `custody_${randomBytes(4).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'fg-custody-crash-'));

let standalone: StandaloneSimulator;
let cluster: Cluster;
let kms: KmsDouble;
let kmsEnv: Record<string, string>;
let p11Env: Record<string, string>;

beforeAll(async () => {
  if (dbUrl) await createSchema(dbUrl, schema);
  standalone = await startStandaloneSimulator(
    { SIM_ADMIN_TOKEN: TOKEN, SIM_DATA_DIR: join(dir, 'sim'), AUTHORITY_SIM_LATENCY_MS: '0', AUTHORITY_SIM_HOST: '127.0.0.1', AUTHORITY_SIM_PORT: '0' },
    await getTestDb(),
  );
  kms = await startKmsDouble({ token: softHsmSettings('kmsDouble', 'unused') });
  const key = kms.createKey();
  kmsEnv = {
    KEY_PROVIDER: 'aws-kms', AWS_KMS_KEY_ID: key.keyId, AWS_REGION: kms.region, AWS_KMS_ENDPOINT: kms.url,
    AWS_ACCESS_KEY_ID: kms.credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: kms.credentials.secretAccessKey,
  };
  const p11 = softHsmSettings('gateway', `custody-crash-${randomBytes(4).toString('hex')}`);
  initPkcs11MasterKey(p11);
  p11Env = { KEY_PROVIDER: 'pkcs11', PKCS11_LIBRARY: p11.library, PKCS11_TOKEN_LABEL: p11.tokenLabel, PKCS11_PIN: p11.pin, PKCS11_KEY_LABEL: p11.keyLabel };
  cluster = new Cluster({ simUrl: standalone.sim.url, simCaFile: standalone.caFile, simToken: TOKEN, dataDir: dir, ...(dbUrl ? { databaseUrl: dbUrl, schema } : {}) });
}, 120_000);

afterAll(async () => {
  await cluster?.stopAll();
  await kms?.close();
  await standalone?.close();
  if (dbUrl) await dropSchema(dbUrl, schema);
});

/** One gateway at a time (PGlite files have one owner): the previous one is killed first. */
async function gatewayWith(env: Record<string, string>): Promise<Gateway> {
  await cluster.stopAll();
  return cluster.add('all', env);
}

async function emitAuthorized(base: string, issuerId: string): Promise<void> {
  const r = await call(base, 'POST', '/v1/nfce', sale(issuerId), { prefer: 'wait=10', 'idempotency-key': `crash-${randomBytes(6).toString('hex')}` });
  expect([201, 202], JSON.stringify(r.json)).toContain(r.status);
  let note = r.json;
  for (let i = 0; note.status === 'processing' && i < 200; i++) note = (await call(base, 'GET', `/v1/nfce/${note.id as string}`)).json;
  expect(note.status, JSON.stringify(note)).toBe('authorized');
}

const storageMode = async (base: string, issuerId: string) => (await call(base, 'GET', `/v1/issuers/${issuerId}`)).json.certificate.storage_mode as string;

function startMigration(base: string, issuerId: string): Promise<unknown> {
  // The answer never comes (the process dies); the rejection is expected and swallowed.
  return fetch(`${base}/v1/issuers/${issuerId}/migrate-cert-to-kms`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_sandbox_public', 'idempotency-key': `mig-${randomBytes(6).toString('hex')}` },
  }).catch((err: unknown) => err);
}

describe('SIGKILL during migrate-cert-to-kms', () => {
  it('aws-kms: killed while KMS opens the new blobs; the envelope copy keeps emitting, the retry moves it', async () => {
    const issuerId = await readyIssuer((await gatewayWith({})).base!);
    const g = await gatewayWith(kmsEnv);
    const hold = kms.hold('Decrypt');
    const pending = startMigration(g.base!, issuerId);
    await hold.arrived;
    await cluster.kill(g);
    hold.release();
    await pending;

    const after = await gatewayWith(kmsEnv);
    expect(await storageMode(after.base!, issuerId)).toBe('envelope');
    await emitAuthorized(after.base!, issuerId);
    const res = await call(after.base!, 'POST', `/v1/issuers/${issuerId}/migrate-cert-to-kms`, undefined, { 'idempotency-key': `mig-${randomBytes(6).toString('hex')}` });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.changed).toBe(true);
    expect(await storageMode(after.base!, issuerId)).toBe('aws-kms');
    await emitAuthorized(after.base!, issuerId);
  }, 180_000);

  it.skipIf(!dbUrl)('pkcs11: killed inside the transaction, between the two replacements; nothing of it stays', async () => {
    const issuerId = await readyIssuer((await gatewayWith({})).base!);
    const g = await gatewayWith(p11Env);
    const lock = new pg.Client({ connectionString: withSearchPath(dbUrl!, schema) });
    await lock.connect();
    try {
      const before = await lock.query('SELECT private_key_blob, certificate_blob, storage_mode FROM issuer_certificates WHERE issuer_id = $1', [issuerId]);
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM issuer_cscs WHERE issuer_id = $1 FOR UPDATE', [issuerId]);
      let answered: unknown;
      const pending = startMigration(g.base!, issuerId).then(async (r) => (answered = r instanceof Response ? `${r.status} ${await r.text()}` : r));
      // The migration's UPDATE of issuer_cscs waits for this lock: the certificate's row is already replaced in its transaction.
      for (let waiting = 0; waiting === 0; ) {
        if (answered !== undefined) throw new Error(`the migration finished instead of waiting for the lock: ${String(answered)}`);
        // Inside a transaction pg_stat_activity is a snapshot taken once: drop it before each look.
        await lock.query('SELECT pg_stat_clear_snapshot()');
        const r = await lock.query(`SELECT count(*)::int AS c FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE issuer_cscs%'`);
        waiting = r.rows[0].c;
      }
      await cluster.kill(g);
      await lock.query('ROLLBACK');
      await pending;
      const kept = await lock.query('SELECT private_key_blob, certificate_blob, storage_mode FROM issuer_certificates WHERE issuer_id = $1', [issuerId]);
      expect(kept.rows).toEqual(before.rows);
    } finally {
      await lock.end();
    }
    const after = await gatewayWith(p11Env);
    expect(await storageMode(after.base!, issuerId)).toBe('envelope');
    await emitAuthorized(after.base!, issuerId);
    const res = await call(after.base!, 'POST', `/v1/issuers/${issuerId}/migrate-cert-to-kms`, undefined, { 'idempotency-key': `mig-${randomBytes(6).toString('hex')}` });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(await storageMode(after.base!, issuerId)).toBe('pkcs11');
    await emitAuthorized(after.base!, issuerId);
  }, 180_000);
});
