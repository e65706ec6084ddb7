import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tlsCredentials } from '../src/fiscal/certificate/pfx.js';
import { createSefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { loadIssuerSigningMaterial } from '../src/platform/issuers/issuer-signing-material.js';
import { createTestApp, type TestApp } from './support/app.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { issueNfseSettled, serviceInvoice } from './support/nfse-flow.js';

// The public sandbox is shared by everyone who follows the README with the example
// certificate, so every account registers the same CNPJ (06157250000116). The simulated authority
// must keep each account's numbers, notes and outages apart: a second account's first sales were
// refused 539 with the first account's key and protocol, and one account's `outage:` scenario sent
// another account's sale into contingency.
const README_CNPJ = '06157250000116';

describe('the sandbox authority keeps each account apart (same test CNPJ)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ role: 'all' });
  }, 60_000);
  afterAll(async () => {
    t.simulator.endOutage();
    await t.runtime.close();
  });

  async function account() {
    const { auth, accountId } = await t.newAccount('Padaria Exemplo');
    // The README's first steps: the issuer with the example CNPJ, the examples/ certificate, the CSC.
    const issuerId = await readyIssuer(t, auth, { cnpj: README_CNPJ });
    return { auth, issuerId, accountId };
  }

  async function sell(a: { auth: { authorization: string }; issuerId: string }, headers: Record<string, string> = {}) {
    const { note } = await emitSettled(t, a.auth, sale(a.issuerId), headers);
    return note as { status: string; number: number; access_key: string; protocolo: string; rejection?: { code: string; message: string } };
  }

  it('two accounts with the example certificate both number from 1, all authorized, and never see the other one\'s key or protocol', async () => {
    const first = await account();
    const second = await account();
    const firsts = [];
    for (let i = 0; i < 3; i++) firsts.push(await sell(first));
    const seconds = [];
    for (let i = 0; i < 3; i++) seconds.push(await sell(second));
    for (const notes of [firsts, seconds]) {
      expect(notes.map((n) => [n.status, n.number, n.rejection?.code ?? null])).toEqual([
        ['authorized', 1, null],
        ['authorized', 2, null],
        ['authorized', 3, null],
      ]);
    }
    const seen = JSON.stringify(seconds);
    for (const n of firsts) {
      expect(seen).not.toContain(n.access_key);
      expect(seen).not.toContain(n.protocolo);
    }
  }, 90_000);

  it("one account's outage scenario leaves the other account's sales authorized", async () => {
    const first = await account();
    const second = await account();
    const down = await t.app.inject({
      method: 'POST', url: '/v1/nfce', headers: { ...first.auth, prefer: 'wait=1', 'x-sandbox-scenario': 'outage:90' }, payload: sale(first.issuerId),
    });
    expect(down.json().status).not.toBe('authorized');
    // The outage is on for the first account's CNPJ...
    expect(t.simulator.outages().length).toBeGreaterThan(0);
    // ...and the second account, with the same CNPJ and certificate, keeps selling.
    for (let i = 0; i < 2; i++) {
      const note = await sell(second);
      expect([note.status, note.number]).toEqual(['authorized', i + 1]);
    }
  }, 90_000);

  it('the account is bound by the gateway: a header from the API caller is not passed on, and a forged or borrowed tenant reaches nothing at the authority', async () => {
    const victim = await account();
    const attacker = await account();
    const own = await sell(victim);
    expect(own.status).toBe('authorized');
    // Through the API: the attacker names the victim's tenant; the gateway sends the attacker's own.
    const guess = `${victim.accountId}.${'A'.repeat(43)}`;
    const theirs = await sell(attacker, { 'x-sandbox-tenant': guess });
    expect([theirs.status, theirs.number]).toEqual(['authorized', 1]);
    // Straight to the simulated authority with the example certificate (anyone may have it).
    const material = (await loadIssuerSigningMaterial(t.db, t.ctx.secrets, attacker.accountId, attacker.issuerId))!;
    const direct = createSefazClient({ credentials: tlsCredentials(material.certificate!), ca: [t.simulator.caPem], endpointOverride: { baseUrl: t.simulator.url } });
    const consult = (headers: Record<string, string>) => direct.consult({ uf: 'SP', model: 65, tpAmb: 2, accessKey: own.access_key, headers });
    try {
      expect(await consult({})).toMatchObject({ kind: 'not-found' });
      expect(await consult({ 'x-sandbox-tenant': t.simulator.tenantCredential(attacker.accountId) })).toMatchObject({ kind: 'not-found' });
      const forged = await consult({ 'x-sandbox-tenant': guess });
      expect(forged.kind).not.toBe('authorized');
      expect(JSON.stringify(forged)).not.toContain(own.protocolo);
      // The victim's own credential (which only the gateway can make) finds it: the note is there.
      expect(await consult({ 'x-sandbox-tenant': t.simulator.tenantCredential(victim.accountId) })).toMatchObject({ kind: 'authorized' });
    } finally {
      direct.close();
    }
  }, 90_000);

  it('two accounts issue NFS-e for the README\'s CNPJ: each DPS authorized, neither meets the other\'s (E0014) nor gets its NFS-e', async () => {
    const notes = [];
    for (const a of [await account(), await account()]) {
      const nfse = await t.app.inject({
        method: 'PATCH', url: `/v1/issuers/${a.issuerId}`, headers: a.auth,
        payload: { nfse: { municipal_registration: '12345678', simples_regime: 1, special_regime: 0, dps_series: 1 } },
      });
      expect(nfse.statusCode, nfse.body).toBe(200);
      const { note } = await issueNfseSettled(t, a.auth, serviceInvoice(a.issuerId));
      notes.push(note as { status: string; rejection: unknown; number: string; dps: { id: string } });
    }
    // Each account's first NFS-e: number 1 at Sefin, its own.
    expect(notes.map((n) => [n.status, n.rejection, n.number])).toEqual([['authorized', null, '1'], ['authorized', null, '1']]);
    // The first DPS of each has the same Id (same CNPJ, series 1, number 1), and each account got an NFS-e of its own from it.
    expect(notes[1]!.dps.id).toBe(notes[0]!.dps.id);
    expect(await t.simulator.nfseIssuedFor(notes[0]!.dps.id)).toBe(2);
  }, 90_000);
});

