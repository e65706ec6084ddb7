import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { certFile, createIssuer, issuerTestApp, uploadCert, type IssuerTestApp } from './issuers-harness.js';

const CERT = 'novo_cert_cnpj_06157250000116_senha_minhasenha.pfx';
const PASSWORD = 'minhasenha';

let t: IssuerTestApp;
beforeAll(async () => {
  t = await issuerTestApp();
});

/** Every row of every table, as text (bytea shows as hex, jsonb as JSON). */
async function dumpDatabase(): Promise<string> {
  const tables = await t.db.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { table_schema, table_name } of tables.rows) {
    const rows = await t.db.query<{ row: string }>(`SELECT t::text AS row FROM "${table_schema}"."${table_name}" t`);
    parts.push(...rows.rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/** Fragments that would betray a secret in any of the usual encodings. */
function fragments(secret: Buffer): string[] {
  const out: string[] = [];
  const b64 = secret.toString('base64');
  const hex = secret.toString('hex');
  for (let i = 64; i + 32 < b64.length; i += Math.floor(b64.length / 6)) out.push(b64.slice(i, i + 32));
  for (let i = 64; i + 48 < hex.length; i += Math.floor(hex.length / 6)) out.push(hex.slice(i, i + 48));
  return out;
}

describe('secrets at rest', () => {
  it('keeps no private key, certificate, password or CSC in clear in any table', async () => {
    const { auth } = await t.newAccount();
    const id = await createIssuer(t, auth);
    expect((await uploadCert(t, auth, id, CERT, PASSWORD)).statusCode).toBe(201);
    const csc = `CSC${randomBytes(12).toString('hex').toUpperCase()}`;
    const res = await t.app.inject({ method: 'POST', url: `/v1/issuers/${id}/csc`, headers: auth, payload: { id_csc: '1', csc } });
    expect(res.statusCode).toBe(201);

    const parsed = parsePfx(certFile(CERT), PASSWORD);
    const keyDer = parsed.privateKey.export({ type: 'pkcs8', format: 'der' });
    const pkcs1 = parsed.privateKey.export({ type: 'pkcs1', format: 'der' });
    const dump = await dumpDatabase();
    // The dump does hold this issuer's rows (the scan is not vacuous).
    expect(dump).toContain(id);
    expect(dump).toContain(parsed.serialNumber);

    const pemLines = (pem: string) => pem.split('\n').filter((l) => l.length === 64).slice(2, 5);
    // The certificate itself is public (every signed document carries it in KeyInfo, FACTS 3), so
    // it is stored encrypted but not searched for: signed NFC-e of other tests hold it legitimately.
    // The PKCS#12 file holds the certificate unencrypted, so its fragments that are certificate
    // bytes are dropped too.
    const publicCert = parsed.certificateBase64 + parsed.certificatePem.replace(/\n/g, '');
    const needles = [
      PASSWORD, csc, csc.toLowerCase(), 'PRIVATE KEY',
      ...pemLines(parsed.privateKeyPem),
      ...fragments(keyDer), ...fragments(pkcs1), ...fragments(certFile(CERT)),
    ].filter((f) => !publicCert.includes(f));
    // The detector itself finds each encoding when it is there.
    for (const leaked of [parsed.privateKeyPem, `\\x${keyDer.toString('hex')}`, JSON.stringify({ pfx: certFile(CERT).toString('base64') })]) {
      expect(needles.some((f) => leaked.includes(f))).toBe(true);
    }
    expect(needles.filter((f) => dump.includes(f))).toEqual([]);
  });
});
