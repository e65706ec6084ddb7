import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAuthoritySimulator, type AuthoritySimulator } from '../src/authority-sim/authority-simulator.js';
import { motivo } from '../src/authority-sim/cstat-messages.js';
import { parseScenario } from '../src/authority-sim/scenario.js';
import { remoteSimulatorLink, SimulatorAdminError } from '../src/authority-sim/sim-admin-client.js';
import { createSefazClient, type SefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { signedNfce, testIssuer, uniqueCnpj, type TestIssuer } from './support/authority-fixtures.js';
import { signedCancellation, signedInutilization } from './support/authority-events.js';
import { BA, registerTestCsc, startAuthorityHarness, type AuthorityHarness } from './support/authority-harness.js';
import { getTestDb } from './support/db.js';
import { eventually } from './support/webhook-receiver.js';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, readyIssuer, sale } from './support/nfce-flow.js';

let h: AuthorityHarness;
let cnpj: string;
let other: string;
let nNF = 1;
// The simulator's clock runs `shift` ms ahead of the wall clock: a test ends an outage by moving it.
let shift = 0;

// Only calls the simulator is told never to answer get a short response timeout.
const GIVE_UP_MS = 800;

beforeAll(async () => {
  h = await startAuthorityHarness();
  h.sim.setClock(() => new Date(Date.now() + shift));
  cnpj = uniqueCnpj();
  other = uniqueCnpj();
  await registerTestCsc(h.sim, cnpj);
  await registerTestCsc(h.sim, other);
});
afterEach(() => {
  h.sim.endOutage();
  shift = 0;
});
afterAll(() => h.close());

const note = (issuer = cnpj) => signedNfce(h.issuer, { cnpj: issuer, nNF: nNF++ });
const authorize = (xml: string, o: { headers?: Record<string, string>; responseTimeoutMs?: number } = {}) =>
  h.client.authorize({ ...BA, signedNFeXml: xml, idLote: 1, ...o });

async function authorizedNote() {
  const n = note();
  const out = await authorize(n.xml);
  if (out.kind !== 'authorized') throw new Error(`not authorized: ${JSON.stringify(out)}`);
  return { accessKey: n.accessKey, nProt: out.protocol.info.nProt! };
}

function clientFor(issuer: TestIssuer, sim: AuthoritySimulator): SefazClient {
  return createSefazClient({
    credentials: issuer.credentials,
    ca: [sim.caPem],
    endpointOverride: { baseUrl: sim.url },
    connectTimeoutMs: 10_000,
    responseTimeoutMs: 20_000,
  });
}

describe('outage: unavailable (108) and unavailable:109', () => {
  it('every service answers 108 while it lasts; after it (the clock moved) the same note is authorized once', async () => {
    const before = await authorizedNote();
    const { xml, accessKey } = note();
    const started = h.sim.startOutage({ mode: 'unavailable', seconds: 60 });
    expect(started.cnpj).toBeNull();
    expect(started.endsAt.getTime() - started.startedAt.getTime()).toBe(60_000);
    const outageAnswersBefore = h.sim.stats().outageAnswers;

    const auth = await authorize(xml);
    expect(auth).toMatchObject({ kind: 'unavailable', cStat: 108, xMotivo: motivo(108) });
    expect(motivo(108)).toMatch(/Paralisado Momentaneamente/);
    expect(await h.client.consult({ ...BA, accessKey: before.accessKey })).toMatchObject({ kind: 'unavailable', cStat: 108 });
    expect(await h.client.status(BA)).toMatchObject({ kind: 'stopped', cStat: 108 });
    const cancel = signedCancellation(h.issuer, { cnpj, ...before });
    expect(await h.client.sendEvent({ ...BA, signedEventXml: cancel, idLote: 1 })).toMatchObject({ kind: 'unavailable', cStat: 108 });
    const voiding = signedInutilization(h.issuer, { cnpj, from: 7000, to: 7001 });
    expect(await h.client.inutilize({ ...BA, signedInutNFeXml: voiding })).toMatchObject({ kind: 'unavailable', cStat: 108 });
    expect(await h.sim.authorizationsFor(accessKey)).toBe(0);
    expect(h.sim.stats().outageAnswers).toBe(outageAnswersBefore + 5);
    expect(h.sim.outages()).toHaveLength(1);

    shift = 60_000;
    expect(h.sim.outages()).toEqual([]);
    expect(await authorize(xml)).toMatchObject({ kind: 'authorized', cStat: 100 });
    expect(await h.client.status(BA)).toMatchObject({ kind: 'in-operation', cStat: 107 });
    expect((await h.client.sendEvent({ ...BA, signedEventXml: cancel, idLote: 1 })).kind).toBe('registered');
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });

  it('unavailable:109 answers 109 "sem previsão"; endOutage() brings the authority back at once', async () => {
    const { xml, accessKey } = note();
    h.sim.startOutage({ mode: 'unavailable:109', seconds: 3600 });
    expect(await authorize(xml)).toMatchObject({ kind: 'unavailable', cStat: 109 });
    expect(motivo(109)).toMatch(/Paralisado sem Previs/);
    expect(await h.client.status(BA)).toMatchObject({ kind: 'stopped', cStat: 109 });
    expect(h.sim.endOutage()).toBe(1);
    expect(await authorize(xml)).toMatchObject({ kind: 'authorized' });
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });

  it('a queued scenario waits for the outage to end instead of being spent on it', async () => {
    h.sim.startOutage({ mode: 'unavailable', seconds: 60 });
    h.sim.setScenario('reject:778', { service: 'autorizacao' });
    expect(await authorize(note().xml)).toMatchObject({ kind: 'unavailable', cStat: 108 });
    h.sim.endOutage();
    expect(await authorize(note().xml)).toMatchObject({ kind: 'rejected', cStat: 778 });
  });
});

describe('outage: no-answer', () => {
  it('the request is read and never answered: the client times out, nothing is authorized; after the outage it is', async () => {
    const { xml, accessKey } = note();
    h.sim.startOutage({ mode: 'no-answer', seconds: 60 });
    const out = await authorize(xml, { responseTimeoutMs: GIVE_UP_MS });
    expect(out).toMatchObject({ kind: 'timeout', phase: 'response', inDoubt: true });
    expect(await h.sim.authorizationsFor(accessKey)).toBe(0);
    shift = 61_000;
    expect(await authorize(xml)).toMatchObject({ kind: 'authorized' });
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });

  it('a held connection is dropped when the outage ends, not left open', async () => {
    h.sim.startOutage({ mode: 'no-answer', seconds: 60 });
    const before = h.sim.stats().outageAnswers;
    const startedAt = Date.now();
    const pending = authorize(note().xml, { responseTimeoutMs: 20_000 });
    await eventually(async () => h.sim.stats().outageAnswers > before, 10_000, 'the request to be held');
    h.sim.endOutage();
    const out = await pending;
    expect(out.kind).not.toBe('timeout');
    expect(out).toMatchObject({ inDoubt: true });
    expect(Date.now() - startedAt).toBeLessThan(20_000);
  });

  it("close() completes with a connection held, and the client's call ends", async () => {
    const sim = await startAuthoritySimulator({ db: await getTestDb(), latencyMs: [0, 0] });
    await sim.registerClientCertificate(h.issuer.credentials.cert);
    const client = clientFor(h.issuer, sim);
    try {
      sim.startOutage({ mode: 'no-answer', seconds: 3600 });
      const pending = client.status(BA);
      await eventually(async () => sim.stats().outageAnswers > 0, 10_000, 'the status request to be held');
      await sim.close();
      expect((await pending).kind).not.toBe('in-operation');
    } finally {
      client.close();
      await sim.close();
    }
  });
});

describe('outage of one issuer', () => {
  it("takes down that CNPJ's messages only; another issuer is authorized meanwhile", async () => {
    h.sim.startOutage({ mode: 'unavailable', seconds: 60, cnpj });
    const mine = note(cnpj);
    expect(await authorize(mine.xml)).toMatchObject({ kind: 'unavailable', cStat: 108 });
    expect(await h.client.consult({ ...BA, accessKey: mine.accessKey })).toMatchObject({ kind: 'unavailable' });
    const theirs = note(other);
    expect(await authorize(theirs.xml)).toMatchObject({ kind: 'authorized' });
    expect(await h.client.consult({ ...BA, accessKey: theirs.accessKey })).toMatchObject({ kind: 'authorized' });
    expect(h.sim.outages()).toEqual([expect.objectContaining({ cnpj, mode: 'unavailable' })]);
    // A status message names nobody: the certificate stands for the issuers it sent documents for.
    expect(await h.client.status(BA)).toMatchObject({ kind: 'stopped', cStat: 108 });
  });

  it('the status probe of a certificate naming that CNPJ meets it; one naming another does not', async () => {
    const withCnpj = testIssuer('cnpj'); // e-CNPJ 06157250000116
    await h.sim.registerClientCertificate(withCnpj.credentials.cert);
    const client = clientFor(withCnpj, h.sim);
    try {
      h.sim.startOutage({ mode: 'unavailable:109', seconds: 60, cnpj: '06157250000116' });
      expect(await client.status(BA)).toMatchObject({ kind: 'stopped', cStat: 109 });
      h.sim.startOutage({ mode: 'unavailable:109', seconds: 60, cnpj: other });
      h.sim.endOutage('06157250000116');
      expect(await client.status(BA)).toMatchObject({ kind: 'in-operation' });
    } finally {
      client.close();
    }
  });
});

describe('scenario outage:<seconds>[:109|:no-answer]', () => {
  it('parses strictly (1..3600 seconds), unknown forms are null', () => {
    expect(parseScenario('outage:60')).toEqual({ kind: 'outage', mode: 'unavailable', seconds: 60, authorizer: 'state' });
    expect(parseScenario('outage:3600:109')).toEqual({ kind: 'outage', mode: 'unavailable:109', seconds: 3600, authorizer: 'state' });
    expect(parseScenario('Outage:1:No-Answer')).toEqual({ kind: 'outage', mode: 'no-answer', seconds: 1, authorizer: 'state' });
    // `:svc`: the SVCs go down instead of the state's authorizer (docs/fiscal/svc.md#when-the-svc-is-down-too).
    expect(parseScenario('outage:60:109:svc')).toEqual({ kind: 'outage', mode: 'unavailable:109', seconds: 60, authorizer: 'svc' });
    expect(parseScenario('outage:60:svc')).toEqual({ kind: 'outage', mode: 'unavailable', seconds: 60, authorizer: 'svc' });
    for (const bad of ['outage', 'outage:', 'outage:0', 'outage:3601', 'outage:060', 'outage:60:', 'outage:60:108', 'outage:60:109:x', 'outage:1e3', 'outage:-5']) {
      expect(parseScenario(bad), bad).toBeNull();
    }
  });

  it('the request carrying it already meets the outage, of its issuer only, and the later ones too', async () => {
    const { xml, accessKey } = note(cnpj);
    expect(await authorize(xml, { headers: { 'X-Sandbox-Scenario': 'outage:120:109' } })).toMatchObject({ kind: 'unavailable', cStat: 109 });
    const [outage] = h.sim.outages();
    expect(outage).toMatchObject({ cnpj, mode: 'unavailable:109' });
    expect(outage!.endsAt.getTime() - outage!.startedAt.getTime()).toBe(120_000);
    expect(await authorize(xml)).toMatchObject({ kind: 'unavailable', cStat: 109 });
    expect(await authorize(note(other).xml)).toMatchObject({ kind: 'authorized' });
    shift = 120_000;
    expect(await authorize(xml)).toMatchObject({ kind: 'authorized' });
    expect(await h.sim.authorizationsFor(accessKey)).toBe(1);
  });

  it('is refused (a SOAP fault, no outage) on a message naming no issuer from a certificate naming none', async () => {
    const out = await h.client.status({ ...BA, headers: { 'X-Sandbox-Scenario': 'outage:60' } });
    expect(out).toMatchObject({ kind: 'unavailable', httpStatus: 500 });
    expect(h.sim.outages()).toEqual([]);
  });

  it('outage:<seconds>:no-answer holds this request unanswered', async () => {
    const { xml, accessKey } = note(cnpj);
    const out = await authorize(xml, { headers: { 'X-Sandbox-Scenario': 'outage:30:no-answer' }, responseTimeoutMs: GIVE_UP_MS });
    expect(out).toMatchObject({ kind: 'timeout', phase: 'response' });
    expect(h.sim.outages()).toEqual([expect.objectContaining({ cnpj, mode: 'no-answer' })]);
    expect(await h.sim.authorizationsFor(accessKey)).toBe(0);
  });
});

describe('admin API /sim/admin/outage', () => {
  const token = 'outage-admin-token-0123456789';
  let sim: AuthoritySimulator;
  let client: SefazClient;
  beforeAll(async () => {
    sim = await startAuthoritySimulator({ db: await getTestDb(), latencyMs: [0, 0], adminToken: token });
    await sim.registerClientCertificate(h.issuer.credentials.cert);
    client = clientFor(h.issuer, sim);
  });
  afterAll(async () => {
    client.close();
    await sim.close();
  });
  const link = (t = token) => remoteSimulatorLink({ url: sim.url, caPem: sim.caPem, token: t });

  it('POST starts one (201 with the outage), GET lists it, SOAP meets it, stats count it, DELETE ends it (204)', async () => {
    const admin = link();
    const started = await admin.startOutage({ mode: 'unavailable:109', seconds: 90 });
    expect(started).toMatchObject({ mode: 'unavailable:109', cnpj: null });
    expect(started.endsAt.getTime() - started.startedAt.getTime()).toBe(90_000);
    expect(await admin.outages()).toEqual([started]);
    expect(await client.status(BA)).toMatchObject({ kind: 'stopped', cStat: 109 });
    expect((await admin.stats()).outageAnswers).toBe(1);
    await admin.endOutage();
    expect(await admin.outages()).toEqual([]);
    expect(await client.status(BA)).toMatchObject({ kind: 'in-operation' });

    const scoped = await admin.startOutage({ mode: 'no-answer', seconds: 5, cnpj });
    expect(scoped.cnpj).toBe(cnpj);
    await admin.endOutage(other);
    expect(await admin.outages()).toHaveLength(1);
    await admin.endOutage(cnpj);
    expect(await admin.outages()).toEqual([]);
  });

  it('401 without the bearer token', async () => {
    await expect(link('wrong-token-000000000').outages()).rejects.toMatchObject({ status: 401 });
    await expect(link('wrong-token-000000000').startOutage({ mode: 'unavailable', seconds: 60 })).rejects.toThrow(SimulatorAdminError);
    expect(sim.outages()).toEqual([]);
  });

  it('400 naming the field for a bad mode, seconds out of range or a bad cnpj', async () => {
    const admin = link();
    const refused = (body: Record<string, unknown>) => admin.startOutage(body as never);
    await expect(refused({ mode: 'sideways', seconds: 60 })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/mode must be unavailable, unavailable:109, no-answer/) });
    await expect(refused({ mode: 'unavailable', seconds: 0 })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/seconds must be an integer from 1 to 86400/) });
    await expect(refused({ mode: 'unavailable', seconds: 86_401 })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/seconds/) });
    await expect(refused({ mode: 'unavailable', seconds: 1.5 })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/seconds/) });
    await expect(refused({ mode: 'unavailable', seconds: 60, cnpj: '123' })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/cnpj must be/) });
    await expect(admin.endOutage('nope')).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/cnpj must be/) });
    expect(sim.outages()).toEqual([]);
    expect(() => sim.startOutage({ mode: 'unavailable', seconds: 86_401 })).toThrow(RangeError);
  });
});

describe('through the gateway: POST /v1/nfce with X-Sandbox-Scenario: outage:60', () => {
  let t: TestApp;
  let auth: { authorization: string };
  let issuerId: string;
  let issuerCnpj: string;
  beforeAll(async () => {
    ({ t, auth, issuerId } = await emittingApp());
    issuerCnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj;
  });
  afterAll(async () => {
    await t.simulator.endOutage();
    await t.runtime.close();
  });

  it("takes the authority down for that issuer only: its sale is not authorized, another issuer's is", async () => {
    const before = t.simulator.stats().outageAnswers;
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, 'x-sandbox-scenario': 'outage:60' }, payload: sale(issuerId) });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().id as string;
    // The key the sale was signed under (the API shows it once authorized).
    const key = (await t.db.query<{ access_key: string }>('SELECT access_key FROM notes WHERE id = $1', [id])).rows[0]!.access_key;
    expect(key.slice(6, 20)).toBe(issuerCnpj);
    const outage = await eventually(async () => t.simulator.outages().find((o) => o.cnpj === issuerCnpj), 20_000, 'the outage of the issuer');
    expect(outage.mode).toBe('unavailable');
    expect(outage.endsAt.getTime() - outage.startedAt.getTime()).toBe(60_000);
    expect(t.simulator.outages().filter((o) => o.cnpj !== issuerCnpj)).toEqual([]);
    // The transmission that carried the scenario met the outage itself: the gateway saw a 108.
    await eventually(async () => {
      const events = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/events`, headers: auth })).json().data as Array<{ type: string; code?: string | null }>;
      return events.some((e) => e.type === 'authority_unavailable' && e.code === '108');
    }, 20_000, 'the 108 in the note history');
    expect(t.simulator.stats().outageAnswers).toBeGreaterThan(before);
    expect(await t.simulator.authorizationsFor(key)).toBe(0);

    const otherIssuer = await readyIssuer(t, auth);
    const { note: theirs } = await emitSettled(t, auth, sale(otherIssuer));
    expect(theirs.status).toBe('authorized');
  }, 60_000);

  it('refuses an outage scenario out of bounds or of another form, naming the header', async () => {
    for (const bad of ['outage:0', 'outage:3601', 'outage:60:108', 'outage:60:']) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, 'x-sandbox-scenario': bad }, payload: sale(issuerId) });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().details[0]).toMatchObject({ field: 'header.X-Sandbox-Scenario', message: expect.stringMatching(/outage:<seconds 1-3600>/) });
    }
  });
});
