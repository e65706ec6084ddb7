// Background side: the authorization job of a sale opens the issuer's certificate for
// the mutual TLS call. On a worker process without the key provider the certificate was moved to, the
// job is retried with a message naming the provider and what to configure; the process keeps running.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { readyIssuer, sale } from './support/nfce-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { kmsBlob } from './support/custody-blobs.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.runtime.close();
});

describe('a job meeting a certificate held by a key provider this worker lacks', () => {
  it('is retried with a message naming the provider and its variables, and the worker keeps running', async () => {
    // The API process signs the sale; nobody runs its job yet.
    const api = await createTestApp({ role: 'api' });
    apps.push(api);
    const { auth } = await api.newAccount();
    const issuerId = await readyIssuer(api, auth);
    const sold = await api.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    expect(sold.statusCode, sold.body).toBe(202);
    // Meanwhile another process moved the issuer's certificate to its KMS key.
    await api.db.query(
      `UPDATE issuer_certificates SET private_key_blob = $2, certificate_blob = $3, storage_mode = 'aws-kms', version = version + 1 WHERE issuer_id = $1`,
      [issuerId, kmsBlob(), kmsBlob()],
    );
    // A process that runs the jobs (its API side is not used), configured as before: KEY_PROVIDER=envelope.
    const worker = await createTestApp({ role: 'all' });
    apps.push(worker);
    const job = await eventually(async () => {
      const r = await api.db.query<{ state: string; attempts: number; last_error: string | null }>(
        `SELECT state, attempts, last_error FROM jobs WHERE kind = 'nfce.authorize' AND payload->>'noteId' = $1`,
        [sold.json().id],
      );
      const row = r.rows[0];
      return row && row.attempts >= 1 && row.state !== 'running' && row.last_error ? row : null;
    }, 30_000, 'the authorization job to be tried once');
    expect(job.state).toBe('pending');
    expect(job.last_error).toMatch(/held by aws-kms.*KEY_PROVIDER=aws-kms with AWS_KMS_KEY_ID/s);
    expect(job.last_error).not.toMatch(/"dk"|"ct"|PRIVATE/);
    expect((await api.app.inject({ method: 'GET', url: `/v1/nfce/${sold.json().id}`, headers: auth })).json().status).toBe('processing');
  }, 60_000);
});
