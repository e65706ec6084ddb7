import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { SP_ISSUER, emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { invoice } from './support/nfe-flow.js';
import { xmllint } from './support/xml-tools.js';

// MOC 7.0 Anexo I, rule ZD01-10 (972): PR (with AM, MS, PE, SC, TO) requires infRespTec
// (docs/fiscal/technical-responsible.md). The PR IE 9053527172 has the check digit of SINTEGRA's PR
// algorithm (two mod-11 digits, weights 3,2,7,6,5,4,3,2 and 4,3,2,7,6,5,4,3,2), as in erpbrasil.base's tests.
const PR_ISSUER = {
  ...SP_ISSUER,
  uf: 'PR',
  ie: '9053527172',
  endereco: { logradouro: 'Rua XV de Novembro', numero: '100', bairro: 'Centro', codigo_municipio: '4106902', cep: '80020-310', telefone: '(41) 3333-4444' },
};
const CSRT = 'G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO';
const RESP_TEC = { cnpj: '11.222.333/0001-81', contact: 'Maria Souza', email: 'fiscal@softwarehouse.com.br', phone: '(41) 3333-5555' };

let t: TestApp;
let auth: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  ({ auth } = await t.newAccount());
});
afterAll(async () => t?.runtime.close());

const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, headers: auth, payload });

describe('technical responsible (infRespTec)', () => {
  it('a PR sale without one is refused first, naming the setting and rule ZD01-10, for NFC-e and NF-e', async () => {
    const issuerId = await readyIssuer(t, auth, PR_ISSUER);
    const nfce = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    expect(nfce.statusCode).toBe(422);
    expect(nfce.json().details[0]).toMatchObject({ field: 'technical_responsible', rule: 'ZD01-10' });
    const nfe = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: auth, payload: invoice(issuerId) });
    expect(nfe.statusCode).toBe(422);
    expect(nfe.json().details[0]).toMatchObject({ field: 'technical_responsible', rule: 'ZD01-10' });
  });

  it('an SP sale needs none (ZD01-10 is not in force there) and carries none', async () => {
    const { auth: own } = await t.newAccount();
    const issuerId = await readyIssuer(t, own, {});
    const { note } = await emitSettled(t, own, sale(issuerId));
    expect(note.status).toBe('authorized');
  });

  it('answers 422 naming the field for a bad CNPJ, e-mail, phone or CSRT id', async () => {
    // None set yet: GET answers null.
    expect((await t.app.inject({ method: 'GET', url: '/v1/account/technical-responsible', headers: auth })).json()).toBeNull();
    const cases: Array<[object, string]> = [
      [{ ...RESP_TEC, cnpj: '11222333000182' }, 'cnpj'],
      [{ ...RESP_TEC, email: 'not-an-email' }, 'email'],
      [{ ...RESP_TEC, phone: '123' }, 'phone'],
      [{ ...RESP_TEC, contact: 'M' }, 'contact'],
      [{ ...RESP_TEC, csrt: { id: 'x1', secret: CSRT } }, 'csrt.id'],
    ];
    for (const [body, field] of cases) {
      const res = await put('/v1/account/technical-responsible', body);
      expect(res.statusCode, field).toBe(422);
      expect(res.json().details.map((d: { field: string }) => d.field), field).toContain(field);
    }
  });

  it('with one set, the PR NFC-e is authorized with infRespTec and hashCSRT, passes the XSD, and the secret is never shown', async () => {
    const { auth: own } = await t.newAccount();
    const set = await t.app.inject({ method: 'PUT', url: '/v1/account/technical-responsible', headers: own, payload: { ...RESP_TEC, csrt: { id: '1', secret: CSRT } } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ scope: 'account', cnpj: '11222333000181', phone: '4133335555', csrt: { id: '01' } });
    const issuerId = await readyIssuer(t, own, PR_ISSUER);
    const got = await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}/technical-responsible`, headers: own });
    expect(got.json()).toMatchObject({ scope: 'account', csrt: { id: '01' } });

    const { res, note } = await emitSettled(t, own, sale(issuerId));
    expect(note.status).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml`, headers: own })).body;
    // NT 2018.005: hashCSRT = Base64(SHA-1(CSRT + access key)); its worked example, CSRT G8063... with key
    // 41180678393592000146558900000006041028190697, gives aWv6LeEM4X6u4+qBI2OYZ8grigw= (checked below).
    const nt = (csrt: string, key: string) => createHash('sha1').update(csrt + key).digest('base64');
    expect(nt(CSRT, '41180678393592000146558900000006041028190697')).toBe('aWv6LeEM4X6u4+qBI2OYZ8grigw=');
    expect(xml).toContain(
      `<infRespTec><CNPJ>11222333000181</CNPJ><xContato>Maria Souza</xContato><email>fiscal@softwarehouse.com.br</email><fone>4133335555</fone>` +
        `<idCSRT>01</idCSRT><hashCSRT>${nt(CSRT, note.access_key)}</hashCSRT></infRespTec>`,
    );
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    for (const body of [set.body, got.body, res.body, xml, JSON.stringify(note)]) expect(body).not.toContain(CSRT);
  });

  it('an issuer of its own wins over the account, and removing it falls back to the account', async () => {
    const { auth: own } = await t.newAccount();
    await t.app.inject({ method: 'PUT', url: '/v1/account/technical-responsible', headers: own, payload: RESP_TEC });
    const issuerId = await readyIssuer(t, own, PR_ISSUER);
    const mine = await t.app.inject({
      method: 'PUT', url: `/v1/issuers/${issuerId}/technical-responsible`, headers: own,
      payload: { cnpj: '06157250000116', contact: 'Joao Lima', email: 'joao@outra.com.br', phone: '4130001111' },
    });
    expect(mine.json()).toMatchObject({ scope: 'issuer', issuer_id: issuerId, csrt: null });
    const first = await emitSettled(t, own, sale(issuerId));
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${first.note.id}/xml`, headers: own })).body;
    expect(xml).toContain('<infRespTec><CNPJ>06157250000116</CNPJ>');
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/issuers/${issuerId}/technical-responsible`, headers: own })).statusCode).toBe(204);
    const second = await emitSettled(t, own, sale(issuerId));
    const xml2 = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${second.note.id}/xml`, headers: own })).body;
    expect(xml2).toContain('<infRespTec><CNPJ>11222333000181</CNPJ>');
  });
});
