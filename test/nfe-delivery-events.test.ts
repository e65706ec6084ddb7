import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { invoice as invoiceOf, nfeSettled } from './support/nfe-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { tempFile, xmllint, xmlsecVerify } from './support/xml-tools.js';

// docs/fiscal/delivery-events.md end to end: HTTP -> signed event -> job nfe.delivery_event -> the simulated AN (proof,
// NT 2021.001) or SVRS (failure, NT 2023.005) -> procEventoNFe checked by xmllint and xmlsec1.
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

type Ev = { id: string; type: string; status: string; protocolo: string | null; canceled_by: string | null; rejection: { code: string } | null; detail: Record<string, unknown> };
async function authorizedNote() {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=10' }, payload: invoiceOf(issuerId) });
  const created = res.json();
  const note = created.status === 'processing' ? await nfeSettled(t, auth, created.id) : created;
  expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
  return note as { id: string; access_key: string; dh_emi?: string };
}
const post = (id: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/v1/nfe/${id}/delivery-events`, headers: auth, payload });
const list = async (id: string): Promise<Ev[]> => (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/delivery-events`, headers: auth })).json().data;
const settled = (id: string, count: number) =>
  eventually(async () => {
    const l = await list(id);
    return l.length === count && l.every((e) => e.status !== 'pending') ? l : null;
  }, 30_000, () => `${count} delivery events of ${id} to settle`);
const procOf = async (noteId: string, eventId: string) => {
  const r = await t.app.inject({ method: 'GET', url: `/v1/nfe/${noteId}/delivery-events/${eventId}/xml`, headers: auth });
  expect(r.statusCode, r.body).toBe(200);
  return r.body;
};
const history = async (id: string) => ((await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/events`, headers: auth })).json().data as { type: string; code?: string }[]);
/** Base64(SHA-1(key + image Base64)) as openssl computes it (NT 2021.001 P35). */
const opensslHash = (key: string, image: string) =>
  execFileSync('sh', ['-c', `openssl dgst -sha1 -binary "${tempFile('c.txt', key + image)}" | base64`]).toString().trim();
const image = Buffer.from('foto do canhoto assinado').toString('base64');
const justNow = () => new Date().toISOString();

describe('POST /v1/nfe/:id/delivery-events', () => {
  it('proof of delivery: registered at the AN, its procEventoNFe passes procEventoEntregaNFe and xmlsec1, the note lists it; cancelled, a new proof follows', async () => {
    const note = await authorizedNote();
    const proof = { type: 'proof', delivered_at: justNow(), receiver_document: '12345678909', receiver_name: 'Maria da Silva', latitude: -23.5616841, longitude: -46.655981, image_base64: image };
    const res = await post(note.id, proof);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ type: 'proof', tp_evento: '110130', sequence: 1, status: 'pending' });
    const [registered] = await settled(note.id, 1);
    expect(registered).toMatchObject({ status: 'registered', protocolo: expect.stringMatching(/^\d{15}$/), canceled_by: null });
    const proc = await procOf(note.id, registered!.id);
    expect(proc).toContain('<cOrgao>91</cOrgao>');
    expect(proc).toContain(`<hashComprovante>${opensslHash(note.access_key, image)}</hashComprovante>`);
    expect(proc).toContain('<latGPS>-23.561684</latGPS><longGPS>-46.655981</longGPS>');
    expect(await xmllint(proc, 'PL_009_V4', 'procEventoEntregaNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(proc)).toBe('');
    expect((await history(note.id)).filter((h) => h.type === 'delivery_event_registered')).toEqual([expect.objectContaining({ code: '135' })]);

    // A second proof while the first stands: 409 here (the authority's 825).
    const second = await post(note.id, proof);
    expect(second.statusCode, second.body).toBe(409);
    expect(second.body).toContain('825');
    // A cancellation of a protocol that is not this note's proof: 422 naming protocol (the authority's 460).
    const wrong = await post(note.id, { type: 'proof_cancel', protocol: '291260000000999' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().details[0]).toMatchObject({ field: 'protocol' });

    const cancel = await post(note.id, { type: 'proof_cancel', protocol: registered!.protocolo });
    expect(cancel.statusCode, cancel.body).toBe(202);
    const both = await settled(note.id, 2);
    const cancelled = both.find((e) => e.type === 'proof_cancel')!;
    expect(cancelled).toMatchObject({ status: 'registered', detail: { protocol: registered!.protocolo } });
    expect(both.find((e) => e.type === 'proof')!.canceled_by).toBe(cancelled.protocolo);
    const cancelProc = await procOf(note.id, cancelled.id);
    expect(await xmllint(cancelProc, 'PL_009_V4', 'procEventoCancEntregaNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(cancelProc)).toBe('');

    expect((await post(note.id, { ...proof, delivered_at: justNow() })).statusCode).toBe(202);
    const three = await settled(note.id, 3);
    expect(three.filter((e) => e.type === 'proof').map((e) => e.status)).toEqual(['registered', 'registered']);
    const webhooks = await t.db.query<{ type: string }>(`SELECT type FROM events WHERE subject_id = $1 AND type LIKE 'nfe.delivery%'`, [note.id]);
    expect(webhooks.rows.map((r) => r.type)).toEqual(['nfe.delivery_event_registered', 'nfe.delivery_event_registered', 'nfe.delivery_event_registered']);
  });

  it('failed delivery: registered at SVRS, passes procEventoInsucessoNFe and xmlsec1; its cancellation too', async () => {
    const note = await authorizedNote();
    const res = await post(note.id, { type: 'failure', attempted_at: justNow(), attempt: 2, reason: 'other', justification: 'Portaria do condominio fechada no horario', image_base64: image });
    expect(res.statusCode, res.body).toBe(202);
    const [failure] = await settled(note.id, 1);
    expect(failure).toMatchObject({ status: 'registered', tp_evento: '110192', detail: { reason: 'other', attempt: 2 } });
    const proc = await procOf(note.id, failure!.id);
    expect(proc).toContain('<cOrgao>92</cOrgao>');
    expect(proc).toContain('<tpMotivo>4</tpMotivo>');
    expect(proc).toContain(`<hashTentativaEntrega>${opensslHash(note.access_key, image)}</hashTentativaEntrega>`);
    expect(await xmllint(proc, 'PL_009_V4', 'procEventoInsucessoNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(proc)).toBe('');
    expect((await post(note.id, { type: 'failure_cancel', protocol: failure!.protocolo })).statusCode).toBe(202);
    const both = await settled(note.id, 2);
    const cancelProc = await procOf(note.id, both.find((e) => e.type === 'failure_cancel')!.id);
    expect(await xmllint(cancelProc, 'PL_009_V4', 'procEventoCancInsucessoNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(cancelProc)).toBe('');
  });

  it('an answer of the AN lost on the way back: the retried send meets 573 and the proof is settled from the authority\'s record, once', async () => {
    const note = await authorizedNote();
    t.simulator.setScenario('lost-response', { times: 1, service: 'recepcaoEvento' });
    const res = await post(note.id, { type: 'proof', delivered_at: justNow(), receiver_document: '12345678909', receiver_name: 'Maria da Silva', image_base64: image });
    expect(res.statusCode, res.body).toBe(202);
    const [proof] = await settled(note.id, 1);
    expect(proof).toMatchObject({ status: 'registered', protocolo: expect.stringMatching(/^\d{15}$/) });
    expect((await history(note.id)).filter((h) => h.type === 'delivery_event_registered')).toEqual([expect.objectContaining({ code: '573' })]);
    expect(await xmlsecVerify(await procOf(note.id, proof!.id))).toBe('');
  });

  it('the NF-e cannot be cancelled while a proof of delivery stands: 409 naming the authority\'s 826; once the proof is cancelled it can', async () => {
    const note = await authorizedNote();
    expect((await post(note.id, { type: 'proof', delivered_at: justNow(), receiver_document: 'RG 1234567', receiver_name: 'Jose Souza', image_base64: image })).statusCode).toBe(202);
    const [proof] = await settled(note.id, 1);
    const cancelNfe = () => t.app.inject({ method: 'POST', url: `/v1/nfe/${note.id}/cancel`, headers: auth, payload: { reason: 'Pedido cancelado pelo cliente antes do envio' } });
    const refused = await cancelNfe();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toContain('826');
    expect((await post(note.id, { type: 'proof_cancel', protocol: proof!.protocolo })).statusCode).toBe(202);
    await settled(note.id, 2);
    expect((await cancelNfe()).statusCode).toBeLessThan(300);
    const canceled = await eventually(async () => {
      const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}`, headers: auth })).json();
      return n.status === 'canceled' ? n : null;
    }, 20_000, () => 'the NF-e to be canceled');
    expect(canceled.cancellation).toMatchObject({ protocolo: expect.stringMatching(/^\d{15}$/) });
  });

  it('422 naming the field: a delivery in the future (821), before the NF-e (823), reason other without justification, a bad image, a field of another type', async () => {
    const note = await authorizedNote();
    const base = { type: 'proof', receiver_document: '12345678909', receiver_name: 'Maria da Silva', image_base64: image };
    const future = await post(note.id, { ...base, delivered_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.statusCode).toBe(422);
    expect(future.json().details[0]).toMatchObject({ field: 'delivered_at', rule: 'P30-10' });
    const before = await post(note.id, { ...base, delivered_at: '2020-01-01T10:00:00-03:00' });
    expect(before.json().details[0]).toMatchObject({ field: 'delivered_at', rule: '2P30-10' });
    const noJust = await post(note.id, { type: 'failure', attempted_at: justNow(), reason: 'other', image_base64: image });
    expect(noJust.statusCode).toBe(422);
    expect(noJust.json().details.map((d: { field: string }) => d.field)).toEqual(['justification']);
    const badImage = await post(note.id, { ...base, delivered_at: justNow(), image_base64: 'not base64!' });
    expect(badImage.json().details.map((d: { field: string }) => d.field)).toEqual(['image_base64']);
    const mixed = await post(note.id, { ...base, delivered_at: justNow(), reason: 'receiver_refused' });
    expect(mixed.json().details.map((d: { field: string }) => d.field)).toEqual(['reason']);
    expect(await list(note.id)).toEqual([]);
  });
});
