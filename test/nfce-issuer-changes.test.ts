import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { PROJECT_ROOT } from '../src/kernel/paths.js';
import { secretAad } from '../src/platform/issuers/issuer-deps.js';
import type { TestApp } from './support/app.js';
import { emittingApp, readyIssuer, sale } from './support/nfce-flow.js';

// A gateway process remembers the issuer of its last sale and skips reading it again; these tests
// change the issuer behind its back, in the database, as another gateway process would, and check
// that the very next sale follows the stored issuer.
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const post = (body: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: body });
const signedXml = async (id: string) =>
  (await t.runtime.ctx.db.query<{ signed_xml: string }>('SELECT signed_xml FROM notes WHERE id = $1', [id])).rows[0]!.signed_xml;

describe('the issuer changed by another process', () => {
  it('a new company name reaches the very next note', async () => {
    expect((await post(sale(issuerId))).statusCode).toBe(202);
    await t.runtime.ctx.db.query(`UPDATE issuers SET razao_social = 'Padaria Renomeada LTDA' WHERE id = $1`, [issuerId]);
    const res = await post(sale(issuerId));
    expect(res.statusCode, res.body).toBe(202);
    expect(await signedXml(res.json().id)).toMatch(/<emit><CNPJ>\d{14}<\/CNPJ><xNome>Padaria Renomeada LTDA<\/xNome>/);
  });

  it('a sale the remembered issuer would refuse is judged by the stored one (regime changed to normal: CST 00 is right)', async () => {
    expect((await post(sale(issuerId))).statusCode).toBe(202);
    await t.runtime.ctx.db.query(`UPDATE issuers SET regime_tributario = 'normal' WHERE id = $1`, [issuerId]);
    const normal = sale(issuerId, {
      items: [{ description: 'Cafe torrado 500g', quantity: 2, unit_price: 18.9, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18 }],
      payment: { method: 'dinheiro', amount: 50 },
    });
    const res = await post(normal);
    expect(res.statusCode, res.body).toBe(202);
    expect(await signedXml(res.json().id)).toContain('<CRT>3</CRT>');
    // And a Simples Nacional code is now refused, naming the field.
    const simples = await post(sale(issuerId));
    expect(simples.statusCode).toBe(422);
    expect(simples.json().details[0].field).toBe('items[0].cst_icms');
    await t.runtime.ctx.db.query(`UPDATE issuers SET regime_tributario = 'simples' WHERE id = $1`, [issuerId]);
  });

  it('issuer text the layout cannot carry, stored before it was validated, names the issuer field to PATCH', async () => {
    const id = await readyIssuer(t, auth);
    await t.runtime.ctx.db.query(
      `UPDATE issuers SET razao_social = 'Padaria ' || chr(8238) || ' Ltda', endereco = jsonb_set(endereco, '{bairro}', to_jsonb('Bela ' || chr(128512))) WHERE id = $1`,
      [id],
    );
    const res = await post(sale(id));
    expect(res.statusCode, res.body).toBe(422);
    const details = res.json().details as Array<{ field: string; message: string }>;
    const fields = details.map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['issuer.razao_social', 'issuer.endereco.bairro']));
    expect(fields.some((f) => f.startsWith('/'))).toBe(false);
    for (const d of details) expect(d.message).toContain(`PATCH /v1/issuers/${id}`);
    // Fixed through the API, the next sale goes through.
    const fixed = await t.app.inject({
      method: 'PATCH', url: `/v1/issuers/${id}`, headers: auth,
      payload: { razao_social: 'Padaria Ltda', endereco: { logradouro: 'Avenida Paulista', numero: '1000', bairro: 'Bela Vista', codigo_municipio: '3550308', cep: '01310100' } },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect((await post(sale(id))).statusCode).toBe(202);
  });

  it('an issuer whose CSC was removed elsewhere is not ready for the next sale', async () => {
    expect((await post(sale(issuerId))).statusCode).toBe(202);
    await t.runtime.ctx.db.query('DELETE FROM issuer_cscs WHERE issuer_id = $1', [issuerId]);
    const res = await post(sale(issuerId));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ error: 'issuer_not_ready', details: [expect.objectContaining({ field: 'csc' })] });
  });

  it('a 16384-bit key stored before uploads were size-checked signs nothing: 422 issuer_not_ready on certificate, not a quarter second of event loop per sale', async () => {
    const id = await readyIssuer(t, auth);
    const huge = parsePfx(readFileSync(join(PROJECT_ROOT, 'test/fixtures/certs/rsa16384_cnpj_06157250000116_senha_minhasenha.pfx')), 'minhasenha');
    const blob = await t.runtime.ctx.secrets.encrypt(Buffer.from(huge.privateKeyPem, 'utf8'), secretAad.certificateKey(id));
    await t.runtime.ctx.db.query('UPDATE issuer_certificates SET private_key_blob = $2, version = version + 1 WHERE issuer_id = $1', [id, blob]);
    const res = await post(sale(id));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ error: 'issuer_not_ready', details: [{ field: 'certificate', message: expect.stringMatching(/RSA 16384 bits.*Upload a new one/) }] });
  }, 60_000);
});
