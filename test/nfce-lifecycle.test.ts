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

describe('NFC-e emission end to end (HTTP -> worker -> SOAP over mTLS -> simulator)', () => {
  it('answers 202 processing, then the note is authorized', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({ status: 'processing', external_ref: expect.stringMatching(/^order-/) });
    expect(body.id).toMatch(/^nfce_/);
    const note = await waitForStatus(t, auth, body.id, 'authorized');
    expect(note.access_key).toMatch(/^35\d{42}$/);
    expect(note.protocolo).toMatch(/^\d{15}$/);
    expect(note.qrcode_url).toContain(note.access_key);
    // The settlement closed its job in the same statement: nothing is left to run or to lease again.
    const job = await t.runtime.ctx.db.query<{ state: string; locked_by: string | null }>(
      `SELECT state, locked_by FROM jobs WHERE payload->>'noteId' = $1`,
      [body.id],
    );
    expect(job.rows).toEqual([{ state: 'done', locked_by: null }]);
  });

  it('with Prefer: wait answers 201 with the authorized record', async () => {
    // The longest wait the API grants (10 s): the emission takes well under a second alone, seconds on a loaded machine.
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=10' }, payload: sale(issuerId) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().status).toBe('authorized');
    expect(res.headers['preference-applied']).toBe('wait=10');
  });

  it("the history's lines the gateway writes are said in pt-BR to a reader who asks, English otherwise (Vary: Accept-Language)", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=10' }, payload: sale(issuerId) });
    const note = res.json();
    expect(note.status).toBe('authorized');
    const read = (lang?: string) => t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/events`, headers: { ...auth, ...(lang ? { 'accept-language': lang } : {}) } });
    const en = await read();
    expect(en.headers.vary).toContain('Accept-Language');
    const enLines = en.json().data.map((l: { message: string | null }) => l.message);
    expect(enLines).toEqual(expect.arrayContaining([`NFC-e ${note.number} series ${note.serie} signed`, 'sent to the authority (attempt 1)']));
    const pt = await read('pt-BR');
    expect(pt.headers['content-language']).toBe('pt-BR');
    const ptLines = pt.json().data.map((l: { message: string | null }) => l.message);
    expect(ptLines).toEqual(expect.arrayContaining([`NFC-e ${note.number} série ${note.serie} assinada`, 'enviada à SEFAZ (tentativa 1)']));
    // The authority's own line (its xMotivo) is never translated.
    const authorized = pt.json().data.find((l: { type: string }) => l.type === 'authorized');
    expect(authorized.message).toBe(en.json().data.find((l: { type: string }) => l.type === 'authorized').message);
  });
});
