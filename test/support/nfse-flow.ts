import type { TestApp } from './app.js';
import { readyIssuer } from './nfce-flow.js';
import { eventually } from './webhook-receiver.js';

/**
 * An issuer ready for NFS-e: the NFC-e test issuer (SP, Simples Nacional ME/EPP, the e-CNPJ test
 * certificate) with its NFS-e settings: Simples regime (regApTribSN, Anexo I E0166) and a DPS series.
 */
export async function nfseIssuer(t: TestApp, auth: { authorization: string }, nfse: Record<string, unknown> = {}): Promise<string> {
  const id = await readyIssuer(t, auth);
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/v1/issuers/${id}`,
    headers: auth,
    payload: { nfse: { municipal_registration: '12345678', simples_regime: 1, special_regime: 0, dps_series: 1, ...nfse } },
  });
  if (res.statusCode !== 200) throw new Error(`PATCH nfse settings: ${res.statusCode} ${res.body}`);
  return id;
}

/** A service invoice of the test issuer (São Paulo): software development for a person (CPF). */
export function serviceInvoice(issuerId: string, extra: Record<string, unknown> = {}) {
  return {
    issuer_id: issuerId,
    external_ref: `os-${Math.random().toString(36).slice(2, 10)}`,
    competence_date: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
    service: {
      national_code: '010101',
      nbs: '115021000',
      description: 'Desenvolvimento de software sob encomenda',
      place_of_provision: { city_code: '3550308' },
    },
    tomador: {
      cpf: '529.982.247-25',
      name: 'Maria da Silva',
      email: 'maria@example.com',
      address: { street: 'Rua das Flores', number: '100', district: 'Centro', city_code: '3550308', cep: '01001000' },
    },
    values: { service_amount: 1500, iss: { retained: 'nao_retido' }, simples_nacional_rate: 6 },
    ...extra,
  };
}

/** GET /v1/nfse/:id until the note leaves `processing`. */
export async function nfseSettled(t: TestApp, auth: { authorization: string }, id: string, ms = 30_000) {
  return eventually(async () => {
    const n = (await t.app.inject({ method: 'GET', url: `/v1/nfse/${id}`, headers: auth })).json();
    return n.status !== 'processing' ? n : null;
  }, ms, () => `NFS-e ${id} to leave processing`) as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** POST /v1/nfse with `Prefer: wait=10`, and the note once settled. */
export async function issueNfseSettled(t: TestApp, auth: { authorization: string }, payload: object, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfse', headers: { ...auth, prefer: 'wait=10', ...headers }, payload });
  if (res.statusCode !== 201 && res.statusCode !== 202) throw new Error(`POST /v1/nfse: ${res.statusCode} ${res.body}`);
  const answered = res.json();
  const note = answered.status === 'processing' ? await nfseSettled(t, auth, answered.id) : answered;
  return { res, note };
}

export async function nfseHistory(t: TestApp, auth: { authorization: string }, id: string): Promise<Array<{ type: string; code: string | null; message: string | null }>> {
  return (await t.app.inject({ method: 'GET', url: `/v1/nfse/${id}/events`, headers: auth })).json().data;
}
