import { beforeAll, describe, expect, it } from 'vitest';
import { cnpjCheckDigits } from '../src/fiscal/tax-id.js';
import { nfseIssuerOf } from '../src/documents/nfse/services/nfse-issuer.js';
import { findIssuerForEmission } from '../src/infra/storage/repositories/issuer-repository.js';
import { createIssuer, issuerTestApp, VALID_ISSUER, type IssuerTestApp } from './issuers-harness.js';

// The issuer's NFS-e settings through /v1/issuers.
let t: IssuerTestApp;
let account: Awaited<ReturnType<IssuerTestApp['newAccount']>>;
beforeAll(async () => {
  t = await issuerTestApp();
  account = await t.newAccount();
});

// Each issuer its own CNPJ: one account holds one issuer per CNPJ and ambiente.
let next = 0;
const nextCnpj = () => {
  const base = `4455667700${String(++next).padStart(2, '0')}`;
  return base + cnpjCheckDigits(base);
};
const newIssuer = (extra: object = {}) => createIssuer(t, account.auth, { ...VALID_ISSUER, cnpj: nextCnpj(), ...extra });
const patch = (id: string, payload: object) => t.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}`, headers: account.auth, payload });
const get = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: account.auth })).json();
const fields = (body: { details: Array<{ field: string }> }) => body.details.map((d) => d.field);

describe('nfse on POST /v1/issuers', () => {
  it('stores the settings with their defaults and shows them on GET and in the list', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/issuers',
      headers: account.auth,
      payload: { ...VALID_ISSUER, cnpj: nextCnpj(), nfse: { municipal_registration: ' 12345 ', simples_regime: 1 } },
    });
    expect(res.statusCode, res.body).toBe(201);
    const expected = { municipal_registration: '12345', simples_regime: 1, special_regime: 0, dps_series: 1, signature_profile: 'rsa-sha1-c14n' };
    expect(res.json().nfse).toEqual(expected);
    expect((await get(res.json().id)).nfse).toEqual(expected);
    const list = (await t.app.inject({ method: 'GET', url: '/v1/issuers?limit=100', headers: account.auth })).json();
    expect(list.data.find((i: { id: string }) => i.id === res.json().id).nfse).toEqual(expected);
  });

  it('shows null for an issuer without NFS-e settings', async () => {
    expect((await get(await newIssuer())).nfse).toBeNull();
  });

  it('names the exact field of each bad value and stores nothing', async () => {
    const before = (await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM issuers WHERE account_id = $1', [account.accountId])).rows[0]!.c;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/issuers',
      headers: account.auth,
      payload: { ...VALID_ISSUER, cnpj: '99999999000191', nfse: { dps_series: 50_000, special_regime: 7, signature_profile: 'rsa-md5', municipal_registration: '1234567890123456', serie: 1 } },
    });
    expect(res.statusCode).toBe(422);
    expect(fields(res.json()).sort()).toEqual(['nfse.dps_series', 'nfse.municipal_registration', 'nfse.serie', 'nfse.signature_profile', 'nfse.special_regime']);
    const after = (await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM issuers WHERE account_id = $1', [account.accountId])).rows[0]!.c;
    expect(after).toBe(before);
  });

  it('holds simples_regime to the issuer regime (Anexo I E0162, E0166) and the special regime to it (E0174, E0175)', async () => {
    const post = (extra: object) => t.app.inject({ method: 'POST', url: '/v1/issuers', headers: account.auth, payload: { ...VALID_ISSUER, cnpj: '99999999000191', ...extra } });
    const meEpp = await post({ nfse: {} });
    expect(meEpp.statusCode).toBe(422);
    expect(meEpp.json().details).toEqual([{ field: 'nfse.simples_regime', message: expect.stringMatching(/required for a Simples Nacional ME\/EPP.*E0166/) }]);
    const normal = await post({ regime_tributario: 'normal', nfse: { simples_regime: 2 } });
    expect(normal.json().details).toEqual([{ field: 'nfse.simples_regime', message: expect.stringMatching(/must be null .*E0162/) }]);
    const mei = await post({ regime_tributario: 'mei', nfse: { special_regime: 5 } });
    expect(mei.json().details).toEqual([{ field: 'nfse.special_regime', message: expect.stringMatching(/MEI.*E0174/) }]);
    const throughSn = await post({ nfse: { simples_regime: 1, special_regime: 6 } });
    expect(throughSn.json().details).toEqual([{ field: 'nfse.special_regime', message: expect.stringMatching(/E0175/) }]);
  });
});

describe('nfse on PATCH /v1/issuers/:id', () => {
  it('merges the fields sent into the stored settings, and null removes an optional one', async () => {
    const id = await newIssuer({ regime_tributario: 'normal' });
    const first = await patch(id, { nfse: { municipal_registration: '998877', special_regime: 6 } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().nfse).toEqual({ municipal_registration: '998877', simples_regime: null, special_regime: 6, dps_series: 1, signature_profile: 'rsa-sha1-c14n' });
    const second = await patch(id, { nfse: { dps_series: 2, signature_profile: 'rsa-sha256-exc-c14n', municipal_registration: null } });
    expect(second.json().nfse).toEqual({ municipal_registration: null, simples_regime: null, special_regime: 6, dps_series: 2, signature_profile: 'rsa-sha256-exc-c14n' });
    expect((await get(id)).nfse).toEqual(second.json().nfse);
  });

  it('nfse: null clears the settings', async () => {
    const id = await newIssuer({ nfse: { simples_regime: 3 } });
    const res = await patch(id, { nfse: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().nfse).toBeNull();
    expect((await get(id)).nfse).toBeNull();
    expect((await t.db.query<{ nfse: unknown }>('SELECT nfse FROM issuers WHERE id = $1', [id])).rows[0]!.nfse).toBeNull();
  });

  it('refuses bad values naming nfse.<field> and keeps the stored settings', async () => {
    const id = await newIssuer({ nfse: { simples_regime: 2, dps_series: 7 } });
    const res = await patch(id, { nfse: { dps_series: 0 } });
    expect(res.statusCode).toBe(422);
    expect(fields(res.json())).toEqual(['nfse.dps_series']);
    const wrongType = await patch(id, { nfse: { dps_series: '2', simples_regime: 4 } });
    expect(wrongType.statusCode).toBe(422);
    expect(fields(wrongType.json()).sort()).toEqual(['nfse.dps_series', 'nfse.simples_regime']);
    expect((await get(id)).nfse).toMatchObject({ simples_regime: 2, dps_series: 7 });
  });

  it('checks the settings against a regime changed in the same request', async () => {
    const id = await newIssuer({ nfse: { simples_regime: 2 } });
    const res = await patch(id, { regime_tributario: 'normal', nfse: { special_regime: 1 } });
    expect(res.statusCode).toBe(422);
    expect(fields(res.json())).toEqual(['nfse.simples_regime']);
    const fixed = await patch(id, { regime_tributario: 'normal', nfse: { special_regime: 1, simples_regime: null } });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.json()).toMatchObject({ crt: 3, nfse: { simples_regime: null, special_regime: 1 } });
  });

  it('changes the emission basis, so a document built from the old settings is rebuilt, and the next DPS uses the new ones', async () => {
    const id = await newIssuer({ nfse: { simples_regime: 1 } });
    const before = (await findIssuerForEmission(t.db, account.accountId, id))!;
    expect(nfseIssuerOf(before)).toMatchObject({ ok: true, series: 1, issuer: { simplesNacional: 3, simplesRegime: 1, cityCode: '3550308' } });
    expect((await patch(id, { nfse: { dps_series: 3 } })).statusCode).toBe(200);
    const after = (await findIssuerForEmission(t.db, account.accountId, id))!;
    expect(after.basis).not.toBe(before.basis);
    expect(nfseIssuerOf(after)).toMatchObject({ ok: true, series: 3 });
  });

  it('is written to the audit log as issuer.update', async () => {
    const id = await newIssuer();
    expect((await patch(id, { nfse: { simples_regime: 1 } })).statusCode).toBe(200);
    const log = (await t.app.inject({ method: 'GET', url: '/v1/audit-log?limit=100', headers: account.auth })).json().data as Array<{ action: string; target: string; status_code: number }>;
    expect(log.find((e) => e.target === id && e.action === 'issuer.update')).toMatchObject({ status_code: 200 });
  });
});

describe('the OpenAPI document', () => {
  it('shows nfse on the issuer, its create and PATCH bodies, with the merge rule', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const body = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
    const created = body('/v1/issuers', 'post').properties.nfse;
    expect(Object.keys(created.properties).sort()).toEqual(['dps_series', 'municipal_registration', 'signature_profile', 'simples_regime', 'special_regime']);
    expect(created.properties.dps_series).toMatchObject({ type: 'integer', minimum: 1, maximum: 49999 });
    expect(created.description).toMatch(/replace the stored ones and the others stay/);
    const patched = body('/v1/issuers/{id}', 'patch').properties.nfse;
    // A PATCH may send null: the body's nfse is the settings object or null.
    const branches = patched.anyOf as Array<{ nullable?: boolean; properties?: object }>;
    expect(branches.some((b) => b.nullable && !b.properties)).toBe(true);
    expect(branches.some((b) => b.properties && 'dps_series' in b.properties)).toBe(true);
    const shown = doc.paths['/v1/issuers/{id}'].get.responses['200'].content['application/json'].schema;
    const schema = shown.$ref ? doc.components.schemas[shown.$ref.split('/').pop()] : shown;
    expect(schema.properties.nfse.nullable).toBe(true);
    expect(schema.properties.nfse.properties.signature_profile.enum).toEqual(['rsa-sha1-c14n', 'rsa-sha256-exc-c14n']);
  });
});
