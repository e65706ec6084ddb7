import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeOrReconcile } from '../src/fiscal/sefaz/reconcile.js';
import { readFixture, signedNfce, uniqueCnpj } from './support/authority-fixtures.js';
import { BA, registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { createSefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { X509Certificate } from 'node:crypto';
import { nfeElementsOf, nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { identityRejection } from '../src/authority-sim/nfe-rules.js';
import { testIssuer } from './support/authority-fixtures.js';
import { buildEnviNFe } from '../src/fiscal/sefaz/request-payloads.js';

let h: AuthorityHarness;
let cnpj: string;
let nNF = 1;

// Only the calls the simulator is told never to answer get a short response timeout (the test waits
// it out); every other call keeps the harness's generous one, so a slow answer on a loaded machine
// is not taken for the 'timeout' scenario.
const GIVE_UP_MS = 800;

beforeAll(async () => {
  h = await startAuthorityHarness();
  cnpj = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
});
afterAll(() => h.close());

const note = () => signedNfce(h.issuer, { cnpj, nNF: nNF++ });
const scenario = (s: string) => ({ 'X-Sandbox-Scenario': s });

describe('fault scenarios', () => {
  it('timeout: no answer until the client gives up; nothing was authorized', async () => {
    const { xml, accessKey } = note();
    const out = await h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, headers: scenario('timeout'), responseTimeoutMs: GIVE_UP_MS });
    expect(out).toMatchObject({ kind: 'timeout', phase: 'response', inDoubt: true });
    expect(await h.sim.authorizationsFor(accessKey)).toBe(0);
  });

  it('lost-response: authorized durably, answer dropped; the reconciling client learns it by consultation, never twice', async () => {
    const { xml, accessKey } = note();
    const out = await authorizeOrReconcile(h.client, { ...BA, signedNFeXml: xml, idLote: 1, accessKey, headers: scenario('lost-response') });
    expect(out.status).toBe('authorized');
    expect(out.via).toBe('consultation');
    expect(out.steps.map((s) => s.call)).toEqual(['authorize', 'consult']);
    expect(out.protocol?.protNFeXml).toContain(accessKey);
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });

  it('timeout then reconcile: the consultation says 217, one resend authorizes once', async () => {
    const { xml, accessKey } = note();
    h.sim.setScenario('timeout', { service: 'autorizacao' });
    // The first authorization is the unanswered one: it alone gives up quickly.
    let first = true;
    const client = { ...h.client, authorize: (target: Parameters<typeof h.client.authorize>[0]) => {
      const short = first;
      first = false;
      return h.client.authorize(short ? { ...target, responseTimeoutMs: GIVE_UP_MS } : target);
    } };
    const out = await authorizeOrReconcile(client, { ...BA, signedNFeXml: xml, idLote: 1, accessKey });
    expect(out.status).toBe('authorized');
    expect(out.steps.map((s) => `${s.call}:${s.kind}`)).toEqual(['authorize:timeout', 'consult:not-found', 'authorize:authorized']);
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });

  it('unavailable: 108 (and 109) as a value, nothing authorized', async () => {
    const { xml } = note();
    const out = await h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, headers: scenario('unavailable') });
    expect(out).toMatchObject({ kind: 'unavailable', cStat: 108 });
    const status = await h.client.status({ ...BA, headers: scenario('unavailable:109') });
    expect(status).toMatchObject({ kind: 'stopped', cStat: 109 });
  });

  it('http-500: unavailable with the HTTP status, in doubt for an authorization', async () => {
    const { xml } = note();
    const out = await h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, headers: scenario('http-500') });
    expect(out).toMatchObject({ kind: 'unavailable', httpStatus: 500, inDoubt: true });
  });

  it('malformed: a non-XML body is an unknown outcome', async () => {
    const { xml } = note();
    const out = await h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, headers: scenario('malformed') });
    expect(out).toMatchObject({ kind: 'unknown', inDoubt: true });
  });

  it('reject:<cStat> and deny (110, 301) as the authority answers them', async () => {
    const rejected = await h.client.authorize({ ...BA, signedNFeXml: note().xml, idLote: 1, headers: scenario('reject:778') });
    expect(rejected).toMatchObject({ kind: 'rejected', cStat: 778 });
    const denied = note();
    const out = await h.client.authorize({ ...BA, signedNFeXml: denied.xml, idLote: 1, headers: scenario('deny') });
    expect(out).toMatchObject({ kind: 'denied', cStat: 110 });
    expect(out.kind === 'denied' && out.protocol.info.nProt).toMatch(/^[0-9]{15}$/);
    const irregular = await h.client.authorize({ ...BA, signedNFeXml: note().xml, idLote: 1, headers: scenario('deny:301') });
    expect(irregular).toMatchObject({ kind: 'denied', cStat: 301 });
    expect((await h.client.consult({ ...BA, accessKey: denied.accessKey })).kind).toBe('denied');
    expect(h.sim.stats().denials).toBeGreaterThanOrEqual(2);
  });
});

describe('mutual TLS', () => {
  it('refuses a client without a certificate during the handshake', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const req = https.request(h.sim.url, { method: 'POST', ca: [h.sim.caPem] }, () => resolve(null));
      req.on('error', (e) => resolve(e));
      req.end('<x/>');
    });
    expect(err).not.toBeNull();
    expect(String(err?.code ?? err?.message)).toMatch(/ECONNRESET|EPROTO|ERR_SSL|alert|certificate/i);
  });

  it('refuses an unregistered client certificate, and accepts it once the sandbox registers it', async () => {
    const other = testIssuer('cnpj');
    const client = createSefazClient({ credentials: other.credentials, ca: [h.sim.caPem], endpointOverride: { baseUrl: h.sim.url } });
    try {
      expect((await client.status(BA)).kind).toBe('unknown');
      h.sim.registerClientCertificate(other.credentials.cert);
      expect((await client.status(BA)).kind).toBe('in-operation');
    } finally {
      client.close();
    }
  });
});

describe('real signed samples', () => {
  const send = (nfe: string) =>
    h.client.authorize({ ...BA, signedNFeXml: nfe, idLote: 3 });

  it('the BA NFC-e 4.00 passes schema and signature, then fails its certificate today: 291 (expired in 2019, MOC E02); received in 2018, identity: 213 (signer FIMATEC 58716523 is not issuer 33657677), then 253 (key DV, MOC B23-10); a tampered copy 297', async () => {
    const ba = readFixture('samples/nfce/nfce_v4.00_BA_homologacao_offline_tpEmis9_qrv2_assinada_sem_protocolo.xml');
    // The signing certificate (group E) precedes the identity rules (F03) and the business rules (MOC order).
    expect(await send(ba)).toMatchObject({ kind: 'rejected', cStat: 291 });
    h.sim.setClock(() => new Date('2018-10-01T12:00:00Z'));
    try {
      expect(await send(ba)).toMatchObject({ kind: 'rejected', cStat: 213 });
    } finally {
      h.sim.setClock(() => new Date());
    }
    // With a signer that names no CNPJ the next identity rule speaks: the hand-edited key's DV (253).
    const facts = nfeFacts(nfeElementsOf(buildEnviNFe(ba, 1))[0]!);
    expect(identityRejection(facts, new X509Certificate(testIssuer('plain').cert.certificatePem))?.cStat).toBe(253);
    expect(await send(ba.replace('PMZ CENTRO NORTE', 'PMZ CENTRO SUL'))).toMatchObject({ kind: 'rejected', cStat: 297 });
  });

  it('the RS NF-e 4.00 (inside its nfeProc) passes schema, signature and identity checks', async () => {
    const proc = readFixture('samples/nfe/nfe_v4.00_RS_homologacao_autorizada.xml');
    const nfe = proc.slice(proc.indexOf('<NFe'), proc.indexOf('</NFe>') + 6);
    // Received today, its signing certificate of 2018 has expired (MOC E02, 291, before B09-20's 228 for a dhEmi more than 30 days old).
    const today = await h.client.authorize({ uf: 'RS', model: 55, tpAmb: 2, signedNFeXml: nfe, idLote: 4 });
    expect(today).toMatchObject({ kind: 'rejected', cStat: 291 });
    // Received the day it was issued: model 55 has no NFC-e rules; the real e-CNPJ matches the issuer
    // root, the key is right: authorized (or 204 when another file sharing the database sent it first).
    h.sim.setClock(() => new Date('2018-09-25T15:00:00Z'));
    try {
      const out = await h.client.authorize({ uf: 'RS', model: 55, tpAmb: 2, signedNFeXml: nfe, idLote: 4 });
      expect(['authorized', 'duplicate']).toContain(out.kind);
    } finally {
      h.sim.setClock(() => new Date());
    }
  });
});
