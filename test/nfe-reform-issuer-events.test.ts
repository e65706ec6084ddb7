import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { recipient } from './support/adjustment-notes.js';
import { emittingApp, readyIssuer } from './support/nfce-flow.js';
import { emitNfeSettled, invoice as invoiceOf } from './support/nfe-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// NT 2025.002-RTC issuer events 112110, 112120, 112130, 112140 end to end (docs/fiscal/reform-events.md):
// HTTP -> signed event -> worker -> simulated SVRS -> stored, listed, procEventoNFe served.
// 112120 needs an import NF-e (NT 8.15). The gateway writes no DI yet (CFOP 3102 needs one, MOC I08-110), so the
// inbound note from abroad here is a CFOP 3201 one (tpNF 0, idDest 3), which needs none.
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
let reformAuth: { authorization: string };
let reformIssuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
  // A debit note (finNFe 6) is issued by a regime normal issuer of a reform_2026 account (docs/fiscal/credit-debit-notes.md).
  ({ auth: reformAuth } = await t.newAccount());
  const patched = await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: reformAuth, payload: { taxRegime: 'reform_2026' } });
  if (patched.statusCode !== 200) throw new Error(patched.body);
  reformIssuerId = await readyIssuer(t, reformAuth, { regime_tributario: 'normal' });
}, 240_000);
afterAll(async () => t.runtime.close());

async function authorized(payload: object, headers = auth) {
  const { note } = await emitNfeSettled(t, headers, payload);
  expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
  return note as { id: string; access_key: string };
}
const sale = () => authorized(invoiceOf(issuerId));
const debitNote = () => authorized({
  issuer_id: reformIssuerId, external_ref: `debito-${Math.random().toString(36).slice(2, 8)}`, natureza_operacao: 'NOTA DE DEBITO - PAGAMENTO ANTECIPADO',
  finalidade: 'debito', debit_type: '06', presenca: 'nao_se_aplica', destinatario: recipient,
  items: [{ description: 'Antecipacao do pedido 77', quantity: 1, unit_price: 500, ncm: '09012100', cfop: '5949', unit: 'UN' }],
  payment: { method: 'pix', amount: 500 },
}, reformAuth);
const post = (id: string, payload: Record<string, unknown>, headers = auth) =>
  t.app.inject({ method: 'POST', url: `/v1/nfe/${id}/reform-events`, headers, payload });
const listed = (id: string, headers = auth) => eventually(async () => {
  const l = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/reform-events`, headers })).json().data;
  return l.length > 0 && l.every((e: { status: string }) => e.status !== 'pending') ? l : null;
}, 30_000, () => 'the events to settle');

async function procOf(id: string, eventId: string, tpEvento: string, headers = auth) {
  const proc = await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/reform-events/${eventId}/xml`, headers });
  expect(proc.statusCode, proc.body).toBe(200);
  expect(await xmllint(proc.body, 'PL_010_V1.30', 'procEventoNFe_v1.00.xsd')).toBe('');
  const det = /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(proc.body)![0].replace('<detEvento', '<detEvento xmlns="http://www.portalfiscal.inf.br/nfe"');
  expect(await xmllint(det, 'PL_010_V1.30', `e${tpEvento}_v1.00.xsd`)).toBe('');
  expect(await xmlsecVerify(proc.body)).toBe('');
  return proc.body;
}

describe('POST /v1/nfe/:id/reform-events, the other issuer events', { timeout: 120_000 }, () => {
  it('full_payment (112110) and supplier_transport_loss (112130) on a sale: registered, listed beside 112150, each procEventoNFe through its XSD and xmlsec1', async () => {
    const note = await sale();
    const paid = await post(note.id, { type: 'full_payment' });
    expect(paid.statusCode, paid.body).toBe(202);
    expect(paid.json()).toMatchObject({ type: 'full_payment', tp_evento: '112110', sequence: 1, status: 'pending', delivery_date: null, items: null });
    const lossItems = [{ item_number: 2, ibs_amount: 0.02, cbs_amount: 0.2, quantity: 2.5, unit: 'UN', credit_reversal: { ibs_amount: 0.01, cbs_amount: 0.09 } }];
    const loss = await post(note.id, { type: 'supplier_transport_loss', items: lossItems });
    expect(loss.statusCode, loss.body).toBe(202);
    expect(loss.json()).toMatchObject({ type: 'supplier_transport_loss', tp_evento: '112130', sequence: 1, items: lossItems });
    const forecast = await post(note.id, { type: 'delivery_forecast_update', delivery_date: '2026-12-30' });
    expect(forecast.statusCode, forecast.body).toBe(202);
    const events = await listed(note.id);
    expect(events.map((e: { type: string; status: string }) => [e.type, e.status]).sort()).toEqual([
      ['delivery_forecast_update', 'registered'], ['full_payment', 'registered'], ['supplier_transport_loss', 'registered'],
    ]);
    const byType = Object.fromEntries(events.map((e: { type: string }) => [e.type, e]));
    expect(byType.full_payment.protocolo).toMatch(/^\d{15}$/);
    expect(await procOf(note.id, byType.full_payment.id, '112110')).toContain('<indQuitacao>1</indQuitacao>');
    expect(await procOf(note.id, byType.supplier_transport_loss.id, '112130')).toContain(
      '<gPerecimento nItem="2"><vIBS>0.02</vIBS><vCBS>0.20</vCBS><gControleEstoque><qPerecimento>2.5000</qPerecimento><uPerecimento>UN</uPerecimento><vIBS>0.01</vIBS><vCBS>0.09</vCBS></gControleEstoque></gPerecimento>',
    );
  });

  it('prepaid_not_supplied (112140) on a debit note of type 06: registered; refused (422 naming type) on a sale', async () => {
    const note = await debitNote();
    const items = [{ item_number: 1, ibs_amount: 0.5, cbs_amount: 4.5, quantity: 1, unit: 'UN' }];
    const res = await post(note.id, { type: 'prepaid_not_supplied', items }, reformAuth);
    expect(res.statusCode, res.body).toBe(202);
    const [ev] = await listed(note.id, reformAuth);
    expect(ev).toMatchObject({ type: 'prepaid_not_supplied', tp_evento: '112140', status: 'registered', items });
    expect(await procOf(note.id, ev.id, '112140', reformAuth)).toContain('<gItemNaoFornecido nItem="1"><vIBS>0.50</vIBS><vCBS>4.50</vCBS>');
    const onSale = await post((await sale()).id, { type: 'prepaid_not_supplied', items });
    expect(onSale.statusCode).toBe(422);
    expect(onSale.json().details).toEqual([expect.objectContaining({ field: 'type' })]);
  });

  it('import_not_exempted (112120) on an inbound NF-e from abroad: registered, its gConsumo through e112120', async () => {
    const note = await authorized(invoiceOf(issuerId, {
      natureza_operacao: 'DEVOLUCAO DE EXPORTACAO',
      destinatario: {
        id_estrangeiro: 'AR30712345678', name: 'Importadora del Sur SA', indicador_ie: 'nao_contribuinte',
        address: { street: 'Avenida Corrientes', number: '1234', district: 'San Nicolas', city: 'Buenos Aires', country_code: '639', country: 'Argentina' },
      },
      items: [{ description: 'Motor eletrico', quantity: 2, unit_price: 1500, ncm: '85015210', cfop: '3201', unit: 'UN', cst_icms: '900' }],
      payment: { method: 'sem_pagamento', amount: 0 },
    }));
    const items = [{ item_number: 1, ibs_amount: 3, cbs_amount: 27, quantity: 1, unit: 'UN' }];
    const res = await post(note.id, { type: 'import_not_exempted', items });
    expect(res.statusCode, res.body).toBe(202);
    const [ev] = await listed(note.id);
    expect(ev).toMatchObject({ type: 'import_not_exempted', tp_evento: '112120', status: 'registered', items });
    expect(await procOf(note.id, ev.id, '112120')).toContain('<gConsumo nItem="1"><vIBS>3.00</vIBS><vCBS>27.00</vCBS><gControleEstoque><qtde>1.0000</qtde><unidade>UN</unidade></gControleEstoque></gConsumo>');
  });

  it('422 naming the field: the layout, the type\'s fields, the note\'s items and kind', async () => {
    const note = await sale();
    const item = { item_number: 1, ibs_amount: 0.1, cbs_amount: 0.9, quantity: 1, unit: 'UN', credit_reversal: { ibs_amount: 0, cbs_amount: 0 } };
    const fieldsOf = async (payload: Record<string, unknown>) => {
      const res = await post(note.id, payload);
      expect(res.statusCode, res.body).toBe(422);
      return (res.json().details as { field: string }[]).map((d) => d.field);
    };
    expect(await fieldsOf({ type: 'supplier_transport_loss', items: [{ ...item, ibs_amount: 0.105 }, { ...item, quantity: 1.00001, unit: 'UNIDADE' }] }))
      .toEqual(['items[0].ibs_amount', 'items[1].item_number', 'items[1].quantity', 'items[1].unit']);
    expect(await fieldsOf({ type: 'supplier_transport_loss', items: [{ ...item, credit_reversal: undefined }] })).toEqual(['items[0].credit_reversal']);
    expect(await fieldsOf({ type: 'supplier_transport_loss', items: [{ ...item, item_number: 3 }] })).toEqual(['items[0].item_number']);
    expect(await fieldsOf({ type: 'supplier_transport_loss', items: [] })).toEqual(['items']);
    expect(await fieldsOf({ type: 'supplier_transport_loss' })).toEqual(['items']);
    expect(await fieldsOf({ type: 'full_payment', delivery_date: '2026-12-30' })).toEqual(['delivery_date']);
    expect(await fieldsOf({ type: 'full_payment', items: [item] })).toEqual(['items']);
    expect(await fieldsOf({ type: 'delivery_forecast_update' })).toEqual(['delivery_date']);
    expect(await fieldsOf({ type: 'import_not_exempted', items: [{ ...item, credit_reversal: undefined }] })).toEqual(['type']);
    const ptBr = await post(note.id, { type: 'full_payment', items: [item] }, { ...auth, 'accept-language': 'pt-BR' } as typeof auth);
    expect(ptBr.json().details).toEqual([expect.objectContaining({
      field: 'items', message: 'é usado somente com os tipos import_not_exempted, supplier_transport_loss e prepaid_not_supplied',
    })]);
    const list = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/reform-events`, headers: auth })).json().data;
    expect(list).toEqual([]);
  });

  it('cancels a registered event (110001, NT 2025.002-RTC 8.14): signed with its type, protocol and sequence, registered, shown on the event; 409 twice or for the same Id; 404 otherwise', async () => {
    const note = await sale();
    expect((await post(note.id, { type: 'full_payment' })).statusCode).toBe(202);
    const lossItems = [{ item_number: 1, ibs_amount: 0.02, cbs_amount: 0.2, quantity: 1, unit: 'UN', credit_reversal: { ibs_amount: 0.01, cbs_amount: 0.09 } }];
    expect((await post(note.id, { type: 'supplier_transport_loss', items: lossItems })).statusCode).toBe(202);
    const byType = Object.fromEntries((await listed(note.id)).map((e: { type: string }) => [e.type, e]));
    const paid = byType.full_payment;
    const cancel = (eventId: string) => t.app.inject({ method: 'POST', url: `/v1/nfe/${note.id}/reform-events/${eventId}/cancel`, headers: auth });
    // Two requests at once (a double click): one cancellation, the other a 409, never a 500.
    const both = await Promise.all([cancel(paid.id), cancel(paid.id)]);
    expect(both.map((r) => r.statusCode).sort(), both.map((r) => r.body).join('\n')).toEqual([202, 409]);
    const res = both.find((r) => r.statusCode === 202)!;
    expect(res.json()).toMatchObject({ type: 'event_cancellation', tp_evento: '110001', sequence: 1, status: 'pending', cancels: paid.id, cancelled_by: null });
    const settled = await eventually(async () => {
      const l = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/reform-events`, headers: auth })).json().data;
      return l.every((e: { status: string }) => e.status !== 'pending') ? l : null;
    }, 30_000, () => 'the cancellation to settle');
    const cancellation = settled.find((e: { type: string }) => e.type === 'event_cancellation');
    expect(cancellation).toMatchObject({ status: 'registered', cancels: paid.id });
    expect(settled.find((e: { id: string }) => e.id === paid.id)).toMatchObject({ status: 'registered', cancelled_by: cancellation.id });
    expect(settled.find((e: { type: string }) => e.type === 'supplier_transport_loss')).toMatchObject({ cancelled_by: null });
    const proc = await procOf(note.id, cancellation.id, '110001');
    expect(proc).toContain(`<tpEventoAut>112110</tpEventoAut><nProtEvento>${paid.protocolo}</nProtEvento>`);
    expect(proc).toContain(`Id="ID110001${note.access_key}01"`);
    expect(proc).toContain('<cStat>135</cStat>');
    // The same event again, and the 112130 of the same sequence (its cancellation would carry the same Id): 409.
    expect((await cancel(paid.id)).statusCode).toBe(409);
    const sameId = await cancel(byType.supplier_transport_loss.id);
    expect(sameId.statusCode, sameId.body).toBe(409);
    expect(sameId.json().message).toContain('same Id');
    expect((await cancel(cancellation.id)).statusCode).toBe(404);
    expect((await cancel('evt_none')).statusCode).toBe(404);
  });
});
