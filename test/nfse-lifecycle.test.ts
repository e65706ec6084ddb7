import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidNfseKey } from '../src/fiscal/xml/nfse/dps-id.js';
import { clearSigningMaterialCache } from '../src/platform/issuers/issuer-signing-material.js';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { issueNfseSettled, nfseHistory, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { NFSE_ID_ELEMENTS, tempFile, xmllint, xmlsecVerify } from './support/xml-tools.js';

const run = promisify(execFile);

// NFS-e (Padrão Nacional) end to end: HTTP -> shared emission (DPS numbered, signed, XSD) -> worker ->
// REST over mutual TLS with gzip+base64 JSON -> the simulated Sefin Nacional -> DANFSe -> cancellation.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth } = await emittingApp());
  issuerId = await nfseIssuer(t, auth);
});
afterAll(async () => t.runtime.close());

const invoice = (extra: Record<string, unknown> = {}) => serviceInvoice(issuerId, extra);
const types = async (id: string) => (await nfseHistory(t, auth, id)).map((h) => h.type);

describe('NFS-e through the API and the simulated Sefin Nacional', () => {
  let authorized: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('issues a DPS and answers the authorized NFS-e: 50-digit key with its check digit, the number Sefin assigned', async () => {
    const { res, note } = await issueNfseSettled(t, auth, invoice());
    expect(res.headers.location).toBe(`/v1/nfse/${res.json().id}`);
    authorized = note;
    expect(authorized.status, JSON.stringify(authorized.rejection)).toBe('authorized');
    expect(authorized.id).toMatch(/^nfse_/);
    expect(authorized.object).toBe('nfse');
    // docs/fiscal/nfse-national.md#dps: DPS + cLocEmi(7) + 2 (CNPJ) + CNPJ(14) + serie(5) + nDPS(15).
    expect(authorized.dps.id).toMatch(/^DPS3550308206157250\d{6}00001\d{15}$/);
    expect(authorized.dps.id).toHaveLength(45);
    expect(authorized.access_key).toMatch(/^\d{50}$/);
    expect(isValidNfseKey(authorized.access_key)).toBe(true);
    // docs/fiscal/nfse-national.md#access-key: cMun + ambGer 2 + inscription type 2 + CNPJ ...
    expect(authorized.access_key.slice(7, 9)).toBe('22');
    expect(authorized.number).toMatch(/^[1-9]\d*$/);
    expect(authorized.values).toMatchObject({ vServ: 1500, vBC: 1500, vLiq: 1500 });
    expect(authorized.danfse_url).toMatch(new RegExp(`/v1/nfse/${authorized.id}/danfse.pdf$`));
    expect(await types(authorized.id)).toEqual(expect.arrayContaining(['created', 'transmitted', 'authorized']));
  });

  it('serves the NFS-e XML: the national XSD and xmlsec1 accept it, the provider\'s DPS inside', async () => {
    const xml = await t.app.inject({ method: 'GET', url: `/v1/nfse/${authorized.id}/xml`, headers: auth });
    expect(xml.statusCode).toBe(200);
    expect(xml.headers['content-disposition']).toContain(`${authorized.access_key}-nfse.xml`);
    expect(xml.body).toContain(`Id="NFS${authorized.access_key}"`);
    expect(xml.body).toContain(`Id="${authorized.dps.id}"`);
    expect(await xmllint(xml.body, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
    expect(await xmlsecVerify(xml.body, NFSE_ID_ELEMENTS)).toBe('');
  });

  it('renders the DANFSe: pdftotext shows the key and values, zbarimg reads the consultation QR code', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/nfse/${authorized.id}/danfse.pdf`, headers: auth });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = tempFile('danfse.pdf', res.rawPayload);
    const text = (await run('pdftotext', ['-layout', pdf, '-'])).stdout;
    const flat = text.replace(/\s+/g, '');
    expect(flat).toContain(authorized.access_key);
    expect(text).toContain('1.500,00');
    expect(text).toContain('Maria da Silva');
    await run('pdftoppm', ['-r', '200', '-f', '1', '-l', '1', '-png', '-singlefile', pdf, pdf]);
    const codes = (await run('zbarimg', ['--raw', '-q', `${pdf}.png`])).stdout.split('\n').filter(Boolean);
    expect(codes.some((c) => c.includes(authorized.access_key))).toBe(true);
  });

  it('cancels with e101101: canceled, and the event passes its XSD and xmlsec1', async () => {
    const short = await t.app.inject({ method: 'POST', url: `/v1/nfse/${authorized.id}/cancel`, headers: auth, payload: { reason: 'curto' } });
    expect(short.statusCode).toBe(422);
    const res = await t.app.inject({ method: 'POST', url: `/v1/nfse/${authorized.id}/cancel`, headers: auth, payload: { reason_code: 2, reason: 'Servico nao foi prestado ao tomador' } });
    expect([200, 202], res.body).toContain(res.statusCode);
    const canceled = res.json().status === 'canceled' ? res.json() : await eventuallyCanceled(authorized.id);
    expect(canceled.status).toBe('canceled');
    expect(canceled.cancellation).toMatchObject({ reason_code: '2', reason: 'Servico nao foi prestado ao tomador' });
    const ev = await t.app.inject({ method: 'GET', url: `/v1/nfse/${authorized.id}/xml?event=cancellation`, headers: auth });
    expect(ev.statusCode).toBe(200);
    expect(ev.body).toContain(`PRE${authorized.access_key}101101`);
    expect(await xmllint(ev.body, 'NFSe_v1.01', 'evento_v1.01.xsd')).toBe('');
    expect(await xmlsecVerify(ev.body, NFSE_ID_ELEMENTS)).toBe('');
    const again = await t.app.inject({ method: 'POST', url: `/v1/nfse/${authorized.id}/cancel`, headers: auth, payload: { reason: 'Servico nao foi prestado ao tomador' } });
    expect(again.statusCode).toBe(409);
    const pdf = await t.app.inject({ method: 'GET', url: `/v1/nfse/${authorized.id}/danfse.pdf`, headers: auth });
    expect(pdf.statusCode).toBe(200);
    expect((await run('pdftotext', ['-layout', tempFile('canceled.pdf', pdf.rawPayload), '-'])).stdout).toContain('NFS-e CANCELADA');
  });

  it('a lost answer ends as one NFS-e, recovered by its DPS Id', async () => {
    const { note } = await issueNfseSettled(t, auth, invoice(), { 'x-sandbox-scenario': 'lost-response' });
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    expect(await t.simulator.nfseIssuedFor(note.dps.id)).toBe(1);
    const lines = await nfseHistory(t, auth, note.id);
    expect(lines.map((l) => l.type)).toEqual(expect.arrayContaining(['authority_in_doubt', 'consulted', 'authorized']));
    expect(lines.find((l) => l.type === 'authorized')!.message).toMatch(/recovered/);
  });

  it('waits what Retry-After says when Sefin answers 429', async () => {
    const { note } = await issueNfseSettled(t, auth, invoice(), { 'x-sandbox-scenario': 'throttle:1' });
    expect(note.status).toBe('authorized');
    expect(await types(note.id)).toContain('authority_throttled');
  });

  it('a refused signature profile is rejected with E0714, the field to change and a hint; the number goes to the next DPS', async () => {
    const { note } = await issueNfseSettled(t, auth, invoice(), { 'x-sandbox-scenario': 'refuse-profile:rsa-sha1-c14n' });
    expect(note.status).toBe('rejected');
    expect(note.rejection).toMatchObject({ code: 'E0714', message: expect.stringContaining('assinatura'), field: 'issuer.nfse.signature_profile' });
    expect(note.rejection.hint).toMatch(/signature_profile/);
    // A rejection needs a person: the account is notified (nfse.rejected always fans out).
    const notified = await eventually(async () => {
      const list = (await t.app.inject({ method: 'GET', url: '/v1/notifications?limit=100', headers: auth })).json();
      return list.data.find((n: { type: string; data: { nfse_id?: string } }) => n.type === 'nfse.rejected' && n.data.nfse_id === note.id) ?? null;
    }, 20_000, () => 'the nfse.rejected notification');
    expect(notified.title).toMatch(/^NFS-e /);
    const next = await issueNfseSettled(t, auth, invoice());
    expect(next.note.status).toBe('authorized');
    expect(next.note.dps.number).toBe(note.dps.number);
  });

  it('signs with RSA-SHA256 and exclusive C14N when the issuer asks for it', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${issuerId}`, headers: auth, payload: { nfse: { municipal_registration: '12345678', simples_regime: 1, special_regime: 0, dps_series: 1, signature_profile: 'rsa-sha256-exc-c14n' } } });
    expect(res.statusCode, res.body).toBe(200);
    const { note } = await issueNfseSettled(t, auth, invoice(), { 'x-sandbox-scenario': 'refuse-profile:rsa-sha1-c14n' });
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfse/${note.id}/xml`, headers: auth })).body;
    expect(xml).toContain('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(xml).toContain('http://www.w3.org/2001/10/xml-exc-c14n#');
  });

  it('an official code Sefin answers is explained with its message', async () => {
    const { note } = await issueNfseSettled(t, auth, invoice(), { 'x-sandbox-scenario': 'reject:E0312' });
    expect(note.status).toBe('rejected');
    expect(note.rejection.code).toBe('E0312');
    expect(note.rejection.message.length).toBeGreaterThan(10);
  });

  it('refuses an invalid request with 422 naming each field, reserving nothing', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/nfse', headers: auth,
      payload: invoice({ competence_date: '2026-02-30', tomador: { cpf: '111.111.111-11', name: 'X' } }),
    });
    expect(res.statusCode).toBe(422);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['competence_date', 'tomador.cpf']));
  });

  it('substitutes an authorized NFS-e: the original becomes canceled by the substitute', async () => {
    const { note: original } = await issueNfseSettled(t, auth, invoice());
    expect(original.status).toBe('authorized');
    const substitutes = { nfse_id: original.id, reason_code: '99', reason: 'Descricao do servico informada com erro' };
    // Anexo I E0061: an ME/EPP's substitute keeps the taker, the competence and the service value.
    const changed = await t.app.inject({ method: 'POST', url: '/v1/nfse', headers: auth, payload: invoice({ substitutes, values: { service_amount: 1400, iss: { retained: 'nao_retido' }, simples_nacional_rate: 6 } }) });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'values.service_amount', rule: 'E0061' })]));
    const { note: substitute } = await issueNfseSettled(t, auth, invoice({ substitutes, service: { ...invoice().service, description: 'Desenvolvimento de software sob encomenda (modulo fiscal)' } }));
    expect(substitute.status, JSON.stringify(substitute.rejection)).toBe('authorized');
    const after = (await t.app.inject({ method: 'GET', url: `/v1/nfse/${original.id}`, headers: auth })).json();
    expect(after.status).toBe('canceled');
    expect(after.cancellation).toMatchObject({ reason_code: '99', substituted_by: substitute.id });
  });

  it('refuses to cancel once the certificate expired (Sefin answers E1983 to an event signed with it): 422 naming the certificate', async () => {
    const { note } = await issueNfseSettled(t, auth, invoice());
    expect(note.status).toBe('authorized');
    // The certificate expires after the note was issued: the gateway's material is read again from the store.
    const { rows } = await t.db.query<{ not_after: Date }>('SELECT not_after FROM issuer_certificates WHERE issuer_id = $1', [issuerId]);
    await t.db.query('UPDATE issuer_certificates SET not_after = now() - interval \'1 day\' WHERE issuer_id = $1', [issuerId]);
    try {
      clearSigningMaterialCache();
      const res = await t.app.inject({ method: 'POST', url: `/v1/nfse/${note.id}/cancel`, headers: auth, payload: { reason_code: 1, reason: 'Erro na emissao: valor do servico incorreto' } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().details).toEqual([expect.objectContaining({ field: 'certificate', rule: 'E1983' })]);
      expect((await t.app.inject({ method: 'GET', url: `/v1/nfse/${note.id}`, headers: auth })).json().status).toBe('authorized');
    } finally {
      await t.db.query('UPDATE issuer_certificates SET not_after = $2 WHERE issuer_id = $1', [issuerId, rows[0]!.not_after]);
      clearSigningMaterialCache();
    }
  });

  it('refuses to cancel a CNPJ issuer\'s NFS-e with an e-CPF certificate (Sefin answers E1991): 422 naming the certificate', async () => {
    const { note } = await issueNfseSettled(t, auth, invoice());
    expect(note.status).toBe('authorized');
    // The sandbox accepts an e-CPF for a CNPJ issuer with a warning: here the stored certificate is read as one.
    const { rows } = await t.db.query<{ cnpj: string | null; cpf: string | null }>('SELECT cnpj, cpf FROM issuer_certificates WHERE issuer_id = $1', [issuerId]);
    await t.db.query('UPDATE issuer_certificates SET cnpj = NULL, cpf = $2 WHERE issuer_id = $1', [issuerId, '52998224725']);
    try {
      clearSigningMaterialCache();
      const res = await t.app.inject({ method: 'POST', url: `/v1/nfse/${note.id}/cancel`, headers: auth, payload: { reason_code: 1, reason: 'Erro na emissao: valor do servico incorreto' } });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().details).toEqual([expect.objectContaining({ field: 'certificate', rule: 'E1991' })]);
    } finally {
      await t.db.query('UPDATE issuer_certificates SET cnpj = $2, cpf = $3 WHERE issuer_id = $1', [issuerId, rows[0]!.cnpj, rows[0]!.cpf]);
      clearSigningMaterialCache();
    }
  });

  it('is its own family: an NFS-e id is unknown under /v1/nfe and /v1/nfce', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/v1/nfe/${authorized.id}`, headers: auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v1/nfce/${authorized.id}`, headers: auth })).statusCode).toBe(404);
    const list = (await t.app.inject({ method: 'GET', url: '/v1/nfse?limit=100', headers: auth })).json();
    expect(list.data.map((n: { id: string }) => n.id)).toContain(authorized.id);
  });
});

async function eventuallyCanceled(id: string) {
  return eventually(async () => {
    const n = (await t.app.inject({ method: 'GET', url: `/v1/nfse/${id}`, headers: auth })).json();
    return n.status === 'canceled' ? n : null;
  }, 30_000, () => `NFS-e ${id} to be canceled`) as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}
