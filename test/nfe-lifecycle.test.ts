import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { invoice as invoiceOf, nfeSettled } from './support/nfe-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tempFile, xmllint, xmlsecVerify } from './support/xml-tools.js';
import { schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';

const run = promisify(execFile);

// NF-e (model 55) end to end: HTTP -> shared emission -> worker -> SOAP over mutual TLS -> simulator.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const invoice = (extra: Record<string, unknown> = {}) => invoiceOf(issuerId, extra);

async function get(id: string) {
  return (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}`, headers: auth })).json();
}

const settled = (id: string) => nfeSettled(t, auth, id);

async function history(id: string): Promise<string[]> {
  return (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/events`, headers: auth })).json().data.map((e: { type: string }) => e.type);
}

describe('NF-e model 55 through the API and the simulated authority', () => {
  let authorized: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('issues, authorizes and serves a distributable nfeProc that passes the official XSD and xmlsec1', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=10' }, payload: invoice() });
    expect([201, 202], res.body).toContain(res.statusCode);
    const created = res.json();
    expect(created).toMatchObject({ object: 'nfe', model: 55 });
    expect(created.id).toMatch(/^nfe_/);
    expect(res.headers.location).toBe(`/v1/nfe/${created.id}`);
    authorized = created.status === 'processing' ? await settled(created.id) : created;
    expect(authorized.status, JSON.stringify(authorized.rejection)).toBe('authorized');
    // Access key: cUF 35, model 55 at positions 21-22, series 001 (docs/fiscal/access-key.md).
    expect(authorized.access_key).toMatch(/^35\d{18}55001\d{19}$/);
    expect(authorized.protocolo).toMatch(/^\d{15}$/);
    expect(authorized).not.toHaveProperty('qrcode_url');
    expect(authorized.totals).toMatchObject({ vProd: 211.5, vNF: 211.5 });
    expect(authorized.destinatario).toEqual({ name: 'Mercado Boa Compra Ltda', tax_id: '11222333000181' });
    expect(authorized.correction).toBeNull();

    const xml = await t.app.inject({ method: 'GET', url: `/v1/nfe/${authorized.id}/xml`, headers: auth });
    expect(xml.statusCode).toBe(200);
    expect(xml.body).toMatch(/^<nfeProc versao="4.00"/);
    expect(xml.body).toContain('<mod>55</mod>');
    expect(xml.body).not.toContain('infNFeSupl');
    expect(await xmllint(xml.body, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmllint(xml.body, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml.body)).toBe('');
    // The package in force on its dhEmi and environment validated it, and the note says which.
    const kept = (await t.db.query<{ schema_package: string; dh_emi: string; tp_amb: number }>('SELECT schema_package, dh_emi, tp_amb FROM notes WHERE id = $1', [authorized.id])).rows[0]!;
    expect(kept.schema_package).toBe(schemaPackageFor(55, kept.dh_emi, kept.tp_amb === 1 ? 1 : 2));
  });

  it('serves the A4 DANFE: the barcode decodes to the access key, the text shows it in groups of four, the protocol and the recipient', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/nfe/${authorized.id}/danfe.pdf`, headers: auth });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = tempFile('danfe.pdf', res.rawPayload);
    const text = (await run('pdftotext', ['-layout', pdf, '-'])).stdout;
    expect(text).toContain(authorized.access_key.match(/.{4}/g).join(' '));
    expect(text).toContain(authorized.protocolo);
    // In homologation the layout writes a fixed phrase as the recipient's name (NT 2011/002); the CNPJ is the recipient's.
    expect(text).toContain('11.222.333/0001-81');
    expect(text).toMatch(/HOMOLOGA/);
    await run('pdftoppm', ['-r', '300', '-f', '1', '-l', '1', '-png', '-singlefile', pdf, pdf]);
    const codes = (await run('zbarimg', ['--raw', '-q', '-Sdisable', '-Scode128.enable', `${pdf}.png`])).stdout.split('\n').filter(Boolean);
    expect(codes).toContain(authorized.access_key);
  });

  it('is not an NFC-e: the NF-e id is unknown under /v1/nfce and the NFC-e list does not show it', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/v1/nfce/${authorized.id}`, headers: auth })).statusCode).toBe(404);
    const nfce = (await t.app.inject({ method: 'GET', url: '/v1/nfce', headers: auth })).json();
    expect(nfce.data.map((n: { id: string }) => n.id)).not.toContain(authorized.id);
    const nfe = (await t.app.inject({ method: 'GET', url: '/v1/nfe', headers: auth })).json();
    expect(nfe.data.map((n: { id: string }) => n.id)).toContain(authorized.id);
  });

  it('numbers model 55 apart from model 65 and gap-free', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, prefer: 'wait=10' }, payload: invoice() });
    const next = res.json().status === 'processing' ? await settled(res.json().id) : res.json();
    expect(next.number).toBe(authorized.number + 1);
  });

  it('refuses a CFOP that does not fit the destination with a 422 naming the item, before any number is taken', async () => {
    const bad = invoice();
    (bad.items as Array<{ cfop: string }>)[1]!.cfop = '6102';
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: auth, payload: bad });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain('items[1].cfop');
  });

  it('an asynchronous lot (receipt 103) is polled and authorized once', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, 'x-sandbox-scenario': 'async' }, payload: invoice() });
    expect(res.statusCode, res.body).toBe(202);
    const note = await settled(res.json().id);
    expect(note.status).toBe('authorized');
    expect(await t.simulator.authorizationsFor(note.access_key)).toBe(1);
    expect(await history(note.id)).toEqual(expect.arrayContaining(['receipt', 'receipt_polled', 'authorized']));
  });

  it('a rejection names the field and says what to fix', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, 'x-sandbox-scenario': 'reject:778' }, payload: invoice() });
    const note = await settled(res.json().id);
    expect(note.status).toBe('rejected');
    expect(note.rejection).toMatchObject({ code: '778', field: expect.stringMatching(/ncm/), hint: expect.any(String) });
  });

  it('takes two correction letters: sequences 1 and 2, the consolidated text in force, each procEventoNFe through XSD and xmlsec1', async () => {
    const first = await t.app.inject({
      method: 'POST', url: `/v1/nfe/${authorized.id}/cce`, headers: auth, payload: { correction: 'Endereco de entrega: Rua A, 1, fundos' },
    });
    expect([200, 202], first.body).toContain(first.statusCode);
    const one = await eventually(async () => {
      const n = await get(authorized.id);
      return n.correction?.sequence === 1 ? n : null;
    }, 20_000, () => 'CC-e 1 to be registered');
    expect(one.correction).toMatchObject({ sequence: 1, text: 'Endereco de entrega: Rua A, 1, fundos', protocolo: expect.stringMatching(/^\d{15}$/) });

    const second = await t.app.inject({
      method: 'POST', url: `/v1/nfe/${authorized.id}/cce`, headers: auth, payload: { correction: 'Transportadora: retirar no deposito 3' },
    });
    expect([200, 202], second.body).toContain(second.statusCode);
    const two = await eventually(async () => {
      const n = await get(authorized.id);
      return n.correction?.sequence === 2 ? n : null;
    }, 20_000, () => 'CC-e 2 to be registered');
    // Each letter replaces the previous one: the second carries both corrections.
    expect(two.correction.text).toBe('Endereco de entrega: Rua A, 1, fundos; Transportadora: retirar no deposito 3');
    expect(two.corrections.map((l: { sequence: number; status: string }) => [l.sequence, l.status])).toEqual([[1, 'registered'], [2, 'registered']]);
    expect(await history(authorized.id)).toEqual(expect.arrayContaining(['correction_requested', 'corrected']));

    for (const sequence of [1, 2]) {
      const proc = await t.app.inject({ method: 'GET', url: `/v1/nfe/${authorized.id}/xml?event=correction&sequence=${sequence}`, headers: auth });
      expect(proc.statusCode, proc.body).toBe(200);
      expect(proc.body).toContain(`<nSeqEvento>${sequence}</nSeqEvento>`);
      expect(await xmllint(proc.body, 'PL_009_V4', 'procCCeNFe_v1.00.xsd')).toBe('');
      expect(await xmlsecVerify(proc.body)).toBe('');
    }
  });

  it('refuses a correction of values, parties or dates, saying to cancel and re-issue', async () => {
    for (const correction of ['Valor unitario do item 1 passa a ser 19,90', 'Destinatario correto: CNPJ 11.222.333/0001-81', 'Data de emissao correta: 10/11/2026']) {
      const res = await t.app.inject({ method: 'POST', url: `/v1/nfe/${authorized.id}/cce`, headers: auth, payload: { correction } });
      expect(res.statusCode, correction).toBe(422);
      expect(res.json().details[0].field).toBe('correction');
      expect(res.json().message).toMatch(/Cancel the NF-e and issue it again/);
    }
    expect((await get(authorized.id)).corrections).toHaveLength(2);
  });

  it('cancels within the 24-hour window; the procEventoNFe passes its XSD and xmlsec1', async () => {
    const res = await t.app.inject({
      method: 'POST', url: `/v1/nfe/${authorized.id}/cancel`, headers: auth, payload: { reason: 'Pedido cancelado pelo cliente antes do envio' },
    });
    expect([200, 202], res.body).toContain(res.statusCode);
    const canceled = await eventually(async () => {
      const n = await get(authorized.id);
      return n.status === 'canceled' ? n : null;
    }, 20_000, () => 'the NF-e to be canceled');
    expect(canceled.cancellation).toMatchObject({ protocolo: expect.stringMatching(/^\d{15}$/) });
    const proc = await t.app.inject({ method: 'GET', url: `/v1/nfe/${authorized.id}/xml?event=cancellation`, headers: auth });
    expect(proc.body).toMatch(/^<procEventoNFe/);
    expect(await xmllint(proc.body, 'PL_009_V4', 'procEventoCancNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(proc.body)).toBe('');
  });

  it('wrote the NF-e webhook events of each step to the outbox', async () => {
    const r = await t.db.query<{ type: string }>(
      `SELECT DISTINCT type FROM events WHERE account_id = (SELECT account_id FROM notes WHERE id = $1) AND type LIKE 'nfe.%'`,
      [authorized.id],
    );
    expect(r.rows.map((x) => x.type).sort()).toEqual(['nfe.authorized', 'nfe.canceled', 'nfe.corrected', 'nfe.rejected']);
  });
});
