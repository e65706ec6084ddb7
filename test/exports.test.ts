// A month of an issuer's XMLs as one ZIP for the accountant (docs/guides/accountant.md).
// Notes are issued through the API by two issuers of one account, in this month and (an NF-e, which the
// authority takes up to 30 days late: MOC B09-20) in the minute before it began; the export of this
// month of one issuer must hold exactly that issuer's documents of the month, each
// file checked by tools we did not write: Info-ZIP unzip (CRC of every member), xmllint --schema with
// the official XSD and xmlsec1 --verify.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { TestApp } from './support/app.js';
import { ManualClock } from './support/clock.js';
import { emitSettled, emittingApp, freshBranchCnpj, readyIssuer, sale, SP_ISSUER } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { issueNfseSettled, nfseIssuer, serviceInvoice } from './support/nfse-flow.js';
import { bearer, verifiedUser } from './support/people.js';
import { keyWithScopes } from './support/security-world.js';
import { joinTeam, signInTo, type Member } from './support/team.js';
import { eventually } from './support/webhook-receiver.js';
import { scheduleExportExpiry } from '../src/platform/exports/expire-exports.js';
import { NFSE_ID_ELEMENTS, xmllint, xmlsecVerify } from './support/xml-tools.js';

// The simulated authorities judge dhEmi against the real time (an NFC-e 5 minutes late is 704): the months are the real ones.
const clock = new ManualClock(new Date());
const NOW = clock.now();
const spMonth = (d: Date) => new Date(d.getTime() - 3 * 3600_000).toISOString().slice(0, 7);
const MONTH = spMonth(NOW);
// The minute before this month began in Brasília (UTC-3): 00:00 -03:00 of day 1 is 03:00 UTC.
const BEFORE = new Date(Date.parse(`${MONTH}-01T03:00:00.000Z`) - 60_000);
const PREVIOUS = spMonth(BEFORE);
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
let otherIssuerId: string;
let nfseIssuerId: string;
let accountant: Member;
let accountId: string;
const month: Record<string, { id: string; access_key: string; number: number }> = {};
let previousKey = '';
let otherIssuerKey = '';
let voidedId = '';

beforeAll(async () => {
  ({ t } = await emittingApp({ clock }));
  clock.set(NOW);
  const owner = await verifiedUser(t.app);
  accountId = owner.session.account_id;
  auth = await keyWithScopes(t, accountId, ['*']);
  issuerId = await readyIssuer(t, auth);
  otherIssuerId = await readyIssuer(t, auth);
  nfseIssuerId = await nfseIssuer(t, auth);
  accountant = await joinTeam(t.app, owner, 'accountant');

  // The last minute of the previous month: an NF-e of the same issuer (the export of this month must not hold it).
  clock.set(BEFORE);
  previousKey = (await emitNfeSettled(t, auth, invoice(issuerId))).note.access_key;
  clock.set(NOW);
  accountant = { ...accountant, ...(await signInTo(t.app, accountant.email, accountId)) };

  // This month: an NFC-e, an NFC-e then canceled, an NF-e, a voided range; and a sale of the other issuer.
  month.sold = (await emitSettled(t, auth, sale(issuerId))).note;
  month.canceled = (await emitSettled(t, auth, sale(issuerId))).note;
  const cancel = await t.app.inject({ method: 'POST', url: `/v1/nfce/${month.canceled!.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
  expect(cancel.statusCode, cancel.body).toBeLessThan(300);
  await eventually(async () => (await t.app.inject({ method: 'GET', url: `/v1/nfce/${month.canceled!.id}`, headers: auth })).json().status === 'canceled', 20_000, () => 'cancellation');
  month.nfe = (await emitNfeSettled(t, auth, invoice(issuerId))).note;
  // An event the issuer registered on that NF-e (the reform's 112150): its procEventoNFe belongs in the month too.
  const reformEvent = await t.app.inject({ method: 'POST', url: `/v1/nfe/${month.nfe!.id}/reform-events`, headers: auth, payload: { type: 'delivery_forecast_update', delivery_date: '2026-12-30' } });
  expect(reformEvent.statusCode, reformEvent.body).toBe(202);
  await eventually(async () => (await t.app.inject({ method: 'GET', url: `/v1/nfe/${month.nfe!.id}/reform-events`, headers: auth })).json().data[0]?.status === 'registered', 20_000, () => 'the reform event');
  const voided = await t.app.inject({
    method: 'POST', url: `/v1/issuers/${issuerId}/nfe-inutilization`, headers: auth,
    payload: { serie: 1, numero_inicial: month.nfe!.number + 1, numero_final: month.nfe!.number + 2, justification: 'Numeracao pulada por falha no sistema' },
  });
  expect(voided.statusCode, voided.body).toBe(201);
  voidedId = voided.json().id;
  otherIssuerKey = (await emitSettled(t, auth, sale(otherIssuerId))).note.access_key;
  month.nfse = (await issueNfseSettled(t, auth, serviceInvoice(nfseIssuerId))).note;
  for (const n of Object.values(month)) expect(['authorized', 'canceled']).toContain((n as unknown as { status: string }).status);
}, 240_000);
afterAll(async () => t?.runtime.close());

const asAccountant = () => bearer(accountant);
const exportOf = (who: Record<string, string>, body: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/v1/exports', headers: { ...who, ...headers }, payload: body });
async function ready(id: string, who: Record<string, string> = asAccountant()) {
  return eventually(async () => {
    const e = (await t.app.inject({ method: 'GET', url: `/v1/exports/${id}`, headers: who })).json();
    if (e.status === 'failed') throw new Error(JSON.stringify(e.error));
    return e.status === 'ready' ? e : null;
  }, 60_000, () => `export ${id} ready`);
}
function unzip(zip: Buffer): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'export-'));
  writeFileSync(join(dir, 'x.zip'), zip);
  expect(execFileSync('unzip', ['-t', join(dir, 'x.zip')]).toString()).toContain('No errors detected');
  execFileSync('unzip', ['-q', join(dir, 'x.zip'), '-d', join(dir, 'out')]);
  return { dir: join(dir, 'out'), files: readdirSync(join(dir, 'out'), { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name).slice(join(dir, 'out').length + 1)).sort() };
}

describe('a month of one issuer, as the accountant asks for it', () => {
  it('holds exactly its notes of the month, cancellation and voided range, each valid and signed, and a manifest', async () => {
    const res = await exportOf(asAccountant(), { issuer_id: issuerId, month: MONTH }, { 'idempotency-key': `export-${MONTH}-0001` });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ object: 'export', issuer_id: issuerId, month: MONTH, status: 'queued', kinds: ['nfce', 'nfe', 'nfse', 'inutilization', 'received'] });
    // Idempotency-Key: the same request again is the same export, replayed.
    const again = await exportOf(asAccountant(), { issuer_id: issuerId, month: MONTH }, { 'idempotency-key': `export-${MONTH}-0001` });
    expect(again.json().id).toBe(res.json().id);
    expect(again.headers['idempotency-replay']).toBe('true');

    const done = await ready(res.json().id);
    const s = month.sold!.access_key, c = month.canceled!.access_key, e = month.nfe!.access_key;
    const voidedXml = (await t.app.inject({ method: 'GET', url: `/v1/inutilizations/${voidedId}/xml`, headers: auth })).body;
    const inutId = /Id="(ID\d{41})"/.exec(voidedXml)![1];
    const expected = [
      `inutilizacao/${inutId}-procInutNFe.xml`, 'manifest.csv',
      `nfce/${c}-nfeProc.xml`, `nfce/${c}-procEventoNFe-110111.xml`, `nfce/${s}-nfeProc.xml`, `nfe/${e}-nfeProc.xml`,
      `nfe/${e}-procEventoNFe-112150-1.xml`,
    ].sort();
    // Progress: every file counted, manifest included.
    expect(done.progress).toEqual({ files_done: expected.length, files_total: expected.length });

    const zip = await t.app.inject({ method: 'GET', url: done.download_url, headers: asAccountant() });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.length).toBe(done.size_bytes);
    const { dir, files } = unzip(zip.rawPayload);
    expect(files).toEqual(expected);
    const all = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('');
    expect(all).not.toContain(previousKey);
    expect(all).not.toContain(otherIssuerKey);

    // Each file as the gateway gives it one by one, and valid against the official XSD, its signatures intact.
    const nfceXml = (id: string) => t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/xml`, headers: auth }).then((r) => r.body);
    expect(readFileSync(join(dir, `nfce/${s}-nfeProc.xml`), 'utf8')).toBe(await nfceXml(month.sold!.id));
    expect(readFileSync(join(dir, 'inutilizacao', `${inutId}-procInutNFe.xml`), 'utf8')).toBe(voidedXml);
    const checks: Array<[string, 'PL_009_V4' | 'PL_010_V1.30' | 'PL_010_V1.40', string]> = [
      [`nfce/${s}-nfeProc.xml`, 'PL_010_V1.40', 'procNFe_v4.00.xsd'], [`nfce/${c}-nfeProc.xml`, 'PL_010_V1.40', 'procNFe_v4.00.xsd'],
      [`nfe/${e}-nfeProc.xml`, 'PL_010_V1.40', 'procNFe_v4.00.xsd'], [`nfce/${c}-procEventoNFe-110111.xml`, 'PL_009_V4', 'procEventoCancNFe_v1.00.xsd'],
      [`inutilizacao/${inutId}-procInutNFe.xml`, 'PL_009_V4', 'procInutNFe_v4.00.xsd'], [`nfe/${e}-procEventoNFe-112150-1.xml`, 'PL_010_V1.30', 'procEventoNFe_v1.00.xsd'],
    ];
    for (const [file, pkg, xsd] of checks) {
      const xml = readFileSync(join(dir, file), 'utf8');
      expect(await xmllint(xml, pkg, xsd), file).toBe('');
      expect(await xmlsecVerify(xml), file).toBe('');
    }

    // The manifest: one line per XML, with key, number, status and value (vNF of the sale).
    const manifest = readFileSync(join(dir, 'manifest.csv'), 'utf8').trim().split('\r\n');
    expect(manifest[0]).toBe('file,kind,key,model,serie,number,status,issued_at,value,protocol');
    expect(manifest).toHaveLength(expected.length); // header + every file but the manifest itself
    const sold = manifest.find((l) => l.startsWith(`nfce/${s}-nfeProc.xml,`))!.split(',');
    // sale(): 2 x 18.90 + 0.35 x 16.50 = 37.80 + 5.775 -> 5.78 (rounded to the cent) = 43.58
    expect(sold.slice(1, 9)).toEqual(['nfce', s, '65', '1', String(month.sold!.number), 'authorized', expect.stringMatching(new RegExp(`^${MONTH}-`)), '43.58']);
    expect(manifest.find((l) => l.startsWith(`nfce/${c}-nfeProc.xml,`))).toContain(',canceled,');
    expect(manifest.find((l) => l.startsWith(`nfce/${c}-procEventoNFe-110111.xml,`))).toContain(',cancellation,');
    expect(manifest.find((l) => l.startsWith(`nfe/${e}-procEventoNFe-112150-1.xml,`))).toContain(',event,');
  }, 240_000);

  it('the previous month holds the NF-e of its last minute and nothing of this month', async () => {
    const res = await exportOf(asAccountant(), { issuer_id: issuerId, month: PREVIOUS, kinds: ['nfe', 'nfce'] });
    const done = await ready(res.json().id);
    const { dir, files } = unzip((await t.app.inject({ method: 'GET', url: done.download_url, headers: asAccountant() })).rawPayload);
    expect(files).toEqual(['manifest.csv', `nfe/${previousKey}-nfeProc.xml`]);
    expect(readFileSync(join(dir, 'manifest.csv'), 'utf8')).toContain(`,${PREVIOUS}-`);
  }, 120_000);

  it('an NFS-e issuer\'s month holds its NFS-e, valid against NFSe_v1.01 and signed', async () => {
    const res = await exportOf(asAccountant(), { issuer_id: nfseIssuerId, month: MONTH, kinds: ['nfse'] });
    expect(res.statusCode, res.body).toBe(202);
    const done = await ready(res.json().id);
    const { dir, files } = unzip((await t.app.inject({ method: 'GET', url: done.download_url, headers: asAccountant() })).rawPayload);
    const nfseFile = files.find((f) => f.startsWith('nfse/'))!;
    expect(files).toEqual(['manifest.csv', nfseFile]);
    const xml = readFileSync(join(dir, nfseFile), 'utf8');
    expect(await xmllint(xml, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
    expect(await xmlsecVerify(xml, NFSE_ID_ELEMENTS)).toBe('');
  }, 120_000);

  it('a month with nothing gives a ZIP with the manifest alone; a month to come and a bad month are 422 naming month', async () => {
    const empty = await exportOf(asAccountant(), { issuer_id: issuerId, month: '2025-01' });
    const done = await ready(empty.json().id);
    expect(done.progress).toEqual({ files_done: 1, files_total: 1 });
    const { files } = unzip((await t.app.inject({ method: 'GET', url: done.download_url, headers: asAccountant() })).rawPayload);
    expect(files).toEqual(['manifest.csv']);
    const next = spMonth(new Date(Date.parse(`${MONTH}-01T12:00:00Z`) + 32 * 86_400_000));
    for (const m of [next, '2026-13', 'outubro']) {
      const bad = await exportOf(asAccountant(), { issuer_id: issuerId, month: m });
      expect([400, 422], bad.body).toContain(bad.statusCode);
      expect(bad.body).toContain('month');
    }
  });

  it('lists the exports newest first; a download before ready is 409', async () => {
    const list = await t.app.inject({ method: 'GET', url: `/v1/exports?issuer_id=${issuerId}&limit=100`, headers: asAccountant() });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.length).toBeGreaterThanOrEqual(2);
    expect(list.json().data.every((e: { issuer_id: string }) => e.issuer_id === issuerId)).toBe(true);
    const queued = await t.runtime.ctx.db.query(`INSERT INTO exports (id, account_id, issuer_id, month, kinds, status, created_at, updated_at) VALUES ('exp_notready0000000001', $1, $2, '2026-08', '["nfce"]', 'building', now(), now()) RETURNING id`, [accountId, issuerId]);
    const early = await t.app.inject({ method: 'GET', url: `/v1/exports/${queued.rows[0]!.id as string}/download`, headers: asAccountant() });
    expect(early.statusCode).toBe(409);
  });

  it('a ready ZIP is kept 7 days: then the daily job ends it (chunks gone, status expired, download 409 saying to ask again)', async () => {
    const res = await exportOf(asAccountant(), { issuer_id: issuerId, month: MONTH, kinds: ['inutilization'] });
    const done = await ready(res.json().id);
    expect(Date.parse(done.expires_at) - Date.parse(done.finished_at)).toBe(7 * 86_400_000);
    // The day after it expires, the day's run of exports.expire (queued as the worker starts each day) ends it.
    const later = new Date(Date.parse(done.expires_at) + 60_000);
    await scheduleExportExpiry(t.runtime.ctx.db, later.toISOString().slice(0, 10), clock.now());
    clock.set(later);
    onTestFinished(() => clock.set(NOW));
    t.runtime.ctx.wakeWorker();
    const expired = await eventually(async () => {
      // Read with the account's API key: a week later the accountant's session has ended.
      const e = (await t.app.inject({ method: 'GET', url: `/v1/exports/${done.id}`, headers: auth })).json();
      return e.status === 'expired' ? e : null;
    }, 30_000, () => 'the export to expire');
    expect(expired.download_url).toBeNull();
    const chunks = await t.runtime.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM export_chunks WHERE export_id = $1', [done.id]);
    expect(chunks.rows[0]!.n).toBe(0);
    const download = await t.app.inject({ method: 'GET', url: `/v1/exports/${done.id}/download`, headers: auth });
    expect([download.statusCode, download.json().error]).toEqual([409, 'invalid_state']);
    expect(download.json().message).toMatch(/expired on .*ask for it again with POST \/v1\/exports/);
  });
});

describe('authorization', () => {
  it('another account sees none of it: its issuer is 404, the export and its download are 404', async () => {
    const { auth: stranger } = await t.newAccount('Another account');
    expect((await exportOf(stranger, { issuer_id: issuerId, month: MONTH })).statusCode).toBe(404);
    const mine = (await t.app.inject({ method: 'GET', url: '/v1/exports?limit=1', headers: asAccountant() })).json().data[0];
    expect((await t.app.inject({ method: 'GET', url: `/v1/exports/${mine.id}`, headers: stranger })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v1/exports/${mine.id}/download`, headers: stranger })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/v1/exports', headers: stranger })).json().data).toEqual([]);
  });

  it('a closed account still exports (its XMLs are kept and taken away), and still issues nothing', async () => {
    const { accountId: closing, auth: before } = await t.newAccount('Closing account');
    const issuer = await t.app.inject({ method: 'POST', url: '/v1/issuers', headers: before, payload: { ...SP_ISSUER, cnpj: freshBranchCnpj() } });
    expect(issuer.statusCode, issuer.body).toBe(201);
    await t.db.query('UPDATE accounts SET closed_at = $2 WHERE id = $1', [closing, NOW]);
    // A key this process has not seen (a key checked in the last 5 s keeps its cached scopes: people-and-teams.md).
    const key = await keyWithScopes(t, closing, ['*']);
    const res = await exportOf(key, { issuer_id: issuer.json().id, month: MONTH });
    expect(res.statusCode, res.body).toBe(202);
    expect((await ready(res.json().id, key)).status).toBe('ready');
    expect((await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: key, payload: sale(issuer.json().id) })).json().error).toBe('account_closed');
    // The rows that hold fiscal XMLs refuse deletion (docs/fiscal/retention.md).
    await expect(t.db.query('DELETE FROM notes WHERE id = $1', [month.sold!.id])).rejects.toThrow(/never deleted/);
    await expect(t.db.query('DELETE FROM issuers WHERE id = $1', [issuer.json().id])).rejects.toThrow(/never deleted/);
  });

  it('the accountant reads every document but issues, cancels and changes nothing', async () => {
    const a = asAccountant();
    for (const url of [`/v1/nfce/${month.sold!.id}/xml`, `/v1/nfe/${month.nfe!.id}/xml`, `/v1/nfce/${month.canceled!.id}/xml?event=cancellation`, `/v1/nfse/${month.nfse!.id}/xml`, '/v1/nfe/received', `/v1/inutilizations/${voidedId}/xml`, '/v1/search?q=cafe', `/v1/nfe/${month.nfe!.id}/danfe.pdf`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: a })).statusCode, url).toBe(200);
    }
    const refused = [
      ['POST', '/v1/nfce', sale(issuerId)], ['POST', `/v1/nfce/${month.sold!.id}/cancel`, { reason: 'Cliente desistiu da compra no caixa' }],
      ['PATCH', `/v1/issuers/${issuerId}`, { trade_name: 'x' }], ['POST', '/v1/webhooks', { url: 'https://example.com/h', event_types: ['*'] }],
      ['POST', '/v1/team/invites', { email: 'x@example.com', role: 'viewer' }], ['POST', '/v1/applications', { name: 'k', scopes: ['exports:write'] }],
    ] as const;
    for (const [method, url, payload] of refused) {
      const r = await t.app.inject({ method, url, headers: a, payload });
      expect(r.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});
