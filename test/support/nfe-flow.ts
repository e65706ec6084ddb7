import type { TestApp } from './app.js';
import { eventually } from './webhook-receiver.js';

/**
 * An NF-e request for the test issuer (SP, Simples Nacional: CSOSN): a sale to a taxpayer company
 * in SP (internal operation, CFOP 5102).
 */
export function invoice(issuerId: string, extra: Record<string, unknown> = {}) {
  return {
    issuer_id: issuerId,
    external_ref: `pedido-${Math.random().toString(36).slice(2, 10)}`,
    natureza_operacao: 'VENDA DE MERCADORIA',
    presenca: 'nao_se_aplica',
    destinatario: {
      cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: '112006603110',
      address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3509502', city: 'Campinas', uf: 'SP', cep: '13010000' },
    },
    items: [
      { description: 'Cafe torrado 500g', quantity: 10, unit_price: 18.9, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '101', simples_credit_rate: 1.25 },
      { description: 'Acucar 1kg', quantity: 5, unit_price: 4.5, ncm: '17019900', cfop: '5102', unit: 'UN', cst_icms: '102' },
    ],
    payment: { method: 'boleto', amount: 211.5 },
    ...extra,
  };
}

/** GET /v1/nfe/:id until the note leaves `processing`. */
export async function nfeSettled(t: TestApp, auth: { authorization: string }, id: string, ms = 20_000) {
  return eventually(async () => {
    const n = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: auth })).json();
    return n.status !== 'processing' ? n : null;
  }, ms, () => `NF-e ${id} to leave processing`) as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** POST /v1/nfe with `Prefer: wait=10`, and the note once settled (polled on a loaded machine). */
export async function emitNfeSettled(t: TestApp, auth: { authorization: string }, payload: object, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=10', ...headers }, payload });
  if (res.statusCode !== 201 && res.statusCode !== 202) throw new Error(`POST /v1/nfe: ${res.statusCode} ${res.body}`);
  const answered = res.json();
  const note = answered.status === 'processing' ? await nfeSettled(t, auth, answered.id) : answered;
  return { res, note };
}

/** The field and rule of each problem of a 422 answer, as the tests compare them. */
export const detailsOf = (body: { details?: Array<{ field: string; rule?: string }> }) => (body.details ?? []).map((d) => ({ field: d.field, rule: d.rule }));

/** POST /v1/nfe as the given caller, in a language when given. */
export function postNfe(t: TestApp, auth: { authorization: string }, payload: object, lang?: string) {
  return t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, ...(lang ? { 'accept-language': lang } : {}) }, payload });
}
