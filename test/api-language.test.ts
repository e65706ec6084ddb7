// The API says `message` and `hint` in the language Accept-Language asks for
// (pt-BR or en; en without the header, docs/guides/api.md), through the real app. Codes, field paths
// and rule ids are the same in both languages; the authority's own message is never translated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp, sale, waitForStatus } from './support/nfce-flow.js';

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

type Envelope = { error: string; message: string; details?: Array<{ field: string; message: string; rule?: string }> };

async function post(payload: object, lang?: string) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, ...(lang ? { 'accept-language': lang } : {}) }, payload });
  return { res, body: res.json() as Envelope };
}

describe('an error answer in the language of Accept-Language', () => {
  it('a schema failure: same code and fields, the messages in each language, Content-Language says which', async () => {
    const bad = sale(issuerId, { payment: { method: 'dinheiro', amount: 'fifty' }, colour: 'blue' });
    const en = await post(bad, 'en');
    const pt = await post(bad, 'pt-BR');
    expect(en.res.statusCode).toBe(422);
    expect(pt.res.statusCode).toBe(422);
    expect(pt.body.error).toBe(en.body.error);
    expect(pt.body.details!.map((d) => d.field)).toEqual(en.body.details!.map((d) => d.field));
    const said = (b: Envelope) => Object.fromEntries(b.details!.map((d) => [d.field, d.message]));
    expect(said(en.body)).toMatchObject({ 'payment.amount': 'must be of type number', colour: 'is not a known field' });
    expect(said(pt.body)).toMatchObject({ 'payment.amount': 'deve ser do tipo número (number)', colour: 'não é um campo conhecido' });
    expect(pt.body.message).toMatch(/^(payment\.amount deve ser do tipo número \(number\)|colour não é um campo conhecido) \(e mais 1 problema\)$/);
    expect(en.res.headers['content-language']).toBe('en');
    expect(pt.res.headers['content-language']).toBe('pt-BR');
    expect(pt.res.headers.vary).toContain('Accept-Language');
  });

  it("a domain rule: the NCM's detail keeps its field, the sentence is Portuguese", async () => {
    const bad = sale(issuerId);
    bad.items[0]!.ncm = '0901';
    const en = await post(bad, 'en');
    const pt = await post(bad, 'pt-BR,pt;q=0.9,en;q=0.8');
    expect(en.res.statusCode).toBe(422);
    const ncm = (b: Envelope) => b.details!.find((d) => d.field === 'items[0].ncm')!;
    expect(ncm(en.body).message).toBe('must be the 8-digit NCM code of the product (digits only)');
    expect(ncm(pt.body)).toEqual({ ...ncm(en.body), message: 'deve ser o código NCM de 8 dígitos do produto (só dígitos)' });
    expect(pt.body.message).toBe('items[0].ncm deve ser o código NCM de 8 dígitos do produto (só dígitos)');
  });

  it('without the header the answer is English; a q-weighted header picks the heavier language', async () => {
    const bad = sale(issuerId, { payment: { method: 'dinheiro', amount: 'fifty' } });
    const none = await post(bad);
    expect(none.body.details![0]).toEqual({ field: 'payment.amount', message: 'must be of type number' });
    expect(none.res.headers['content-language']).toBe('en');
    const ptHeavier = await post(bad, 'en;q=0.4, pt-BR;q=0.9');
    expect(ptHeavier.body.details![0]!.message).toBe('deve ser do tipo número (number)');
    const enHeavier = await post(bad, 'pt-BR;q=0.3, en');
    expect(enHeavier.body.details![0]!.message).toBe('must be of type number');
    const other = await post(bad, 'de-DE, fr;q=0.9');
    expect(other.res.headers['content-language']).toBe('en');
  });

  it("every code's envelope: a sentence the catalog lacks falls back to its code's Portuguese sentence", async () => {
    const pt = await t.app.inject({ method: 'GET', url: '/v1/nfce/nfce_doesnotexist000000', headers: { ...auth, 'accept-language': 'pt-BR' } });
    const en = await t.app.inject({ method: 'GET', url: '/v1/nfce/nfce_doesnotexist000000', headers: auth });
    expect(pt.statusCode).toBe(en.statusCode);
    expect(pt.json().error).toBe(en.json().error);
    expect(en.json().message).not.toMatch(/[ãçéí]/);
    expect(pt.json().message).toMatch(/^(Não encontrado|Nenhum registro)/);
    const route = await t.app.inject({ method: 'GET', url: '/v1/nowhere', headers: { ...auth, 'accept-language': 'pt-BR' } });
    expect(route.json()).toMatchObject({ error: 'not_found', message: 'Não há rota GET /v1/nowhere.' });
    const unauth = await t.app.inject({ method: 'GET', url: '/v1/nfce', headers: { authorization: 'Bearer sk_test_nope', 'accept-language': 'pt-BR' } });
    expect(unauth.statusCode).toBe(401);
    expect(unauth.json().error).toBe('unauthorized');
    expect(unauth.json().message).not.toMatch(/\b(the|is|and|key)\b/i);
  });
});

describe("a rejected note's hint", () => {
  it('reject:778 -> the hint in Portuguese, code, field and the authority message as in English', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, 'x-sandbox-scenario': 'reject:778' }, payload: sale(issuerId) });
    expect(created.statusCode, created.body).toBe(202);
    const id = created.json().id as string;
    const en = await waitForStatus(t, auth, id, 'rejected');
    const ptRes = await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: { ...auth, 'accept-language': 'pt-BR' } });
    const pt = ptRes.json();
    expect(en.rejection.hint).toBe('The NCM does not exist in the current table (codes change); look up the product in the official NCM table and send the 8-digit code.');
    expect(pt.rejection).toEqual({
      ...en.rejection,
      hint: 'O NCM não existe na tabela vigente (os códigos mudam); procure o produto na tabela oficial de NCM e envie o código de 8 dígitos.',
    });
    expect(ptRes.headers['content-language']).toBe('pt-BR');
    // The list says the same.
    const list = await t.app.inject({ method: 'GET', url: `/v1/nfce?status=rejected`, headers: { ...auth, 'accept-language': 'pt-BR' } });
    const row = (list.json().data as Array<{ id: string; rejection: { hint: string } }>).find((n) => n.id === id);
    expect(row?.rejection.hint).toBe(pt.rejection.hint);
  });
});

describe('a slip in a field name or a value is answered with the word meant', () => {
  it('an item field and a payment method misspelt: "did you mean" in English, "você quis dizer" in Portuguese', async () => {
    const base = sale(issuerId);
    const [item] = base.items as Array<Record<string, unknown>>;
    const { description, ...rest } = item!;
    const slip = { ...base, items: [{ ...rest, descripton: description }], payment: { method: 'dinhero', amount: 50 } };
    const en = await post(slip, 'en');
    expect(en.res.statusCode).toBe(422);
    expect(en.body.details).toEqual(expect.arrayContaining([
      { field: 'items[0].descripton', message: 'is not a known field (did you mean "description"?)' },
      expect.objectContaining({ field: 'payment.method', message: expect.stringMatching(/ \(did you mean "dinheiro"\?\)$/) }),
    ]));
    const pt = await post(slip, 'pt-BR');
    expect(pt.body.details).toEqual(expect.arrayContaining([
      { field: 'items[0].descripton', message: 'não é um campo conhecido (você quis dizer "description"?)' },
    ]));
  });

  it('a webhook event type misspelt names the type meant', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: 'https://example.com/hook', event_types: ['nfce.authorised'] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].message).toMatch(/\(did you mean "nfce\.authorized"\?\)$/);
  });
});

