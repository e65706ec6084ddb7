import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { SP_ISSUER, emitSettled, emittingApp, sale, waitForSettled } from './support/nfce-flow.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp({ clock }));
});
afterAll(async () => t.runtime.close());

async function authorizedNote(extra: Record<string, unknown> = {}) {
  const { note } = await emitSettled(t, auth, sale(issuerId, extra));
  expect(note.status, JSON.stringify(note)).toBe('authorized');
  return note;
}

describe('validation before anything is reserved', () => {
  it('an item without ncm is 422 naming items[0].ncm', async () => {
    const bad = sale(issuerId);
    delete (bad.items[0] as Record<string, unknown>).ncm;
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: bad });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'validation_error', details: expect.arrayContaining([expect.objectContaining({ field: 'items[0].ncm' })]) });
  });

  it('a semantic problem (bad NCM, CST of the wrong regime) names the field too', async () => {
    const bad = sale(issuerId);
    bad.items[1]!.ncm = '123';
    (bad.items[0] as Record<string, unknown>).cst_icms = '00';
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: bad });
    expect(res.statusCode).toBe(422);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['items[1].ncm', 'items[0].cst_icms']));
  });

  it('an issuer without certificate or CSC is 422 issuer_not_ready saying which', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload: { ...SP_ISSUER, cnpj: '11222333000181' } });
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(created.json().id) });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('issuer_not_ready');
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['certificate', 'csc']));
  });

  it("another account's note is 404", async () => {
    const note = await authorizedNote();
    const other = (await t.newAccount()).auth;
    for (const url of [`/v1/nfce/${note.id}`, `/v1/nfce/${note.id}/xml`, `/v1/nfce/${note.id}/events`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: other })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: other, payload: { reason: 'Cliente desistiu da compra' } })).statusCode).toBe(404);
  });
});

describe('one sale per Idempotency-Key', () => {
  it('20 concurrent POSTs with one key make one note; after 24 hours the key no longer replays (the external_ref still refuses a second note)', async () => {
    const body = sale(issuerId);
    const headers = { ...auth, 'idempotency-key': `sale-${body.external_ref}` };
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.app.inject({ method: 'POST', url: '/v1/nfce', headers, payload: body })));
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([202]));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    const list = await t.app.inject({ method: 'GET', url: `/v1/nfce?external_ref=${body.external_ref}`, headers: auth });
    expect(list.json().data).toHaveLength(1);
    // The note's emission is over before the clock jumps a day (a job still running then would lose
    // its lease and be run again), and the next one's before it jumps back.
    await waitForSettled(t, auth, answers[0]!.json().id);
    clock.advance(24 * 3600_000 + 60_000);
    try {
      // The sale is not replayed; its external_ref is still held by the first note.
      const later = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers, payload: body });
      expect(later.statusCode, later.body).toBe(409);
      expect(later.headers['idempotency-replay']).toBeUndefined();
      expect(later.json()).toMatchObject({ error: 'duplicate_external_ref', details: [{ note_id: answers[0]!.json().id }] });
      const renewed = { ...headers, 'idempotency-key': `sale2-${body.external_ref}` };
      const another = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: renewed, payload: { ...body, allow_duplicate_external_ref: true } });
      expect(another.statusCode, another.body).toBe(202);
      expect(another.json().id).not.toBe(answers[0]!.json().id);
      await waitForSettled(t, auth, another.json().id);
    } finally {
      clock.advance(-(24 * 3600_000 + 60_000));
    }
  });
  it('a note stored under the key whose answer was lost (crash before the answer was recorded) is the answer: no second note, no number used', async () => {
    const body = sale(issuerId);
    const headers = { ...auth, 'idempotency-key': `lost-${body.external_ref}` };
    const first = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers, payload: body });
    expect(first.statusCode).toBe(202);
    // As if the process died between committing the note and recording the answer to the key.
    await t.runtime.ctx.db.query('DELETE FROM idempotency_keys WHERE key = $1', [headers['idempotency-key']]);
    const again = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers, payload: body });
    // 201 once the note is authorized meanwhile: the answer is the note as it stands.
    expect([201, 202]).toContain(again.statusCode);
    expect(again.json().id).toBe(first.json().id);
    const list = await t.app.inject({ method: 'GET', url: `/v1/nfce?external_ref=${body.external_ref}`, headers: auth });
    expect(list.json().data).toHaveLength(1);
    const next = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    expect(next.json().number).toBe(first.json().number + 1);
  });
});

describe('Idempotency-Key scope: the route, not the spelling of its URL', () => {
  // Each spelling reaches the same route (POST /v1/nfce, POST /v1/nfce/:id/cancel).
  const pctEncode = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
  const SALE_URLS = ['/v1/%6efce', '/v1/%6Efce', '/v1/nf%63e?utm=1', '/v1/nfce?x=%20', pctEncode('/v1/nfce').replace(/%2f/g, '/').toUpperCase()];

  it('a key used on POST /v1/nfce conflicts on every spelling of the URL with another body, and replays with the same body', async () => {
    const first = sale(issuerId);
    const key = `spelling-${first.external_ref}`;
    const headers = { ...auth, 'idempotency-key': key };
    const created = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers, payload: first });
    expect(created.statusCode, created.body).toBe(202);
    for (const url of SALE_URLS) {
      const other = await t.app.inject({ method: 'POST', url, headers, payload: sale(issuerId) });
      expect(other.statusCode, `${url}: ${other.body}`).toBe(422);
      expect(other.json()).toMatchObject({ error: 'idempotency_conflict', message: expect.stringContaining(key) });
      const same = await t.app.inject({ method: 'POST', url, headers, payload: first });
      expect([201, 202], `${url}: ${same.body}`).toContain(same.statusCode);
      expect(same.headers['idempotency-replay'], url).toBe('true');
      expect(same.json().id).toBe(created.json().id);
    }
    const list = await t.app.inject({ method: 'GET', url: '/v1/nfce?limit=100', headers: auth });
    const refs = list.json().data.map((n: { id: string }) => n.id);
    expect(refs.filter((id: string) => id === created.json().id)).toHaveLength(1);
  });

  it('a key used on a cancellation conflicts when the note id is percent-encoded and the reason differs', async () => {
    const note = await authorizedNote();
    const headers = { ...auth, 'idempotency-key': `cancel-${note.id}` };
    const reason = 'Cliente desistiu da compra no caixa';
    const done = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers, payload: { reason } });
    expect(done.statusCode, done.body).toBe(200);
    for (const id of [`%${note.id.charCodeAt(0).toString(16)}${note.id.slice(1)}`, pctEncode(note.id), pctEncode(note.id).toUpperCase()]) {
      const url = `/v1/nfce/${id}/cancel`;
      const other = await t.app.inject({ method: 'POST', url, headers, payload: { reason: 'Outro motivo com mais de quinze letras' } });
      expect(other.statusCode, `${url}: ${other.body}`).toBe(422);
      expect(other.json().error).toBe('idempotency_conflict');
      const same = await t.app.inject({ method: 'POST', url, headers, payload: { reason } });
      expect(same.statusCode, url).toBe(200);
      expect(same.headers['idempotency-replay'], url).toBe('true');
    }
  });
});

describe('documents of an authorized note', () => {
  it('the nfeProc passes the official procNFe schema and xmlsec1', async () => {
    const note = await authorizedNote({ consumer: { cpf: '52998224725' } });
    const res = await t.app.inject({ method: 'GET', url: note.xml_url.replace(/^https?:\/\/[^/]+/, ''), headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const xml = res.body;
    expect(xml.startsWith('<nfeProc')).toBe(true);
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
    expect(xml).toContain(`<nProt>${note.protocolo}</nProt>`);
  });

  it('the XML of a processing or rejected note is 409', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId), { 'x-sandbox-scenario': 'reject:778' });
    expect(note.status).toBe('rejected');
    const xml = await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml`, headers: auth });
    expect(xml.statusCode).toBe(409);
    expect(xml.json().error).toBe('invalid_state');
  });
});

describe('cancellation', () => {
  it('refuses a reason under 15 characters locally', async () => {
    const note = await authorizedNote();
    const res = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'curto demais' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('reason');
    const events = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/events`, headers: auth })).json().data;
    expect(events.map((e: { type: string }) => e.type)).not.toContain('cancellation_requested');
  });

  it('cancels an authorized note and serves the procEventoNFe', async () => {
    const note = await authorizedNote();
    const res = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'canceled', cancellation: { protocolo: expect.stringMatching(/^\d{15}$/), reason: 'Cliente desistiu da compra no caixa' } });
    const xml = await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml?event=cancellation`, headers: auth });
    expect(xml.statusCode).toBe(200);
    expect(await xmllint(xml.body, 'PL_009_V4', 'procEventoCancNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml.body)).toBe('');
    // A second cancellation is a state conflict.
    const again = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
    expect(again.statusCode).toBe(409);
  });

  it('refuses past the 30-minute window without contacting the authority', async () => {
    const note = await authorizedNote();
    clock.advance(31 * 60_000);
    try {
      const res = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('cancel_window_expired');
      expect(res.json().message).toMatch(/30 minutes/);
    } finally {
      clock.advance(-31 * 60_000);
    }
  });

  it('a note that is not authorized cannot be cancelled (409)', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId), { 'x-sandbox-scenario': 'deny' });
    expect(note.status).toBe('denied');
    const cancel = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
    expect(cancel.statusCode).toBe(409);
  });
});

describe('inutilization', () => {
  it('refuses ranges with used numbers (listing them) and voids an unused range', async () => {
    const note = await authorizedNote();
    const used = await t.app.inject({
      method: 'POST', url: `/v1/issuers/${issuerId}/inutilization`, headers: auth,
      payload: { serie: 1, numero_inicial: note.number, numero_final: note.number + 2, justification: 'Falha no sistema pulou a numeracao' },
    });
    expect(used.statusCode).toBe(422);
    expect(used.json().message).toContain(String(note.number));

    const short = await t.app.inject({
      method: 'POST', url: `/v1/issuers/${issuerId}/inutilization`, headers: auth,
      payload: { serie: 1, numero_inicial: 900, numero_final: 901, justification: 'curta' },
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().details[0].field).toBe('justification');

    const ok = await t.app.inject({
      method: 'POST', url: `/v1/issuers/${issuerId}/inutilization`, headers: auth,
      payload: { serie: 1, numero_inicial: note.number + 1, numero_final: note.number + 3, justification: 'Falha no sistema pulou a numeracao' },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ status: 'voided', protocolo: expect.stringMatching(/^\d{15}$/) });
    // The voided numbers are never issued: the next sale skips them.
    const next = await authorizedNote();
    expect(next.number).toBe(note.number + 4);
  });
});
