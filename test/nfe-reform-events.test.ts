import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { invoice as invoiceOf, nfeSettled } from './support/nfe-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// NT 2025.002-RTC event 112150 end to end (docs/fiscal/reform-events.md): HTTP -> signed event -> worker -> simulator.
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

async function authorizedNote() {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=10' }, payload: invoiceOf(issuerId) });
  const created = res.json();
  const note = created.status === 'processing' ? await nfeSettled(t, auth, created.id) : created;
  expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
  return note;
}
const post = (id: string, payload: Record<string, unknown>, key?: string) =>
  t.app.inject({ method: 'POST', url: `/v1/nfe/${id}/reform-events`, headers: { ...auth, ...(key ? { 'idempotency-key': key } : {}) }, payload });

describe('POST /v1/nfe/:id/reform-events (112150 Atualização da Data de Previsão de Entrega)', () => {
  it('registers two updates (sequences 1 and 2), lists them, serves each procEventoNFe through the XSD and xmlsec1', async () => {
    const note = await authorizedNote();
    const first = await post(note.id, { type: 'delivery_forecast_update', delivery_date: '2026-12-30' }, 'reform-1');
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toMatchObject({ type: 'delivery_forecast_update', tp_evento: '112150', sequence: 1, status: 'pending', delivery_date: '2026-12-30' });
    const again = await post(note.id, { type: 'delivery_forecast_update', delivery_date: '2026-12-30' }, 'reform-1');
    expect(again.json().id).toBe(first.json().id);
    const second = await post(note.id, { type: 'delivery_forecast_update', delivery_date: '2027-01-15' });
    expect(second.json()).toMatchObject({ sequence: 2 });
    const listed = await eventually(async () => {
      const l = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/reform-events`, headers: auth })).json().data;
      return l.length === 2 && l.every((e: { status: string }) => e.status !== 'pending') ? l : null;
    }, 20_000, () => 'both events to settle');
    expect(listed.map((e: { sequence: number; status: string }) => [e.sequence, e.status])).toEqual([[1, 'registered'], [2, 'registered']]);
    expect(listed[0].protocolo).toMatch(/^\d{15}$/);
    for (const e of listed) {
      const proc = await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/reform-events/${e.id}/xml`, headers: auth });
      expect(proc.statusCode, proc.body).toBe(200);
      expect(proc.body).toContain(`<dPrevEntrega>${e.delivery_date}</dPrevEntrega>`);
      expect(await xmllint(proc.body, 'PL_010_V1.30', 'procEventoNFe_v1.00.xsd')).toBe('');
      expect(await xmlsecVerify(proc.body)).toBe('');
    }
  });

  it('an answer lost on the way back: the retried send meets 573 (duplicate) and the event is settled from the record of the authority, once', async () => {
    const note = await authorizedNote();
    // Registered by the simulator, its answer never delivered; the job's next attempt is the duplicate.
    t.simulator.setScenario('lost-response', { times: 1, service: 'recepcaoEvento' });
    const res = await post(note.id, { type: 'delivery_forecast_update', delivery_date: '2026-12-31' });
    expect(res.statusCode, res.body).toBe(202);
    const settled = await eventually(async () => {
      const l = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/reform-events`, headers: auth })).json().data;
      return l.length === 1 && l[0].status !== 'pending' ? l[0] : null;
    }, 30_000, () => 'the event to settle after the lost answer');
    expect(settled).toMatchObject({ status: 'registered', sequence: 1, protocolo: expect.stringMatching(/^\d{15}$/) });
    const history = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/events`, headers: auth })).json().data as { type: string; code?: string }[];
    expect(history.filter((h) => h.type === 'reform_event_registered')).toEqual([expect.objectContaining({ code: '573' })]);
    const proc = await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/reform-events/${settled.id}/xml`, headers: auth });
    expect(proc.body).toContain('<dPrevEntrega>2026-12-31</dPrevEntrega>');
    expect(await xmlsecVerify(proc.body)).toBe('');
  });

  it('422 naming delivery_date for a date that does not exist; 422 for an unknown type; 404 for an unknown event', async () => {
    const note = await authorizedNote();
    const bad = await post(note.id, { type: 'delivery_forecast_update', delivery_date: '2026-02-30' });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('delivery_date');
    const unknown = await post(note.id, { type: 'payment_info', delivery_date: '2026-12-30' });
    expect([400, 422]).toContain(unknown.statusCode);
    const missing = await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/reform-events/evt_nope/xml`, headers: auth });
    expect(missing.statusCode).toBe(404);
  });
});
