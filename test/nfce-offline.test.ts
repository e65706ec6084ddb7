// POST /v1/nfce/offline: a point of sale that lost its internet issued NFC-e itself
// in offline contingency (docs/fiscal/offline-contingency.md) and hands them over for transmission once back online.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPreparedNfce } from '../src/documents/nfce/domain/build-nfce.js';
import type { Sale } from '../src/documents/nfce/domain/sale.js';
import { NFCE_EMITTER } from '../src/documents/nfce/services/issue-nfce.js';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { buildAccessKey } from '../src/fiscal/layout/access-key.js';
import { generateCnf } from '../src/fiscal/layout/cnf.js';
import { findIssuerForEmission } from '../src/infra/storage/repositories/issuer-repository.js';
import { getNote } from '../src/documents/notes/storage/note-repository.js';
import { createTestApp, type TestApp } from './support/app.js';
import { freshBranchCnpj, readyIssuer, sale, TEST_CSC } from './support/nfce-flow.js';
import { eventually } from './support/webhook-receiver.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';
import { certFile } from './issuers-harness.js';
import { generateTestPfx } from './support/generate-certificate.js';

let t: TestApp;
let auth: { authorization: string };
let accountId: string;
let issuerId: string;
let issuerCnpj: string;
const signingKey = parsePfx(certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'), 'minhasenha');

beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  ({ auth, accountId } = await t.newAccount());
  issuerId = await readyIssuer(t, auth);
  issuerCnpj = (await findIssuerForEmission(t.db, accountId, issuerId))!.cnpj;
});
afterAll(async () => t.runtime.close());

// Each test takes a series of its own, away from the gateway's series 1 and from the others.
let nextSerie = 600 + randomInt(0, 200);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
/** ISO 8601 in São Paulo's offset (-03:00), whole seconds: what a POS in SP prints as dhEmi. */
const spTime = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000 - 3 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '-03:00');

function offlineParams(o: { serie?: number; number?: number; issuedAt?: Date; cnf?: string } = {}) {
  const number = o.number ?? randomInt(1, 100_000);
  const issuedAt = o.issuedAt ?? minutesAgo(10);
  return {
    serie: o.serie ?? nextSerie++,
    number,
    cnf: o.cnf ?? generateCnf(number),
    issued_at: spTime(issuedAt),
    contingency_at: spTime(new Date(issuedAt.getTime() - 5 * 60_000)),
    reason: 'Sem conexao com a internet no caixa 3',
  };
}

/** The key a point of sale in SP computes from the values it printed (docs/fiscal/access-key.md). */
function expectedKey(p: ReturnType<typeof offlineParams>, cnpj = issuerCnpj): string {
  const [year, month] = p.issued_at.split('-').map(Number) as [number, number];
  return buildAccessKey({ cUF: 35, emittedYear: year, emittedMonth: month, cnpj, mod: 65, serie: p.serie, nNF: p.number, tpEmis: 9, cNF: p.cnf });
}

/** The NFe a point of sale signs and prints itself (the same engine stands in for the POS software). */
async function posXml(p: ReturnType<typeof offlineParams>, o: { tpEmis?: 1 | 9; cnpj?: string; key?: typeof signingKey } = {}): Promise<string> {
  const issuer = (await findIssuerForEmission(t.db, accountId, issuerId))!;
  const prepared = NFCE_EMITTER.prepare(sale(issuerId) as Sale, { ...issuer, cnpj: o.cnpj ?? issuer.cnpj });
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  const tpEmis = o.tpEmis ?? 9;
  return buildPreparedNfce(prepared.prepared, {
    serie: p.serie, nNF: p.number, emittedAt: new Date(p.issued_at), signingKey: o.key ?? signingKey, csc: { id: TEST_CSC.id_csc, token: TEST_CSC.csc }, cNF: p.cnf, tpEmis,
    ...(tpEmis === 9 ? { contingency: { at: new Date(p.contingency_at), reason: p.reason } } : {}),
  }).xml;
}

const post = (payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/v1/nfce/offline', headers: { ...auth, ...headers }, payload });

/** GET /v1/nfce/:id until the note leaves `contingency` (transmitted by the background job). */
async function transmitted(id: string) {
  let note: { status?: string } = {};
  return eventually(async () => {
    note = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: auth })).json();
    return note.status !== 'contingency' ? note : null;
  }, 20_000, () => `note ${id} to leave contingency: ${JSON.stringify(note)}`) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const eventTypes = async (id: string) =>
  (await t.db.query<{ type: string }>('SELECT type FROM events WHERE subject_id = $1 ORDER BY seq', [id])).rows.map((r) => r.type);
const historyTypes = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/events`, headers: auth })).json().data.map((e: { type: string; code: string | null }) => `${e.type}${e.code ? `:${e.code}` : ''}`);

describe('the sale JSON with `offline`: the gateway builds the document with the printed values', () => {
  it('answers 201 in contingency with the printed key, then transmits it once: authorized, XSD-valid, signature verified', async () => {
    const p = offlineParams();
    const res = await post({ ...sale(issuerId), offline: p });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: 'contingency', serie: p.serie, number: p.number, access_key: expectedKey(p) });
    expect(body.contingency).toMatchObject({ reason: p.reason, source: 'client', late: false });
    expect(Date.parse(body.contingency.deadline_at)).toBe(Date.parse(p.issued_at) + 24 * 3600_000);
    const shown = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${body.id}`, headers: auth })).json();
    expect(shown).toMatchObject({ id: body.id, access_key: expectedKey(p), contingency: { source: 'client', late: false, first_attempt: null } });

    const note = await transmitted(body.id);
    expect(note.status).toBe('authorized');
    expect(note.access_key).toBe(expectedKey(p));
    expect(await t.simulator.authorizationsFor(note.access_key)).toBe(1);
    const stored = (await getNote(t.db, accountId, body.id, { full: true }))!;
    expect(stored.tp_emis).toBe(9);
    expect(stored.signed_xml).toContain(`<dhCont>${p.contingency_at}</dhCont>`);
    expect(await xmllint(stored.signed_xml, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(stored.signed_xml)).toBe('');
    expect(await eventTypes(body.id)).toEqual(['nfce.contingency_received', 'nfce.contingency_authorized']);
    expect(await historyTypes(body.id)).toEqual(expect.arrayContaining(['contingency_received:9', 'authorized:100']));
  });

  it("refuses the gateway's own series (its numbers stay gap-free), naming offline.serie; nothing is stored", async () => {
    const p = offlineParams({ serie: 1 });
    const res = await post({ ...sale(issuerId), offline: p });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'offline.serie', message: expect.stringMatching(/series the gateway numbers/) })]));
    const count = await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM notes WHERE access_key = $1', [expectedKey(p)]);
    expect(count.rows[0]!.c).toBe(0);
  });

  it('answers 409 naming the number when the same series and number arrive with another key', async () => {
    const p = offlineParams();
    expect((await post({ ...sale(issuerId), offline: p })).statusCode).toBe(201);
    const other = { ...p, cnf: generateCnf(p.number) === p.cnf ? '48213907' : generateCnf(p.number) };
    const res = await post({ ...sale(issuerId), offline: other });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(new RegExp(`Number ${p.number} of series ${p.serie}`));
    expect(res.json().details[0].field).toBe('number');
  });

  it('names each refused field: contingency after the sale, a key that is not the printed one, a sale field', async () => {
    const p = offlineParams();
    const res = await post({
      ...sale(issuerId, { items: [{ description: 'X', quantity: 1, unit_price: 1, ncm: '123', cfop: '5102', unit: 'UN', cst_icms: '102' }] }),
      offline: { ...p, contingency_at: spTime(minutesAgo(1)) },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain('items[0].ncm');
    const late = await post({ ...sale(issuerId), offline: { ...p, contingency_at: spTime(minutesAgo(1)), access_key: '3'.repeat(44) } });
    expect(late.statusCode, late.body).toBe(422);
    expect(late.json().details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['offline.contingency_at', 'offline.access_key']));
  });

  it('a note past the 24-hour deadline is accepted, flagged late, and the authority answers 150', async () => {
    const p = offlineParams({ issuedAt: minutesAgo(30 * 60) });
    const res = await post({ ...sale(issuerId), offline: p });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().contingency.late).toBe(true);
    const note = await transmitted(res.json().id);
    expect(note.status).toBe('authorized');
    expect(await historyTypes(note.id)).toContain('authorized:150');
  });

  it('a transmission the authority rejects leaves the note rejected with the rejection and event nfce.contingency_failed; corrected, it is sent again', async () => {
    const p = offlineParams();
    const first = sale(issuerId);
    const res = await post({ ...first, offline: p }, { 'x-sandbox-scenario': 'reject:778' });
    expect(res.statusCode, res.body).toBe(201);
    const note = await transmitted(res.json().id);
    expect(note.status).toBe('rejected');
    expect(note.rejection).toMatchObject({ code: '778' });
    expect(await t.simulator.authorizationsFor(expectedKey(p))).toBe(0);
    expect(await eventTypes(note.id)).toEqual(['nfce.contingency_received', 'nfce.contingency_failed']);

    // The same document again changes nothing: the note stays rejected, nothing is transmitted.
    const same = await post({ ...first, offline: p });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ id: note.id, status: 'rejected' });
    // docs/fiscal/offline-contingency.md#sefaz-guidance: corrected, it is sent again under the same number and key, and authorized once.
    const again = await post({ ...first, payment: { method: 'dinheiro', amount: 60 }, offline: p });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: note.id, status: 'contingency', access_key: expectedKey(p), rejection: null });
    expect((await transmitted(note.id)).status).toBe('authorized');
    expect(await t.simulator.authorizationsFor(expectedKey(p))).toBe(1);
    expect(await eventTypes(note.id)).toEqual(['nfce.contingency_received', 'nfce.contingency_failed', 'nfce.contingency_received', 'nfce.contingency_authorized']);
    // Its number was the point of sale's to correct, not the gateway's to void (docs/fiscal/offline-contingency.md#sefaz-guidance).
    const voids = await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM sim_voids WHERE cnpj = $1 AND model = 65 AND serie = $2', [issuerCnpj, p.serie]);
    expect(voids.rows[0]!.c).toBe(0);
    expect(await historyTypes(note.id)).not.toContain('contingency_number_voided');
  });
});

describe('the XML the point of sale signed and printed', () => {
  it('is kept byte for byte, transmitted once; sent again it answers the same note', async () => {
    const p = offlineParams();
    const xml = await posXml(p);
    const res = await post({ xml });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'contingency', issuer_id: issuerId, access_key: expectedKey(p) });
    const note = await transmitted(res.json().id);
    expect(note.status).toBe('authorized');
    expect((await getNote(t.db, accountId, note.id, { full: true }))!.signed_xml).toBe(xml);
    const proc = await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml`, headers: auth });
    expect(proc.body).toContain(xml);

    const again = await post({ xml });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().id).toBe(note.id);
    expect(await t.simulator.authorizationsFor(expectedKey(p))).toBe(1);
    const count = await t.db.query<{ c: number }>('SELECT count(*)::int AS c FROM notes WHERE access_key = $1', [expectedKey(p)]);
    expect(count.rows[0]!.c).toBe(1);
  });

  it('without infNFeSupl: the gateway writes the QR code a correct point of sale printed, and the signature still holds', async () => {
    const p = offlineParams();
    const full = await posXml(p);
    const qr = /<qrCode>([^<]+)<\/qrCode>/.exec(full)![1]!;
    const res = await post({ xml: full.replace(/<infNFeSupl>.*<\/infNFeSupl>/, ''), issuer_id: issuerId });
    expect(res.statusCode, res.body).toBe(201);
    const stored = (await getNote(t.db, accountId, res.json().id, { full: true }))!;
    expect(stored.qrcode_url).toBe(qr.replace(/&amp;/g, '&'));
    expect(stored.signed_xml).toBe(full);
    expect((await transmitted(res.json().id)).status).toBe('authorized');
  });

  it("another account sending the same document gets 409, not the first account's note", async () => {
    const xml = await posXml(offlineParams());
    const first = await post({ xml });
    expect(first.statusCode, first.body).toBe(201);
    const other = await t.newAccount('Another account');
    await readyIssuer(t, other.auth, { cnpj: issuerCnpj });
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce/offline', headers: other.auth, payload: { xml } });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.body).not.toContain(first.json().id);
  });

  it('refuses a tampered signature (422 xml.Signature)', async () => {
    const xml = await posXml(offlineParams());
    const tampered = xml.replace(/<SignatureValue>(.)/, (_m, c: string) => `<SignatureValue>${c === 'A' ? 'B' : 'A'}`);
    const res = await post({ xml: tampered });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0].field).toBe('xml.Signature');
  });

  it('refuses a document signed with a certificate the authority refuses: expired (E02, 291) or a CA one (E01, 290)', async () => {
    const expired = parsePfx(generateTestPfx(issuerCnpj, 'x', 2048, { notBefore: minutesAgo(60 * 24 * 400), notAfter: minutesAgo(60) }), 'x');
    const ca = parsePfx(generateTestPfx(issuerCnpj, 'x', 2048, { ca: true }), 'x');
    for (const [key, rule] of [[expired, 'E02'], [ca, 'E01']] as const) {
      const res = await post({ xml: await posXml(offlineParams(), { key }) });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().details[0]).toMatchObject({ field: 'xml.Signature', rule });
    }
  });

  it('refuses a QR code that is not the document\'s (422 xml.infNFeSupl.qrCode)', async () => {
    const xml = await posXml(offlineParams());
    const wrong = xml.replace(/\|(\d+\.\d{2})\|/, '|999.99|');
    expect(wrong).not.toBe(xml);
    const res = await post({ xml: wrong });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0].field).toBe('xml.infNFeSupl.qrCode');
  });

  it("refuses another company's CNPJ for the issuer named, naming xml.emit.CNPJ", async () => {
    const xml = await posXml(offlineParams(), { cnpj: freshBranchCnpj() });
    const res = await post({ xml, issuer_id: issuerId });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain('xml.emit.CNPJ');
    const unknown = await post({ xml });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().details[0].field).toBe('xml.emit.CNPJ');
  });

  it('refuses tpEmis 1 (a normal emission is POST /v1/nfce), naming xml.ide.tpEmis', async () => {
    const res = await post({ xml: await posXml(offlineParams(), { tpEmis: 1 }) });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['xml.ide.tpEmis', 'xml.ide.dhCont', 'xml.ide.xJust']));
  });

  it('refuses a document that is not an NFe, naming xml', async () => {
    const res = await post({ xml: '<nota>x</nota>' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0].field).toBe('xml');
  });

  it('refuses a body of neither form naming the sale fields', async () => {
    const res = await post({ issuer_id: issuerId, offline: offlineParams() });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['items']));
  });
});

describe('the XML the point of sale left unsigned', () => {
  const unsigned = (xml: string) => xml.replace(/<Signature[\s\S]*<\/Signature>/, '');

  it('is signed with the issuer certificate: the same bytes the point of sale would have signed, verified by xmlsec1, transmitted', async () => {
    const p = offlineParams();
    const signedByPos = await posXml(p);
    const res = await post({ xml: unsigned(signedByPos).replace(/<infNFeSupl>.*<\/infNFeSupl>/, '') });
    expect(res.statusCode, res.body).toBe(201);
    const stored = (await getNote(t.db, accountId, res.json().id, { full: true }))!;
    // RSA PKCS#1 v1.5 is deterministic: the gateway's signature over the same infNFe is the POS's.
    expect(stored.signed_xml).toBe(signedByPos);
    expect(await xmlsecVerify(stored.signed_xml)).toBe('');
    expect((await transmitted(res.json().id)).status).toBe('authorized');
  });

  it('written in another but equivalent form (attribute order, quotes, character references) is canonicalized before signing', async () => {
    const p = offlineParams();
    const signedByPos = await posXml(p);
    const reordered = unsigned(signedByPos)
      .replace(/<infNFe versao="4.00" Id="(NFe\d{44})">/, (_m, id: string) => `<infNFe Id='${id}' versao='4.00' >`)
      .replace('<natOp>VENDA</natOp>', '<natOp>&#86;ENDA</natOp>');
    expect(reordered).not.toContain('<infNFe versao');
    const res = await post({ xml: `<?xml version="1.0" encoding="UTF-8"?>\n${reordered}` });
    expect(res.statusCode, res.body).toBe(201);
    // The printed QR code was kept; the document is the canonical one, signed.
    const stored = (await getNote(t.db, accountId, res.json().id, { full: true }))!;
    expect(stored.signed_xml).toBe(signedByPos);
  });
});
