import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp, sale } from './support/nfce-flow.js';

// An issuer's series through the API, a sale naming its series, and numbers
// voided ahead of the counter (docs/fiscal/series.md).

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const justification = 'Numeracao pulada por falha no sistema do caixa';
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers = auth) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const sell = async (extra: Record<string, unknown> = {}) => {
  const res = await call('POST', '/v1/nfce', sale(issuerId, extra));
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { id: string; serie: number; number: number };
};
const seriesOf = async (model: number, serie: number) =>
  (await call('GET', `/v1/issuers/${issuerId}/series`)).json().data.find((s: { model: number; series: number }) => s.model === model && s.series === serie);

describe('an issuer\'s series', () => {
  it('every issuer has series 1 of each model; a series is opened once, in 0-889', async () => {
    const list = await call('GET', `/v1/issuers/${issuerId}/series`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toEqual([
      expect.objectContaining({ model: 55, series: 1, next_number: 1, default: true, status: 'active', voided_ahead: [] }),
      expect.objectContaining({ model: 65, series: 1, next_number: 1, default: true, status: 'active' }),
    ]);
    const created = await call('POST', `/v1/issuers/${issuerId}/series`, { model: 65, series: 2 });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ object: 'series', model: 65, series: 2, next_number: 1, default: false, gaps: [], void_by: null });
    expect((await call('POST', `/v1/issuers/${issuerId}/series`, { model: 65, series: 2 })).json()).toMatchObject({ error: 'series_exists', details: [{ field: 'series' }] });
    expect((await call('POST', `/v1/issuers/${issuerId}/series`, { model: 55, series: 1 })).statusCode).toBe(409);
    // 890-899 are the fisco's (avulsa), 900-999 SCAN: not an issuer's own software (XSD serie, MOC B26-10).
    const scan = await call('POST', `/v1/issuers/${issuerId}/series`, { model: 65, series: 900 });
    expect(scan.statusCode).toBe(422);
    expect(scan.json().details[0].field).toContain('series');
  });

  it('a sale names its series; a series never opened is refused on series', async () => {
    const note = await sell({ series: 2 });
    expect(note).toMatchObject({ serie: 2, number: 1 });
    const key = (await t.runtime.ctx.db.query<{ access_key: string }>('SELECT access_key FROM notes WHERE id = $1', [note.id])).rows[0]!.access_key;
    expect(key.slice(22, 25)).toBe('002'); // access key positions 23-25: serie (docs/fiscal/access-key.md)
    const unknown = await call('POST', '/v1/nfce', sale(issuerId, { series: 3 }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details).toEqual([expect.objectContaining({ field: 'series', message: expect.stringContaining('POST /v1/issuers/') })]);
    expect((await seriesOf(65, 2)).highest_used).toBe(1);
  });

  it('next_number never goes back onto a used number; moving it forward lists the gap to void', async () => {
    const back = await call('PATCH', `/v1/issuers/${issuerId}/series/65/2`, { next_number: 1 });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ error: 'series_number_used', details: [{ field: 'next_number' }] });
    const forward = await call('PATCH', `/v1/issuers/${issuerId}/series/65/2`, { next_number: 10 });
    expect(forward.statusCode, forward.body).toBe(200);
    expect(forward.json()).toMatchObject({ next_number: 10, gaps: [{ from: 2, to: 9 }], void_by: expect.stringMatching(/^\d{4}-\d{2}-10$/) });
    expect((await sell({ series: 2 })).number).toBe(10);
  });

  it('a range voided ahead keeps the counter and is stepped over; next_number cannot land in it', async () => {
    const voided = await call('POST', `/v1/issuers/${issuerId}/inutilization`, { serie: 2, numero_inicial: 13, numero_final: 14, justification });
    expect(voided.json(), voided.body).toMatchObject({ status: 'voided' });
    expect(await seriesOf(65, 2)).toMatchObject({ next_number: 11, voided_ahead: [{ from: 13, to: 14 }] });
    expect((await sell({ series: 2 })).number).toBe(11);
    const into = await call('PATCH', `/v1/issuers/${issuerId}/series/65/2`, { next_number: 14 });
    expect(into.json()).toMatchObject({ error: 'series_number_used', details: [{ field: 'next_number', message: expect.stringContaining('13-14') }] });
    expect((await sell({ series: 2 })).number).toBe(12);
    expect((await sell({ series: 2 })).number).toBe(15);
    // A range voided behind the counter is a floor too.
    expect((await call('PATCH', `/v1/issuers/${issuerId}/series/65/2`, { next_number: 16 })).statusCode).toBe(200);
    const beyond = await call('PATCH', `/v1/issuers/${issuerId}/series/65/2`, { next_number: 30 });
    expect(beyond.json().gaps).toEqual([{ from: 16, to: 29 }]);
  });

  it('voiding 950-952 while the next number is small leaves the series where it was', async () => {
    const first = await sell();
    const voided = await call('POST', `/v1/issuers/${issuerId}/inutilization`, { serie: 1, numero_inicial: 950, numero_final: 952, justification });
    expect(voided.json(), voided.body).toMatchObject({ status: 'voided' });
    expect((await sell()).number).toBe(first.number + 1);
    expect(await seriesOf(65, 1)).toMatchObject({ next_number: first.number + 2, voided_ahead: [{ from: 950, to: 952 }] });
  });

  it('a retired series numbers no sale until it is opened again; retiring series 1 refuses sales naming none', async () => {
    const retired = await call('PATCH', `/v1/issuers/${issuerId}/series/65/2`, { retired: true });
    expect(retired.json()).toMatchObject({ status: 'retired', retired_at: expect.any(String), gaps: [] });
    const refused = await call('POST', '/v1/nfce', sale(issuerId, { series: 2 }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details[0]).toMatchObject({ field: 'series', message: expect.stringContaining('retired') });
    expect((await call('PATCH', `/v1/issuers/${issuerId}/series/65/2`, { retired: false })).json().status).toBe('active');
    expect((await sell({ series: 2 })).serie).toBe(2);

    expect((await call('PATCH', `/v1/issuers/${issuerId}/series/65/1`, { retired: true })).statusCode).toBe(200);
    try {
      const none = await call('POST', '/v1/nfce', sale(issuerId));
      expect(none.statusCode, none.body).toBe(422);
      expect(none.json().details[0].field).toBe('series');
    } finally {
      await call('PATCH', `/v1/issuers/${issuerId}/series/65/1`, { retired: false });
    }
    await sell();
  });

  it("another account's issuer and its series are unreachable (404), and a series not opened is 404", async () => {
    const other = await t.newAccount('Intruder');
    for (const [method, url, body] of [
      ['GET', `/v1/issuers/${issuerId}/series`, undefined],
      ['POST', `/v1/issuers/${issuerId}/series`, { model: 65, series: 7 }],
      ['PATCH', `/v1/issuers/${issuerId}/series/65/2`, { next_number: 500 }],
      ['PATCH', `/v1/issuers/${issuerId}/series/65/1`, { retired: true }],
    ] as const) {
      const res = await call(method, url, body, other.auth);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    expect(await seriesOf(65, 2)).toMatchObject({ status: 'active' });
    expect((await seriesOf(65, 7))).toBeUndefined();
    expect((await call('PATCH', `/v1/issuers/${issuerId}/series/55/9`, { next_number: 5 })).statusCode).toBe(404);
  });
});
