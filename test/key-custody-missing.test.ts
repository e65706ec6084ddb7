// A process without the key provider an issuer's certificate was moved to (another
// process runs KEY_PROVIDER=aws-kms; this one envelope) answered 500 internal_error to a sale. Now
// every path that opens the certificate answers 503 key_custody_unavailable naming the provider and the
// variables to configure, and nothing secret.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCustodyMissingError, KeyProviderUnavailableError } from '../src/infra/security/key-provider.js';
import { SecretBox } from '../src/infra/security/secret-box.js';
import { EnvelopeKeyProvider } from '../src/infra/security/envelope-key-provider.js';
import { createTestApp, type TestApp } from './support/app.js';
import { kmsBlob } from './support/custody-blobs.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;

/** What the other process leaves once it moved the issuer's certificate and CSC to its KMS key. */
async function movedToKms(id: string): Promise<void> {
  await t.db.query(
    `UPDATE issuer_certificates SET private_key_blob = $2, certificate_blob = $3, storage_mode = 'aws-kms', master_key_id = 'aws-kms:elsewhere', version = version + 1 WHERE issuer_id = $1`,
    [id, kmsBlob(), kmsBlob()],
  );
  await t.db.query(`UPDATE issuer_cscs SET csc_blob = $2, version = version + 1 WHERE issuer_id = $1`, [id, kmsBlob()]);
}

beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  ({ auth } = await t.newAccount());
  issuerId = await readyIssuer(t, auth);
});
afterAll(async () => t.runtime.close());

function expectCustodyAnswer(res: { statusCode: number; body: string; json(): { error: string; message: string } }) {
  expect(res.statusCode, res.body).toBe(503);
  const body = res.json();
  expect(body.error).toBe('key_custody_unavailable');
  expect(body.message).toMatch(/aws-kms/);
  expect(body.message).toMatch(/KEY_PROVIDER=aws-kms/);
  expect(body.message).toMatch(/AWS_KMS_KEY_ID/);
  expect(body.message).toMatch(/AWS_REGION/);
  expect(res.body).not.toMatch(/"dk"|"ct"|BEGIN|PRIVATE/);
}

describe('an issuer whose certificate is held by a key provider this process lacks', () => {
  it('SecretBox says which provider and what to configure, as a retryable custody error', async () => {
    const box = new SecretBox(new EnvelopeKeyProvider(randomBytes(32)));
    const err = await box.decrypt(kmsBlob(), 'issuer:iss_1:certificate_key').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeyCustodyMissingError);
    expect(err).toBeInstanceOf(KeyProviderUnavailableError);
    expect((err as Error).message).toMatch(/KEY_PROVIDER=aws-kms.*AWS_KMS_KEY_ID/s);
  });

  it('a sale answers 503 key_custody_unavailable naming the provider and its variables; a cancellation too', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    await movedToKms(issuerId);
    expectCustodyAnswer(await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) }));
    expectCustodyAnswer(await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } }));
    // The note itself is untouched, and its DANFE (no secret needed) still prints.
    expect((await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}`, headers: auth })).json().status).toBe('authorized');
    expect((await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/danfe.html`, headers: auth })).statusCode).toBe(200);
  });
});
