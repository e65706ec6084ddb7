import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// Voiding NF-e (model 55) numbers, and the proof of any voiding (ProcInutNFe), through the API and
// the simulated authority (docs/fiscal/inutilizacao.md; leiauteInutNFe_v4.00.xsd takes mod 55 or 65).

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const justification = 'Falha no sistema de faturamento pulou a numeracao';
const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: auth, payload });

describe('NF-e (model 55) numbers can be voided', () => {
  it('voids an unused NF-e range (model 55), refuses used NF-e numbers, and the next NF-e skips the voided ones', async () => {
    const { note } = await emitNfeSettled(t, auth, invoice(issuerId));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');

    const used = await post(`/v1/issuers/${issuerId}/nfe-inutilization`, { serie: 1, numero_inicial: note.number, numero_final: note.number + 1, justification });
    expect(used.statusCode, used.body).toBe(422);
    expect(used.json().message).toContain(String(note.number));

    const ok = await post(`/v1/issuers/${issuerId}/nfe-inutilization`, { serie: 1, numero_inicial: note.number + 1, numero_final: note.number + 2, justification });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ object: 'inutilization', model: 55, serie: 1, status: 'voided', protocolo: expect.stringMatching(/^\d{15}$/) });
    const again = await t.app.inject({ method: 'GET', url: `/v1/inutilizations/${ok.json().id}`, headers: auth });
    expect(again.json()).toMatchObject({ id: ok.json().id, model: 55 });

    const { note: next } = await emitNfeSettled(t, auth, invoice(issuerId));
    expect(next.number).toBe(note.number + 3);
  });

  it('an NF-e voiding is not an NFC-e one: the same series and numbers of model 65 are voided separately', async () => {
    const range = { serie: 1, numero_inicial: 700_000, numero_final: 700_001, justification };
    const nfe = await post(`/v1/issuers/${issuerId}/nfe-inutilization`, range);
    expect(nfe.json()).toMatchObject({ model: 55, status: 'voided' });
    // The authority keys voided numbers by model (MOC 3B08-100: Modelo, UF, CNPJ, Série, Número): no 563/256.
    const nfce = await post(`/v1/issuers/${issuerId}/inutilization`, range);
    expect(nfce.json()).toMatchObject({ model: 65, status: 'voided' });
  });
});

describe('GET /v1/inutilizations/:id/xml: the voiding proof', () => {
  it('serves the ProcInutNFe that passes the official XSD, with both signatures intact', async () => {
    const ok = await post(`/v1/issuers/${issuerId}/nfe-inutilization`, { serie: 2, numero_inicial: 40, numero_final: 45, justification });
    expect(ok.statusCode, ok.body).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: `/v1/inutilizations/${ok.json().id}/xml`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="\d{2}\d{2}\d{14}55002000000040000000045-procInutNFe\.xml"$/);
    expect(await xmllint(res.body, 'PL_009_V4', 'procInutNFe_v4.00.xsd')).toBe('');
    expect(res.body).toContain('<mod>55</mod>');
    expect(res.body).toContain(`<nProt>${ok.json().protocolo}</nProt>`);
    // The taxpayer's signature over infInut and the authority's over its answer both still verify.
    expect(await xmlsecVerify(res.body)).toBe('');
    expect(await xmlsecVerify(res.body, undefined, "//*[local-name()='retInutNFe']/*[local-name()='Signature']")).toBe('');
  });

  it('a rejected inutilization has no proof (409); another account gets 404', async () => {
    const range = { serie: 3, numero_inicial: 10, numero_final: 12, justification };
    expect((await post(`/v1/issuers/${issuerId}/nfe-inutilization`, range)).json().status).toBe('voided');
    // The same range again: the authority answers 563 (a voiding of that range exists).
    const repeat = await post(`/v1/issuers/${issuerId}/nfe-inutilization`, range);
    expect(repeat.json()).toMatchObject({ status: 'rejected', rejection: { code: expect.stringContaining('563') } });
    const res = await t.app.inject({ method: 'GET', url: `/v1/inutilizations/${repeat.json().id}/xml`, headers: auth });
    expect(res.statusCode).toBe(409);
    const other = (await t.newAccount()).auth;
    expect((await t.app.inject({ method: 'GET', url: `/v1/inutilizations/${repeat.json().id}/xml`, headers: other })).statusCode).toBe(404);
  });
});

describe('an inutilization is read with its model\'s scope', () => {
  const keyWith = async (scope: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/applications', headers: auth, payload: { name: `only ${scope}`, scopes: [scope] } });
    expect(res.statusCode, res.body).toBe(201);
    return { authorization: `Bearer ${res.json().key as string}` };
  };

  it('nfe:read reads NF-e voidings and their proof, not NFC-e ones; nfce:read the other way round', async () => {
    const range = { serie: 4, numero_inicial: 50, numero_final: 51, justification };
    const nfeId = (await post(`/v1/issuers/${issuerId}/nfe-inutilization`, range)).json().id as string;
    const nfceId = (await post(`/v1/issuers/${issuerId}/inutilization`, range)).json().id as string;
    const [nfeReader, nfceReader, issuersReader] = [await keyWith('nfe:read'), await keyWith('nfce:read'), await keyWith('issuers:read')];
    const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
    for (const suffix of ['', '/xml']) {
      expect((await get(`/v1/inutilizations/${nfeId}${suffix}`, nfeReader)).statusCode).toBe(200);
      expect((await get(`/v1/inutilizations/${nfceId}${suffix}`, nfceReader)).statusCode).toBe(200);
      const crossed = await get(`/v1/inutilizations/${nfceId}${suffix}`, nfeReader);
      expect(crossed.statusCode).toBe(403);
      expect(crossed.json().message).toContain('"nfce:read"');
      expect((await get(`/v1/inutilizations/${nfeId}${suffix}`, nfceReader)).statusCode).toBe(403);
      // Neither scope: refused before the record is looked up.
      expect((await get(`/v1/inutilizations/${nfeId}${suffix}`, issuersReader)).json().message).toContain('"nfce:read" or "nfe:read"');
    }
  });
});
