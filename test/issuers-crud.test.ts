import jpegJs from 'jpeg-js';
import { cnpjCheckDigits } from '../src/fiscal/tax-id.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createIssuer, issuerTestApp, uploadCert, VALID_ISSUER, type IssuerTestApp } from './issuers-harness.js';
import { logoPng } from './support/logo-samples.js';

let t: IssuerTestApp;
let auth: { authorization: string };
let accountId: string;

beforeAll(async () => {
  t = await issuerTestApp();
  ({ auth, accountId } = await t.newAccount());
});

const post = (payload: object, headers = auth) => t.app.inject({ method: 'POST', url: '/v1/issuers', headers, payload });

describe('POST /v1/issuers', () => {
  it('registers an issuer, normalizing formatted input, and shows what is missing before emitting', async () => {
    const res = await post({ ...VALID_ISSUER, cnpj: '06.157.250/0001-16', ambiente: 'producao' });
    expect(res.statusCode).toBe(201);
    const issuer = res.json();
    expect(issuer.id).toMatch(/^iss_[0-9A-Za-z]{20}$/);
    expect(issuer).toMatchObject({
      object: 'issuer',
      cnpj: '06157250000116',
      uf: 'SP',
      ambiente: 'producao',
      regime_tributario: 'simples',
      crt: 1,
      endereco: { codigo_municipio: '3550308', municipio: 'São Paulo', cep: '01310100', telefone: '1133334444', complemento: null },
      certificate: { status: 'missing', subject: null },
      csc: null,
      ready: false,
      missing: ['certificate', 'csc'],
      danfe_settings: { danfeLogo: null, danfePrimaryColor: null, danfeFooterText: null },
    });
    expect(issuer.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('accepts the alphanumeric CNPJ (PL_010) and an issuer without address yet', async () => {
    const res = await post({ cnpj: 'PC3D315K000193', razao_social: 'Empresa Teste', ie: '0018001360', uf: 'RS', ambiente: 'homologacao', regime_tributario: 'normal' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ cnpj: 'PC3D315K000193', crt: 3, endereco: null, missing: ['endereco', 'certificate', 'csc'] });
  });

  it('names every bad field at once in plain words', async () => {
    const res = await post({
      ...VALID_ISSUER,
      cnpj: '06157250000117',
      ie: 'ISENTO',
      uf: 'XX',
      endereco: { ...VALID_ISSUER.endereco, cep: '123', codigo_municipio: '9999999', telefone: '12' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error).toBe('validation_error');
    const byField = Object.fromEntries(body.details.map((d: { field: string; message: string }) => [d.field, d.message]));
    expect(byField).toEqual({
      cnpj: 'has wrong check digits',
      ie: 'ISENTO is not allowed: an NFC-e issuer must have a state registration',
      uf: 'XX is not a Brazilian state code (UF)',
      'endereco.cep': 'must be 8 digits',
      'endereco.codigo_municipio': '9999999 is not an IBGE municipality code (see GET /v1/municipios)',
      'endereco.telefone': 'must be 6 to 14 digits including the area code',
    });
    expect(body.message).toMatch(/^cnpj has wrong check digits \(and 5 more\)$/);
  });

  it('refuses a municipality of another state, bad enums and unknown fields', async () => {
    const wrongUf = await post({ ...VALID_ISSUER, endereco: { ...VALID_ISSUER.endereco, codigo_municipio: '3304557' } });
    expect(wrongUf.statusCode).toBe(422);
    expect(wrongUf.json().details).toEqual([{ field: 'endereco.codigo_municipio', message: '3304557 (Rio de Janeiro) is in RJ, not in SP' }]);

    const enums = await post({ ...VALID_ISSUER, ambiente: 'teste', regime_tributario: 'lucro', cnpjj: 'x' });
    expect(enums.statusCode).toBe(422);
    const fields = enums.json().details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['ambiente', 'cnpjj', 'regime_tributario']);

    const missing = await post({ cnpj: '06157250000116' });
    expect(missing.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['ambiente', 'ie', 'razao_social', 'regime_tributario', 'uf']);
  });

  it('refuses a second issuer with the same CNPJ and ambiente in the account', async () => {
    const { auth: other } = await t.newAccount();
    const first = await post(VALID_ISSUER, other);
    expect(first.statusCode).toBe(201);
    const again = await post({ ...VALID_ISSUER, cnpj: '06157250000116' }, other);
    // A resource that already exists: 409 with its own stable code, not a validation error.
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'issuer_exists', message: 'This account already has an issuer with this CNPJ in homologacao' });
    expect(again.json().details[0]).toEqual({ field: 'cnpj', message: `already registered as ${first.json().id} in ambiente homologacao` });
    expect((await post({ ...VALID_ISSUER, ambiente: 'producao' }, other)).statusCode).toBe(201);
  });

  it('documents the 409 issuer_exists answer in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const conflict = doc.paths['/v1/issuers'].post.responses['409'];
    expect(conflict.description).toContain('`issuer_exists`');
  });
});

describe('GET, PATCH', () => {
  it('lists issuers page by page', async () => {
    const { auth: mine } = await t.newAccount();
    const ids: string[] = [];
    for (const cnpj of ['06157250000116', '11222333000181', '12ABC34501DE35']) ids.push(await createIssuer(t, mine, { ...VALID_ISSUER, cnpj }));
    const first = await t.app.inject({ method: 'GET', url: '/v1/issuers?limit=2', headers: mine });
    expect(first.json().has_more).toBe(true);
    expect(first.json().data).toHaveLength(2);
    const last = first.json().data[1].id;
    const second = await t.app.inject({ method: 'GET', url: `/v1/issuers?limit=2&starting_after=${last}`, headers: mine });
    expect(second.json().has_more).toBe(false);
    const all = [...first.json().data, ...second.json().data].map((i: { id: string }) => i.id);
    expect(all.sort()).toEqual([...ids].sort());
    expect((await t.app.inject({ method: 'GET', url: '/v1/issuers?limit=101', headers: mine })).statusCode).toBe(422);
  });

  it('updates the fields sent, replaces the address, and keeps identity fields fixed', async () => {
    const id = await createIssuer(t, auth, { ...VALID_ISSUER, cnpj: '11222333000181' });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/issuers/${id}`,
      headers: auth,
      payload: { razao_social: 'Novo Nome Ltda', regime_tributario: 'normal', nome_fantasia: null, endereco: { ...VALID_ISSUER.endereco, codigo_municipio: '3509502', numero: 'S/N' }, cnpj: '11.222.333/0001-81' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ razao_social: 'Novo Nome Ltda', crt: 3, nome_fantasia: null, ie: VALID_ISSUER.ie, endereco: { municipio: 'Campinas', numero: 'S/N' } });
    expect(res.json().updated_at >= res.json().created_at).toBe(true);

    const fixed = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}`, headers: auth, payload: { ambiente: 'producao', uf: 'RJ', ie: '1' } });
    expect(fixed.statusCode).toBe(422);
    expect(fixed.json().details.map((d: { field: string }) => d.field)).toEqual(['uf', 'ambiente', 'ie']);
    expect((await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: auth })).json()).toMatchObject({ ambiente: 'homologacao', uf: 'SP' });
  });
});

describe('issuer text the fiscal layout cannot carry', () => {
  const countIssuers = async (account: string) =>
    (await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM issuers WHERE account_id = $1', [account])).rows[0]!.c;
  const byField = (body: { details: Array<{ field: string; message: string }> }) => Object.fromEntries(body.details.map((d) => [d.field, d.message]));

  it('refuses it at registration, naming each field and character, and stores nothing', async () => {
    const { auth: mine, accountId: account } = await t.newAccount();
    const res = await post(
      {
        ...VALID_ISSUER,
        razao_social: 'Padaria \u202Eadlt Exemplo',
        nome_fantasia: 'Padaria \u{1F35E}',
        endereco: { ...VALID_ISSUER.endereco, logradouro: 'Rua \u0007Sino', numero: '\u200B12', complemento: 'Sala \u{1F600}', bairro: '\u65E5\u672C' },
      },
      mine,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('validation_error');
    const fields = byField(res.json());
    expect(Object.keys(fields).sort()).toEqual(['endereco.bairro', 'endereco.complemento', 'endereco.logradouro', 'endereco.numero', 'nome_fantasia', 'razao_social']);
    expect(fields.razao_social).toContain('U+202E');
    expect(fields.nome_fantasia).toContain('U+1F35E');
    expect(fields['endereco.logradouro']).toContain('U+0007');
    expect(fields['endereco.numero']).toContain('U+200B');
    expect(fields['endereco.complemento']).toContain('U+1F600');
    expect(fields['endereco.bairro']).toMatch(/U\+65E5.*U\+672C/);
    // Blank once whitespace is normalized, like item text.
    const blank = await post({ ...VALID_ISSUER, razao_social: ' \t a ', endereco: { ...VALID_ISSUER.endereco, bairro: '\n\n' } }, mine);
    expect(blank.statusCode).toBe(422);
    expect(Object.keys(byField(blank.json())).sort()).toEqual(['endereco.bairro', 'razao_social']);
    expect(await countIssuers(account)).toBe(0);
    // What the layout can carry (Latin-1, typographic quotes and dashes) is accepted.
    const ok = await post({ ...VALID_ISSUER, razao_social: 'Padaria \u201CS\u00E3o Jo\u00E3o\u201D \u2013 Ltda', endereco: { ...VALID_ISSUER.endereco, bairro: 'Consola\u00E7\u00E3o' } }, mine);
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('refuses it on PATCH and keeps the stored issuer', async () => {
    const { auth: mine } = await t.newAccount();
    const id = await createIssuer(t, mine, VALID_ISSUER);
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}`, headers: mine, payload });
    const bad = await patch({ razao_social: 'Nome \u202E', nome_fantasia: '\u{1F35E}', endereco: { ...VALID_ISSUER.endereco, logradouro: 'Av \u{1F6A7} Central' } });
    expect(bad.statusCode).toBe(422);
    const fields = byField(bad.json());
    expect(Object.keys(fields).sort()).toEqual(['endereco.logradouro', 'nome_fantasia', 'razao_social']);
    expect(fields['endereco.logradouro']).toContain('U+1F6A7');
    const now = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: mine })).json();
    expect(now).toMatchObject({ razao_social: VALID_ISSUER.razao_social, nome_fantasia: VALID_ISSUER.nome_fantasia, endereco: { logradouro: VALID_ISSUER.endereco.logradouro } });
  });
});

describe('PATCH /v1/issuers/:id/danfe-settings', () => {
  // Already in the normal form the gateway stores (8-bit RGB PNG; baseline JPEG): kept byte for byte.
  const png = logoPng({ colorType: 2, bitDepth: 8 });
  const jpeg = jpegJs.encode({ width: 16, height: 8, data: Buffer.alloc(16 * 8 * 4, 128) }, 90).data;
  const url = (type: string, b: Buffer) => `data:${type};base64,${b.toString('base64')}`;

  it('stores logo, color and footer, and clears them with null', async () => {
    const id = await createIssuer(t, auth, { ...VALID_ISSUER, cnpj: '11444777000161' });
    const patch = (payload: object) => t.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}/danfe-settings`, headers: auth, payload });
    // Right magic bytes, nothing behind them: refused (it broke every DANFE).
    const fake = await patch({ danfeLogo: url('image/png', Buffer.concat([png.subarray(0, 8), Buffer.alloc(100, 1)])) });
    expect(fake.statusCode).toBe(422);
    expect(fake.json().details).toEqual([{ field: 'danfeLogo', message: 'is not a complete PNG image (the file ends before its header); upload the whole file' }]);
    const set = await patch({ danfeLogo: url('image/png', png), danfePrimaryColor: '#1a73e8', danfeFooterText: 'Obrigado pela preferência!' });
    expect(set.statusCode).toBe(200);
    expect(set.json().danfe_settings).toEqual({ danfeLogo: url('image/png', png), danfePrimaryColor: '#1A73E8', danfeFooterText: 'Obrigado pela preferência!' });
    const jpg = await patch({ danfeLogo: url('image/jpeg', jpeg) });
    expect(jpg.json().danfe_settings).toMatchObject({ danfeLogo: url('image/jpeg', jpeg), danfePrimaryColor: '#1A73E8' });
    const cleared = await patch({ danfeLogo: null, danfeFooterText: null });
    expect(cleared.json().danfe_settings).toEqual({ danfeLogo: null, danfePrimaryColor: '#1A73E8', danfeFooterText: null });
  });

  it('refuses a fake image, an oversized logo, a bad color and a long footer', async () => {
    const id = await createIssuer(t, auth, { ...VALID_ISSUER, cnpj: '11444777000161', ambiente: 'producao' });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v1/issuers/${id}/danfe-settings`,
      headers: auth,
      payload: { danfeLogo: url('image/png', jpeg), danfePrimaryColor: 'blue', danfeFooterText: 'x'.repeat(201) },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([
      { field: 'danfeLogo', message: 'says image/png but the content is not a PNG image' },
      { field: 'danfePrimaryColor', message: 'must be a color as #RRGGBB' },
      { field: 'danfeFooterText', message: 'must be at most 200 characters' },
    ]);
    const big = Buffer.concat([png, Buffer.alloc(256 * 1024)]);
    const tooBig = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}/danfe-settings`, headers: auth, payload: { danfeLogo: url('image/png', big) } });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().details[0].field).toBe('danfeLogo');
    const gif = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}/danfe-settings`, headers: auth, payload: { danfeLogo: 'data:image/gif;base64,R0lGODlh' } });
    expect(gif.json().details[0].message).toMatch(/PNG or JPEG data URL/);
  });
});

describe('access control', () => {
  it('answers 404 for another account\'s issuer on every issuer route', async () => {
    const id = await createIssuer(t, auth, { ...VALID_ISSUER, cnpj: '11222333000181', ambiente: 'producao' });
    const { auth: stranger } = await t.newAccount();
    const requests = [
      { method: 'GET' as const, url: `/v1/issuers/${id}` },
      { method: 'PATCH' as const, url: `/v1/issuers/${id}`, payload: { razao_social: 'Hijack Ltda' } },
      { method: 'PATCH' as const, url: `/v1/issuers/${id}/danfe-settings`, payload: { danfeFooterText: 'hijack' } },
      { method: 'POST' as const, url: `/v1/issuers/${id}/csc`, payload: { id_csc: '1', csc: 'ABCDEF0123456789ABCD' } },
    ];
    for (const r of requests) {
      const res = await t.app.inject({ ...r, headers: stranger });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const cert = await uploadCert(t, stranger, id, 'novo_cert_cnpj_06157250000116_senha_minhasenha.pfx', 'minhasenha');
    expect(cert.statusCode).toBe(404);
    const list = await t.app.inject({ method: 'GET', url: '/v1/issuers', headers: stranger });
    expect(list.json().data).toEqual([]);
    const still = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: auth })).json();
    expect(still).toMatchObject({ razao_social: VALID_ISSUER.razao_social, csc: null, danfe_settings: { danfeFooterText: null } });
  });

  it('answers 403 to a key without issuers:write on every write, and lets it read', async () => {
    const id = await createIssuer(t, auth, { ...VALID_ISSUER, cnpj: 'AB1234560001' + cnpjCheckDigits('AB1234560001') });
    const readOnly = await t.keyWithScopes(accountId, ['issuers:read']);
    const writes = [
      { method: 'POST' as const, url: '/v1/issuers', payload: VALID_ISSUER },
      { method: 'PATCH' as const, url: `/v1/issuers/${id}`, payload: { razao_social: 'X Ltda' } },
      { method: 'PATCH' as const, url: `/v1/issuers/${id}/danfe-settings`, payload: { danfeFooterText: 'x' } },
      { method: 'POST' as const, url: `/v1/issuers/${id}/csc`, payload: { id_csc: '1', csc: 'ABCDEF0123456789ABCD' } },
    ];
    for (const r of writes) {
      const res = await t.app.inject({ ...r, headers: readOnly });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      expect(res.json().message).toMatch(/issuers:write/);
    }
    expect((await uploadCert(t, readOnly, id, 'novo_test_certificate.pfx', 'nfephp')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/v1/issuers/${id}`, headers: readOnly })).statusCode).toBe(200);
    const none = await t.keyWithScopes(accountId, ['nfce:write']);
    expect((await t.app.inject({ method: 'GET', url: '/v1/issuers', headers: none })).statusCode).toBe(403);
  });
});
