import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, readyIssuer, sale } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { eventually } from './support/webhook-receiver.js';

// GET /v1/search (migrations 0021 and 0023, platform/search). Every account here is fresh, so what a search
// finds is what this file made: no test depends on the shared database being empty.

interface Result {
  type: string;
  id: string;
  title: string;
  snippet: string;
  url: string;
  matched: string;
  score: number;
  issuer_id: string | null;
  note_id: string | null;
  status: string | null;
  created_at: string;
}

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
let issuerCnpj: string;

beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
  issuerCnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj as string;
}, 60_000);
afterAll(async () => t.runtime.close());

async function search(query: Record<string, string | number>, headers = auth) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const res = await t.app.inject({ method: 'GET', url: `/v1/search?${qs}`, headers });
  return { status: res.statusCode, body: res.json() as { data: Result[]; has_more: boolean; error?: string; details?: Array<{ field: string }> } };
}

async function found(q: string, extra: Record<string, string | number> = {}, headers = auth): Promise<Result[]> {
  const r = await search({ q, ...extra }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

const item = (description: string) => ({ description, quantity: 1, unit_price: 10, ncm: '19052090', cfop: '5102', unit: 'UN', cst_icms: '102' });

describe('GET /v1/search', () => {
  it('finds a note the moment its POST answers, by words of its items with accents and stems ignored', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId, { items: [item('Pão Francês integral'), item('Rosquinhas de Côco')] }) });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().id as string;
    // No wait of any kind: the index row was committed with the note.
    for (const q of ['pao frances', 'PÃO FRANCÊS', 'rosquinha coco', 'ROSQUINHAS', 'integral']) {
      const hits = await found(q);
      expect(hits.map((h) => h.id), q).toContain(id);
    }
    const hit = (await found('pao frances')).find((h) => h.id === id)!;
    expect(hit).toMatchObject({ type: 'nfce', url: `/v1/nfce/${id}`, issuer_id: issuerId, note_id: id, matched: 'text' });
    expect(hit.title).toMatch(/^NFC-e nº \d+ série \d+/);
    expect(hit.snippet).toContain('<mark>Pão</mark> <mark>Francês</mark>');
    // Words of no note of this account match nothing.
    expect(await found('paralelepipedo')).toEqual([]);
  });

  it('finds the issuer by legal or trade name, and by its CNPJ with or without punctuation, exact match first', async () => {
    expect((await found('padaria exemplo', { type: 'issuer' })).map((h) => h.id)).toContain(issuerId);
    const punctuated = issuerCnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
    for (const q of [issuerCnpj, punctuated]) {
      const hits = await found(q);
      expect(hits[0], q).toMatchObject({ type: 'issuer', id: issuerId, matched: 'identifier', url: `/v1/issuers/${issuerId}` });
      expect(hits[0]!.score).toBeGreaterThanOrEqual(100);
    }
    // A prefix of 8+ digits (the CNPJ root) still finds it.
    expect((await found(issuerCnpj.slice(0, 12))).map((h) => h.id)).toContain(issuerId);
  });

  it('finds an authorized note by its access key, by a prefix of it, and by its protocol', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status).toBe('authorized');
    const byKey = await found(note.access_key as string);
    expect(byKey[0]).toMatchObject({ id: note.id, matched: 'identifier', status: 'authorized' });
    expect(byKey[0]!.snippet).toContain(`<mark>${note.access_key as string}</mark>`);
    expect((await found((note.access_key as string).slice(0, 30))).map((h) => h.id)).toContain(note.id);
    expect((await found(note.protocolo as string))[0]).toMatchObject({ id: note.id, matched: 'identifier' });
    // external_ref, punctuation ignored.
    expect((await found((note.external_ref as string).toUpperCase()))[0]).toMatchObject({ id: note.id, matched: 'identifier' });
  });

  it('tolerates typos in names (trigram similarity) and ranks an exact identifier first', async () => {
    const named = await t.app.inject({
      method: 'POST', url: '/v1/nfce', headers: auth,
      payload: sale(issuerId, { consumer: { cpf: '52998224725', name: 'Joaquina Bittencourt' } }),
    });
    expect(named.statusCode, named.body).toBe(202);
    const typo = await found('Bitencourt');
    expect(typo.map((h) => h.id)).toContain(named.json().id);
    expect(typo.find((h) => h.id === named.json().id)).toMatchObject({ matched: 'similar', snippet: expect.stringContaining('<mark>Bittencourt</mark>') });
    // CPF with punctuation.
    expect((await found('529.982.247-25'))[0]).toMatchObject({ id: named.json().id, matched: 'identifier' });

    // 771234 is exactly one note's external_ref, a prefix of another's and a word of a third's item.
    const post = async (extra: Record<string, unknown>) => {
      const r = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId, extra) });
      expect(r.statusCode, r.body).toBe(202);
      return r.json().id as string;
    };
    const asWord = await post({ items: [item('Parafuso sextavado 771234')] });
    const asPrefix = await post({ external_ref: '771234-B' });
    const exact = await post({ external_ref: '771234' });
    const hits = await found('771234');
    expect(hits.map((h) => h.id)).toEqual([exact, asPrefix, asWord]);
    expect(hits.map((h) => h.matched)).toEqual(['identifier', 'identifier_prefix', 'text']);
  });

  it("finds an authorized note by its protocol once, as the note: its created, transmitted and authorized lines are not indexed", async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId, { items: [item('Broa de milho caseira')] }));
    expect(note.status).toBe('authorized');
    const hits = await found(note.protocolo as string);
    expect(hits.map((h) => [h.type, h.id])).toEqual([['nfce', note.id]]);
    // The history still tells the three steps; only the search leaves out what the note's document says.
    const lines = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/events`, headers: auth })).json().data as Array<{ type: string }>;
    expect(lines.map((l) => l.type)).toEqual(expect.arrayContaining(['created', 'transmitted', 'authorized']));
    expect((await found('attempt', { type: 'event' })).filter((h) => h.note_id === note.id)).toEqual([]);
    expect((await found('signed', { type: 'event' })).filter((h) => h.note_id === note.id)).toEqual([]);
  });

  it('indexes rejections and their events, and filters by type, status, issuer and date', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId, { items: [item('Biscoito amanteigado')] }), { 'x-sandbox-scenario': 'reject:225' });
    expect(note.status).toBe('rejected');
    const message = (note.rejection as { message: string }).message;
    const word = message.split(/\s+/).filter((w) => /^[\p{L}]{6,}$/u.test(w))[0]!;
    const hits = await found(word);
    expect(hits.map((h) => h.id)).toContain(note.id);
    const event = hits.find((h) => h.type === 'event' && h.note_id === note.id);
    expect(event, JSON.stringify(hits)).toMatchObject({ url: `/v1/nfce/${note.id}/events`, issuer_id: issuerId, status: 'rejected' });

    expect((await found('biscoitos', { status: 'rejected' })).map((h) => h.id)).toEqual([note.id]);
    expect(await found('biscoito', { status: 'authorized' })).toEqual([]);
    expect((await found(word, { type: 'event' })).every((h) => h.type === 'event')).toBe(true);
    expect((await found(word, { type: 'nfce' })).map((h) => h.id)).toContain(note.id);
    expect(await found('biscoito', { type: 'issuer' })).toEqual([]);

    const other = await readyIssuer(t, auth, { nome_fantasia: 'Confeitaria Outra Loja' });
    expect(await found('biscoito', { issuer_id: other })).toEqual([]);
    expect((await found('biscoito', { issuer_id: issuerId })).map((h) => h.id)).toContain(note.id);
    expect((await found('confeitaria', { issuer_id: other })).map((h) => h.id)).toEqual([other]);

    const created = new Date(note.created_at as string);
    expect((await found('biscoito', { 'created_at[gte]': new Date(created.getTime() - 1).toISOString() })).map((h) => h.id)).toContain(note.id);
    expect(await found('biscoito', { 'created_at[gte]': new Date(created.getTime() + 1).toISOString() })).toEqual([]);
    expect(await found('biscoito', { 'created_at[lt]': created.toISOString() })).toEqual([]);
  });

  it('re-indexes an issuer in the transaction that renames it', async () => {
    const id = await readyIssuer(t, auth, { nome_fantasia: 'Quitanda Amarela' });
    expect((await found('quitanda amarela')).map((h) => h.id)).toEqual([id]);
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${id}`, headers: auth, payload: { nome_fantasia: 'Empório Verde' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await found('quitanda amarela')).toEqual([]);
    expect((await found('emporio verde'))[0]).toMatchObject({ id, type: 'issuer', title: 'Empório Verde' });
  });

  it('pages with limit and starting_after like the lists, without overlap or gaps', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId, { items: [item(`Tapioca recheada ${'x'.repeat(i)}`)] }) });
      expect(r.statusCode, r.body).toBe(202);
      ids.add(r.json().id as string);
    }
    const all = await found('tapioca', { limit: 100 });
    expect(new Set(all.map((h) => h.id))).toEqual(ids);
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const r = await search({ q: 'tapioca', limit: 2, ...(after ? { starting_after: after } : {}) });
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((h) => h.id));
      if (!r.body.has_more) break;
      after = r.body.data.at(-1)!.id;
    }
    expect(seen).toEqual(all.map((h) => h.id));
  });

  it('finds NF-e by recipient and NFS-e by taker and service, with their URLs', async () => {
    const { note: nfe } = await emitNfeSettled(t, auth, invoice(issuerId));
    const nfeHits = await found('mercado boa compra', { type: 'nfe' });
    expect(nfeHits[0]).toMatchObject({ id: nfe.id, url: `/v1/nfe/${nfe.id}` });
    expect((await found('11.222.333/0001-81', { type: 'nfe' }))[0]).toMatchObject({ id: nfe.id, matched: 'identifier' });

    const provider = await nfseIssuer(t, auth);
    const { note: nfse } = await issueNfseSettled(t, auth, serviceInvoice(provider, { tomador: { ...serviceInvoice(provider).tomador, name: 'Teodoro Albuquerque' } }));
    const nfseHits = await found('albuquerque software', { type: 'nfse' });
    expect(nfseHits[0]).toMatchObject({ id: nfse.id, url: `/v1/nfse/${nfse.id}` });
    expect((await found(nfse.access_key as string))[0]).toMatchObject({ id: nfse.id, matched: 'identifier' });
    if (nfse.nfse_key) expect((await found(nfse.nfse_key as string))[0]).toMatchObject({ id: nfse.id, matched: 'identifier' });
  });

  it('finds NF-e received from a supplier by its name (typos too), CNPJ and access key, the moment the download files it, and its manifestation', async () => {
    // Held for the issuer's account: the simulated authority keeps each account's records apart.
    const tenant = (await t.db.query<{ account_id: string }>('SELECT account_id FROM issuers WHERE id = $1', [issuerId])).rows[0]!.account_id;
    const held = await t.simulator.holdReceivedNote({ recipient: { CNPJ: issuerCnpj }, tenant });
    const sync = await t.app.inject({ method: 'POST', url: '/v1/nfe/received/sync', headers: auth, payload: { issuer_id: issuerId } });
    expect(sync.statusCode, sync.body).toBe(202);
    const received = await eventually(async () => {
      const l = (await t.app.inject({ method: 'GET', url: `/v1/nfe/received?issuer_id=${issuerId}`, headers: auth })).json().data as Array<{ id: string; access_key: string }>;
      return l.find((r) => r.access_key === held.accessKey) ?? null;
    }, 20_000, () => 'the received NF-e');
    const url = `/v1/nfe/received/${received.id}`;
    const number = String(Number(held.accessKey.slice(25, 34)));
    for (const q of ['fornecedor simulado', 'Fornecdor Simulado', '11.444.777/0001-61', held.accessKey]) {
      const hit = (await found(q, { type: 'nfe_received' })).find((h) => h.id === received.id);
      expect(hit, q).toMatchObject({ type: 'nfe_received', url, issuer_id: issuerId, note_id: null, status: 'authorized' });
      expect(hit!.title, q).toBe(`NF-e recebida nº ${number} série ${Number(held.accessKey.slice(22, 25))} - FORNECEDOR SIMULADO LTDA`);
    }
    expect((await found(held.accessKey))[0]).toMatchObject({ id: received.id, matched: 'identifier', snippet: expect.stringContaining(`<mark>${held.accessKey}</mark>`) });
    expect((await found('fornecedor simulado', { type: 'nfe_received' })).find((h) => h.id === received.id)!.snippet).toContain('<mark>FORNECEDOR</mark> <mark>SIMULADO</mark>');
    expect((await t.app.inject({ method: 'GET', url, headers: auth })).statusCode).toBe(200);
    expect(await found('fornecedor simulado', { type: 'nfce' })).toEqual([]);

    // The recipient's manifestation on it (migration 0025): its justification and its type in words
    // find it as soon as it is requested, its protocol once registered, below the note for the key.
    const justification = 'Mercadoria devolvida ao transportador sem conferência';
    const res = await t.app.inject({ method: 'POST', url: `/v1/nfe/${received.id}/manifestation`, headers: auth, payload: { type: 'nao_realizada', justification } });
    expect(res.statusCode, res.body).toBe(202);
    const registered = await eventually(async () => {
      const hit = (await found('devolvida transportador conferencia', { type: 'nfe_manifestation' }))[0];
      return hit?.status === 'registered' ? hit : null;
    }, 20_000, () => 'the manifestation registered');
    expect(registered).toMatchObject({ type: 'nfe_manifestation', url, issuer_id: issuerId, note_id: null, matched: 'text' });
    expect(registered.title).toBe(`Operação não realizada - NF-e recebida nº ${number} série ${Number(held.accessKey.slice(22, 25))} - FORNECEDOR SIMULADO LTDA`);
    expect(registered.snippet).toContain('<mark>devolvida</mark> ao <mark>transportador</mark>');
    expect((await found('operacao nao realizada', { type: 'nfe_manifestation' })).map((h) => h.id)).toEqual([registered.id]);
    const protocol = (await t.app.inject({ method: 'GET', url, headers: auth })).json().manifestations[0].protocolo as string;
    expect(protocol).toMatch(/^\d{15}$/);
    expect((await found(protocol))[0]).toMatchObject({ id: registered.id, type: 'nfe_manifestation', matched: 'identifier' });
    expect((await found(held.accessKey)).slice(0, 2).map((h) => [h.type, h.id])).toEqual([['nfe_received', received.id], ['nfe_manifestation', registered.id]]);
  });

  it('finds a correction letter (CC-e) by its text and protocol, below its NF-e for the access key', async () => {
    const { note } = await emitNfeSettled(t, auth, invoice(issuerId));
    expect(note.status).toBe('authorized');
    const cce = await t.app.inject({ method: 'POST', url: `/v1/nfe/${note.id}/cce`, headers: auth, payload: { correction: 'Endereço de entrega: Travessa dos Girassóis, 12, fundos' } });
    expect([200, 202], cce.body).toContain(cce.statusCode);
    const registered = await eventually(async () => {
      const hit = (await found('travessa girassois', { type: 'nfe_correction' }))[0];
      return hit?.status === 'registered' ? hit : null;
    }, 20_000, () => 'the CC-e registered');
    expect(registered).toMatchObject({ type: 'nfe_correction', url: `/v1/nfe/${note.id}`, note_id: note.id, issuer_id: issuerId, matched: 'text' });
    expect(registered.title).toMatch(/^CC-e 1 - NF-e nº \d+ série \d+$/);
    expect(registered.snippet).toContain('<mark>Travessa</mark> dos <mark>Girassóis</mark>');
    expect((await t.app.inject({ method: 'GET', url: registered.url, headers: auth })).json().correction).toMatchObject({ sequence: 1 });
    const protocol = (await t.app.inject({ method: 'GET', url: registered.url, headers: auth })).json().correction.protocolo as string;
    expect((await found(protocol))[0]).toMatchObject({ id: registered.id, type: 'nfe_correction', matched: 'identifier' });
    const byKey = await found(note.access_key as string);
    expect(byKey.slice(0, 2).map((h) => [h.type, h.id])).toEqual([['nfe', note.id], ['nfe_correction', registered.id]]);
  });

  it('finds an inutilization by its justification, its protocol and any number of its range', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId));
    const from = (note.number as number) + 1;
    const res = await t.app.inject({
      method: 'POST', url: `/v1/issuers/${issuerId}/inutilization`, headers: auth,
      payload: { serie: 1, numero_inicial: from, numero_final: from + 2, justification: 'Queda de energia no caixa pulou a numeração' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const inu = res.json() as { id: string; protocolo: string };
    const url = `/v1/inutilizations/${inu.id}`;
    const hits = await found('queda energia numeracao');
    expect(hits[0]).toMatchObject({ id: inu.id, type: 'inutilization', url, issuer_id: issuerId, status: 'voided', title: `Inutilização NFC-e série 1 nº ${from} a ${from + 2}` });
    expect(hits[0]!.snippet).toContain('<mark>Queda</mark> de <mark>energia</mark>');
    expect((await found(inu.protocolo))[0]).toMatchObject({ id: inu.id, matched: 'identifier' });
    expect((await found(String(from + 1), { type: 'inutilization' })).map((h) => h.id)).toEqual([inu.id]);
    const got = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toEqual(res.json());
    const b = await t.newAccount('Search tenant inutilization');
    expect((await t.app.inject({ method: 'GET', url, headers: b.auth })).statusCode).toBe(404);
    expect(await found('queda energia numeracao', {}, b.auth)).toEqual([]);
  });

  it('ranks a bounded set of matches: every exact identifier, then the newest 500; a query of stop words only matches nothing', async () => {
    const c = await t.newAccount('Search many matches');
    // 520 index rows written straight into search_documents (as the triggers would), one a minute; the
    // oldest alone carries the identifier zz7777.
    await t.db.query(
      `INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at)
       SELECT 'nfce_many_' || g, 'nfce', $1, NULL, 'nfce_many_' || g, 'authorized', 'NFC-e nº ' || g, 'Broa de milho', '',
              CASE WHEN g = 1 THEN ARRAY['zz7777'] ELSE ARRAY[]::text[] END, '/v1/nfce/nfce_many_' || g, timestamptz '2026-01-01' + g * interval '1 minute'
         FROM generate_series(1, 520) AS g`,
      [c.accountId],
    );
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const r = await search({ q: 'milho', limit: 100, ...(after ? { starting_after: after } : {}) }, c.auth);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((h) => h.id));
      if (!r.body.has_more) break;
      after = r.body.data.at(-1)!.id;
    }
    expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => `nfce_many_${520 - i}`));
    const both = await found('milho or zz7777', { limit: 3 }, c.auth);
    expect(both.map((h) => [h.id, h.matched])).toEqual([['nfce_many_1', 'identifier'], ['nfce_many_520', 'text'], ['nfce_many_519', 'text']]);
    expect(await found('de', {}, c.auth)).toEqual([]);
    expect(await found('a de o', {}, c.auth)).toEqual([]);
  });

  it('finds the newest 500 across windows of weeks, the oldest exact identifier first; words ten years back at most', async () => {
    const d = await t.newAccount('Search many weeks');
    // One a day for 600 days back, the oldest alone with the identifier zz8888; one 5 days ahead (a
    // clock a little fast); one eleven years back with the identifier zz9999.
    await t.db.query(
      `INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at)
       SELECT 'nfce_day_' || g, 'nfce', $1, NULL, 'nfce_day_' || g, 'authorized', 'NFC-e nº ' || g, 'Pamonha de milho', '',
              CASE g WHEN 600 THEN ARRAY['zz8888'] WHEN 4020 THEN ARRAY['zz9999'] ELSE ARRAY[]::text[] END, '/v1/nfce/nfce_day_' || g, now() - g * interval '1 day'
         FROM generate_series(-5, 4020) AS g WHERE g NOT BETWEEN 601 AND 4019 AND g <> 0`,
      [d.accountId],
    );
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const r = await search({ q: 'pamonha', limit: 100, ...(after ? { starting_after: after } : {}) }, d.auth);
      seen.push(...r.body.data.map((h) => h.id));
      if (!r.body.has_more) break;
      after = r.body.data.at(-1)!.id;
    }
    expect(seen).toEqual([-5, -4, -3, -2, -1, ...Array.from({ length: 495 }, (_, i) => i + 1)].map((g) => `nfce_day_${g}`));
    expect((await found('pamonha or zz8888', { limit: 2 }, d.auth)).map((h) => [h.id, h.matched])).toEqual([['nfce_day_600', 'identifier'], ['nfce_day_-5', 'text']]);
    // Dates narrow the windows: 450 to 550 days back, 100 of them on a page.
    const old = await found('pamonha', { limit: 100, 'created_at[gte]': new Date(Date.now() - 550.5 * 86_400_000).toISOString(), 'created_at[lt]': new Date(Date.now() - 449.5 * 86_400_000).toISOString() }, d.auth);
    expect(old.map((h) => h.id)).toEqual(Array.from({ length: 100 }, (_, i) => `nfce_day_${450 + i}`));
    // Past the ten-year horizon a document is found by its identifier, not by its words.
    expect((await found('zz9999', {}, d.auth)).map((h) => [h.id, h.matched])).toEqual([['nfce_day_4020', 'identifier']]);
    expect(await found('pamonha', { 'created_at[lt]': new Date(Date.now() - 3650 * 86_400_000).toISOString() }, d.auth)).toEqual([]);
  });

  it('keeps a quoted phrase a phrase, and excludes a -word', async () => {
    const e = await t.newAccount('Search phrases');
    await t.db.query(
      `INSERT INTO search_documents (ref_id, kind, account_id, issuer_id, note_id, status, title, body, names, idents, url, created_at)
       VALUES ('nfce_ph_1', 'nfce', $1, NULL, 'nfce_ph_1', 'authorized', 'NFC-e nº 1', 'Pão francês quentinho', '', '{}', '/v1/nfce/nfce_ph_1', now()),
              ('nfce_ph_2', 'nfce', $1, NULL, 'nfce_ph_2', 'authorized', 'NFC-e nº 2', 'Pão de queijo, café francês', '', '{}', '/v1/nfce/nfce_ph_2', now() - interval '1 hour')`,
      [e.accountId],
    );
    expect((await found('pao frances', {}, e.auth)).map((h) => h.id)).toEqual(['nfce_ph_1', 'nfce_ph_2']);
    expect((await found('"pao frances"', {}, e.auth)).map((h) => h.id)).toEqual(['nfce_ph_1']);
    expect((await found('pao -queijo', {}, e.auth)).map((h) => h.id)).toEqual(['nfce_ph_1']);
  });

  it("never shows another account's words, names, keys or CNPJ", async () => {
    const b = await t.newAccount('Search tenant B');
    const bIssuer = await readyIssuer(t, b.auth, { nome_fantasia: 'Goiabada Cascão Doces' });
    const { note } = await emitSettled(t, b.auth, sale(bIssuer, { items: [item('Goiabada cascão 500g')], consumer: { cpf: '11144477735', name: 'Ermenegildo Tavares' } }));
    const bCnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${bIssuer}`, headers: b.auth })).json().cnpj as string;
    for (const q of ['goiabada cascao', 'Ermenegildo Tavares', 'Ermenegildo Tavarez', note.access_key as string, bCnpj, '111.444.777-35', note.external_ref as string]) {
      expect(await found(q), q).toEqual([]);
      expect((await found(q, {}, b.auth)).length, `B finds its own ${q}`).toBeGreaterThan(0);
    }
  });

  it('answers 422 naming the field for bad parameters, and never 500 on odd text', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{}, 'q'],
      [{ q: '' }, 'q'],
      [{ q: '   ' }, 'q'],
      [{ q: 'x'.repeat(201) }, 'q'],
      [{ q: 'pao', type: 'invoice' }, 'type'],
      [{ q: 'pao', limit: 0 }, 'limit'],
      [{ q: 'pao', limit: 101 }, 'limit'],
      [{ q: 'pao', 'created_at[gte]': 'yesterday' }, 'created_at[gte]'],
      [{ q: 'pao', status: 's'.repeat(41) }, 'status'],
      [{ q: 'pao', unknown: 1 }, 'unknown'],
    ];
    for (const [query, field] of cases) {
      const r = await search(query);
      expect([400, 422], `${JSON.stringify(query)}: ${JSON.stringify(r.body)}`).toContain(r.status);
      expect(JSON.stringify(r.body), JSON.stringify(query)).toContain(field);
    }
    for (const q of ["'", '\\', "a & b | !c <-> (d:*", ':* & |', '"unclosed', '-', 'or', '!!!', '\'\'\':*A', '😀 ção', 'a'.repeat(200), '1 2 3 4 5 6 7 8 9 10 11 12 13 14 15', "pão' OR 1=1 --"]) {
      const r = await search({ q });
      expect(r.status, `${q}: ${JSON.stringify(r.body)}`).toBe(200);
    }
    // An unknown cursor is an empty page, as in the lists.
    expect((await search({ q: 'pao', starting_after: 'nfce_unknown' })).body).toEqual({ data: [], has_more: false });
  });
});
