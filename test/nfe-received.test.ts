import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { readyIssuer } from './support/nfce-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// Received documents: notes another company issued to our issuer, downloaded by NSU from the
// simulated national environment under its one-hour rule, then a confirmation unlocks the full XML.

const clock = new ManualClock(new Date());
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
let cnpj: string;
// The account's tenant at the simulated authority (authority-sim/tenant.ts): the notes it receives.
let tenant: string;

beforeAll(async () => {
  t = await createTestApp({ role: 'all', clock });
  // The simulated authority keeps the same time as the gateway, so the hour passes for both.
  t.simulator.setClock(() => clock.now());
  ({ auth, accountId: tenant } = await t.newAccount());
  issuerId = await readyIssuer(t, auth);
  cnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj;
});
afterAll(async () => {
  t.simulator.setClock(() => new Date());
  await t.runtime.close();
});

const list = async () => (await t.app.inject({ method: 'GET', url: `/v1/nfe/received?issuer_id=${issuerId}`, headers: auth })).json().data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
const sync = async () => {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfe/received/sync', headers: auth, payload: { issuer_id: issuerId } });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().next_at as string;
};
const cursor = async () => (await t.db.query<{ ult_nsu: string; last_cstat: number; next_at: Date }>('SELECT ult_nsu, last_cstat, next_at FROM nfe_dfe_cursors WHERE issuer_id = $1', [issuerId])).rows[0];

describe('NF-e received from other companies', () => {
  let keys: string[];

  it('downloads the summaries addressed to the issuer by NSU, then waits the hour once caught up', async () => {
    const a = await t.simulator.holdReceivedNote({ recipient: { CNPJ: cnpj }, tenant });
    const b = await t.simulator.holdReceivedNote({ recipient: { CNPJ: cnpj }, tenant });
    keys = [a.accessKey, b.accessKey];
    expect(new Date(await sync()).getTime()).toBe(clock.now().getTime());
    const got = await eventually(async () => {
      const l = await list();
      return l.length === 2 ? l : null;
    }, 20_000, () => 'two received notes');
    expect(got.map((r) => r.access_key).sort()).toEqual([...keys].sort());
    expect(got[0]).toMatchObject({ object: 'nfe_received', situation: 'authorized', xml_url: null, manifestation: null });
    expect(got[0]!.emitente.cnpj).toMatch(/^\d{14}$/);
    const c = await cursor();
    expect(c).toMatchObject({ ult_nsu: '000000000000002', last_cstat: 138 });
    // Caught up (ultNSU == maxNSU): the next call is an hour away (NT 2014.002).
    expect(c!.next_at.getTime()).toBe(clock.now().getTime() + 3_600_000);
    const events = await t.db.query<{ c: number }>(`SELECT count(*)::int AS c FROM events WHERE type = 'nfe.received' AND account_id = (SELECT account_id FROM issuers WHERE id = $1)`, [issuerId]);
    expect(events.rows[0]!.c).toBe(2);
  });

  it('a download asked within the hour waits for it instead of drawing a 656, then fetches in sequence', async () => {
    const c = await t.simulator.holdReceivedNote({ recipient: { CNPJ: cnpj }, tenant });
    const nextAt = await sync();
    expect(new Date(nextAt).getTime()).toBe(clock.now().getTime() + 3_600_000);
    // The download is queued for the hour, not now: the runner (on the gateway's clock) cannot take it
    // before, so the authority is not asked and no 656 is drawn.
    const queued = await t.db.query<{ run_at: Date }>(
      `SELECT run_at FROM jobs WHERE kind = 'nfe.received-sync' AND payload->>'issuerId' = $1 AND state = 'pending'`,
      [issuerId],
    );
    expect(queued.rows.map((r) => r.run_at.getTime())).toEqual([new Date(nextAt).getTime()]);
    expect((await cursor())!.last_cstat).toBe(138);
    expect(await list()).toHaveLength(2);
    clock.advance(3_600_000 + 1_000);
    t.runtime.ctx.wakeWorker();
    const got = await eventually(async () => {
      const l = await list();
      return l.length === 3 ? l : null;
    }, 20_000, () => 'the third received note after the hour');
    expect(got.map((r) => r.access_key)).toContain(c.accessKey);
    expect((await cursor())!.ult_nsu).toBe('000000000000003');
  });

  it('the full XML is refused before a manifestation and served after a confirmation (210200)', async () => {
    const target = (await list()).find((r) => r.access_key === keys[0])!;
    const before = await t.app.inject({ method: 'GET', url: `/v1/nfe/received/${target.id}/xml`, headers: auth });
    expect(before.statusCode).toBe(409);
    const bad = await t.app.inject({ method: 'POST', url: `/v1/nfe/${target.id}/manifestation`, headers: auth, payload: { type: 'nao_realizada' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details[0].field).toBe('justification');
    const res = await t.app.inject({ method: 'POST', url: `/v1/nfe/${target.id}/manifestation`, headers: auth, payload: { type: 'confirmacao' } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().manifestations[0]).toMatchObject({ type: 'confirmacao', status: 'pending' });
    const done = await eventually(async () => {
      const r = (await t.app.inject({ method: 'GET', url: `/v1/nfe/received/${target.id}`, headers: auth })).json();
      return r.xml_url ? r : null;
    }, 20_000, () => 'the confirmation to be registered and the XML downloaded');
    expect(done.manifestation).toMatchObject({ type: 'confirmacao', protocolo: expect.stringMatching(/^\d{15}$/) });
    const xml = await t.app.inject({ method: 'GET', url: `/v1/nfe/received/${target.id}/xml`, headers: auth });
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toContain(`<chNFe>${keys[0]}</chNFe>`);
    expect(await xmllint(xml.body, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml.body)).toBe('');
  });

  it('a received note of another account is not found', async () => {
    const other = await t.newAccount('Other');
    const target = (await list())[0]!;
    expect((await t.app.inject({ method: 'GET', url: `/v1/nfe/received/${target.id}`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/v1/nfe/${target.id}/manifestation`, headers: other.auth, payload: { type: 'ciencia' } })).statusCode).toBe(404);
  });
});
