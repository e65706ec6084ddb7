// The contingency autopilot end to end against the simulated SEFAZ. The authority goes down,
// sales are answered in offline contingency within the caller's bound with a printable DANFE, the
// authority comes back, every contingency note is authorized, every first attempt is settled (canceled
// by substitution when the authority had authorized it, voided otherwise) and every number of the
// series is explained by the authority's own records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from './support/clock.js';
import { createTestApp, type TestApp, TEST_HEALTH_AUTH } from './support/app.js';
import { readyIssuer, sale } from './support/nfce-flow.js';
import { pdfWorkspace } from './support/pdf-tools.js';
import { eventually } from './support/webhook-receiver.js';
import { contingencyReason, switchToContingency } from '../src/documents/nfce/services/switch-to-contingency.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

const clock = new ManualClock(new Date());
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
let cnpj: string;
const pdfs = pdfWorkspace('contingency-');

beforeAll(async () => {
  t = await createTestApp({ role: 'all', clock, env: { AUTHORITY_BREAKER_FAILURES: '3' } });
  // Breakers live in the worker's database: an earlier file's outage must not make these sales go
  // straight to contingency (and this file's must not reach the next file).
  await t.db.query('DELETE FROM authority_breakers');
  await t.ctx.breaker.refresh();
  ({ auth } = await t.newAccount());
  issuerId = await readyIssuer(t, auth, { contingency: { mode: 'offline', wait_seconds: 1 } });
  cnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${issuerId}`, headers: auth })).json().cnpj;
});
afterAll(async () => {
  // The simulator is the worker's: the next file finds it on real time.
  t.simulator.setClock(() => new Date());
  t.simulator.setScenario(null);
  t.simulator.endOutage();
  await t.db.query('DELETE FROM authority_breakers');
  await t.runtime.close();
  pdfs.cleanup();
});

type Note = {
  id: string; status: string; serie: number; number: number; access_key: string | null; qrcode_url?: string; danfe_url?: string;
  contingency: null | { reason: string; deadline_at: string; entered_at: string; transmitted_at: string | null; first_attempt: null | { number: number; access_key: string; outcome: string } };
};

const get = async (id: string): Promise<Note> => (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}`, headers: auth })).json();

async function post(headers: Record<string, string> = {}): Promise<Note> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1', ...headers }, payload: sale(issuerId) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Moves the gateway's clock (retries, backoffs) until `probe` holds; the simulator keeps real time (until the deadline test). */
async function untilSettled<T>(probe: () => Promise<T | null | false | undefined>, what: string): Promise<T> {
  return eventually(async () => {
    const v = await probe();
    if (!v) {
      clock.advance(2_000);
      t.ctx.wakeWorker();
    }
    return v;
  }, 120_000, what);
}

/** The authority's own record of a number of the issuer's NFC-e series 1: authorized, canceled or voided. */
async function authorityFate(n: number): Promise<string> {
  const note = await t.db.query<{ status: string }>('SELECT status FROM sim_notes WHERE cnpj = $1 AND model = 65 AND serie = 1 AND nnf = $2 AND tp_amb = 2', [cnpj, n]);
  if (note.rows[0]) return note.rows[0].status;
  const voided = await t.db.query('SELECT 1 FROM sim_voids WHERE cnpj = $1 AND model = 65 AND serie = 1 AND tp_amb = 2 AND n_ini <= $2 AND n_fin >= $2', [cnpj, n]);
  return voided.rows.length > 0 ? 'voided' : 'unexplained';
}

async function inParallel<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

describe('contingency autopilot', { timeout: 300_000 }, () => {
  const notes: Note[] = [];

  it('a sale whose first attempt the authority authorized but never answered goes to contingency; that attempt is canceled by substitution later', async () => {
    // The authority authorizes the first attempt and its answer is lost, and the consultation that
    // follows finds the service paralysed: the sale is in doubt, its retry waiting on the gateway's
    // clock, which the test holds. The switch is then made as the POST's bound would make it.
    for (let i = 0; i < 3; i++) {
      t.simulator.setScenario('lost-response', { times: 1, service: 'autorizacao' });
      t.simulator.setScenario('unavailable', { times: 1, service: 'consultaProtocolo' });
      const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
      expect(res.statusCode).toBe(202);
      const id = res.json().id as string;
      await eventually(async () => {
        const history = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/events`, headers: auth })).json().data as Array<{ type: string }>;
        return history.some((e) => e.type === 'authority_in_doubt');
      }, 30_000, `the first attempt of ${id} in doubt`);
      const switched = await switchToContingency(t.ctx, id, contingencyReason('sem resposta em 1 s'));
      expect(switched?.status).toBe('contingency');
      const note = await get(id);
      expect(note.status).toBe('contingency');
      expect(note.access_key).toMatch(/^\d{34}9\d{9}$/); // tpEmis 9 in the key (position 35)
      expect(note.contingency?.first_attempt?.outcome).toBe('pending');
      notes.push(note);
      // The simulator's queued faults are shared: the next sale's must not be met by this one's
      // background work (its transmission, the first consultation of its first attempt).
      await eventually(async () => {
        const job = await t.db.query(`SELECT 1 FROM jobs WHERE kind = 'nfce.first-attempt' AND payload->>'noteId' = $1 AND attempts >= 1 AND state <> 'running'`, [id]);
        return job.rows.length > 0 && (await get(id)).status === 'authorized';
      }, 30_000, `the background work of ${id}`);
    }
  });

  it('while the authority is down, 50 sales in a row are answered in contingency with a DANFE whose QR code decodes', async () => {
    // The simulator's outage on demand, for this issuer only: every service answers 108.
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj });
    for (let i = 0; i < 50; i++) notes.push(await post());
    for (const note of notes.slice(3)) {
      expect(note.status).toBe('contingency');
      expect(note.contingency).toMatchObject({ reason: expect.stringMatching(/SEFAZ/), transmitted_at: null });
      // docs/fiscal/offline-contingency.md: 24 hours to transmit.
      expect(Date.parse(note.contingency!.deadline_at) - Date.parse(note.contingency!.entered_at)).toBe(24 * 3600_000);
    }
    // The DANFE of each: printed now, marked as issued in contingency, its QR code the offline form.
    await inParallel(notes, 4, async (note) => {
      const pdf = await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/danfe.pdf`, headers: auth });
      expect(pdf.statusCode).toBe(200);
      const [qr] = await pdfs.symbols(pdf.rawPayload, 'qrcode', 200);
      expect(qr).toBe(note.qrcode_url);
      // The offline form carries the day of emission and the total (NT 2015.002 v2: key|2|tpAmb|day|vNF|digVal|idCSC|hash;
      // NT 2025.001 v3: key|3|tpAmb|day|vNF|...|signature); the online form has neither.
      expect(qr).toMatch(new RegExp(`p=${note.access_key}\\|[23]\\|2\\|\\d{2}\\|\\d+\\.\\d{2}\\|`));
    });
    // docs/fiscal/offline-contingency.md: until it is authorized the contingency DANFE prints two copies, one page each.
    const pending = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${notes[5]!.id}/danfe.pdf`, headers: auth })).rawPayload;
    expect((await pdfs.pdfInfo(pending)).pages).toBe(2);
    const text = await pdfs.pdfText(pending);
    expect(text).toMatch(/CONTING[ÊE]NCIA/);
    expect(text).toContain('Pendente de autorização');
    expect(text).toContain('Via consumidor');
    expect(text).toContain('Via estabelecimento');
    expect(await pdfs.symbols(pending, 'qrcode', 200, 2)).toEqual([notes[5]!.qrcode_url]);
    // The contingency XML is the signed NFe itself, valid against the XSD and its signature.
    const xml = await t.app.inject({ method: 'GET', url: `/v1/nfce/${notes[5]!.id}/xml`, headers: auth });
    expect(xml.body).toContain('<tpEmis>9</tpEmis>');
    expect(await xmllint(xml.body, 'PL_009_V4', 'nfe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml.body)).toBe('');
    // Outstanding contingency notes are listed for the issuer (the first three went through meanwhile).
    const list = await t.app.inject({ method: 'GET', url: `/v1/nfce?status=contingency&issuer_id=${issuerId}&limit=100`, headers: auth });
    expect(list.json().data.map((n: Note) => n.id).sort()).toEqual(notes.slice(3).map((n) => n.id).sort());
    // The first sales of the outage waited for the bound and left a first attempt to settle; once the
    // authorization endpoint failed a few times in a row its breaker opened and the next sales went
    // straight to contingency, with no first attempt.
    const withFirst = notes.slice(3).filter((n) => n.contingency!.first_attempt !== null).length;
    expect(withFirst).toBeGreaterThan(0);
    expect(withFirst).toBeLessThan(50);
    expect(notes.slice(3 + withFirst).every((n) => n.contingency!.first_attempt === null)).toBe(true);
    const outstanding = (await t.app.inject({ method: 'GET', url: '/v1/contingency', headers: auth })).json().data;
    expect(outstanding).toEqual([
      expect.objectContaining({ issuer_id: issuerId, outstanding: 50, first_attempts_pending: 3 + withFirst, next_deadline_at: notes[3]!.contingency!.deadline_at }),
    ]);
    const deep = (await t.app.inject({ method: 'GET', url: '/healthz/deep', headers: TEST_HEALTH_AUTH })).json();
    expect(deep.authority).toEqual(expect.arrayContaining([expect.objectContaining({ service: expect.stringMatching(/Autorizacao/i), state: 'open' })]));
  });

  it('when the authority is back, every contingency note is authorized and every first attempt settled', async () => {
    t.simulator.endOutage(cnpj);
    const final = await untilSettled(async () => {
      const now = await Promise.all(notes.map((n) => get(n.id)));
      const done = now.every((n) => n.status === 'authorized' && (n.contingency?.first_attempt ?? null)?.outcome !== 'pending');
      return done && now;
    }, 'every contingency note authorized and first attempts settled');
    for (const note of final) {
      expect(note.contingency?.transmitted_at).not.toBeNull();
      expect(Date.parse(note.contingency!.transmitted_at!)).toBeLessThanOrEqual(Date.parse(note.contingency!.deadline_at));
      expect(await t.simulator.authorizationsFor(note.access_key!)).toBe(1);
    }
    // The three first attempts the authority had authorized were canceled by substitution (110112);
    // the others never reached its books and were voided.
    const outcomes = final.map((n) => n.contingency!.first_attempt?.outcome ?? 'none');
    expect(outcomes.slice(0, 3)).toEqual(['canceled_by_substitution', 'canceled_by_substitution', 'canceled_by_substitution']);
    expect(new Set(outcomes.slice(3))).toEqual(new Set(['voided', 'none']));

    // Every number of the series, as the authority records it: no gap left unexplained.
    const top = Math.max(...final.flatMap((n) => [n.number, n.contingency!.first_attempt?.number ?? 0]));
    const fates = new Map<number, string>();
    for (let n = 1; n <= top; n++) fates.set(n, await authorityFate(n));
    const listing = [...fates].map(([n, fate]) => `${n}:${fate}`).join(' ');
    console.info(`NFC-e series 1 of ${cnpj}: ${listing}`);
    expect(listing).not.toContain('unexplained');
    for (const note of final) {
      expect(fates.get(note.number)).toBe('authorized');
      const first = note.contingency!.first_attempt;
      if (first) expect(fates.get(first.number)).toBe(first.outcome === 'voided' ? 'voided' : 'canceled');
    }
    const history = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${final[0]!.id}/events`, headers: auth })).json().data.map((e: { type: string }) => e.type);
    expect(history).toEqual(expect.arrayContaining(['contingency_issued', 'authorized', 'first_attempt_canceled']));
    expect((await t.app.inject({ method: 'GET', url: '/v1/contingency', headers: auth })).json().data).toEqual([]);
    // Once authorized, one copy, still marked as issued in contingency, with the protocol.
    const authorizedPdf = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${final[5]!.id}/danfe.pdf`, headers: auth })).rawPayload;
    expect((await pdfs.pdfInfo(authorizedPdf)).pages).toBe(1);
    const authorizedText = await pdfs.pdfText(authorizedPdf);
    expect(authorizedText).toMatch(/CONTING[ÊE]NCIA/);
    expect(authorizedText).toContain('Protocolo de autorização');
    expect(authorizedText).not.toContain('Pendente de autorização');
  });

  it('a contingency note still not transmitted two hours before its deadline raises nfce.contingency_deadline, once', async () => {
    const other = await readyIssuer(t, auth, { contingency: { mode: 'offline', wait_seconds: 1 } });
    const otherCnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${other}`, headers: auth })).json().cnpj;
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj: otherCnpj });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1' }, payload: sale(other) });
      const note: Note = res.json();
      expect(note.status).toBe('contingency');
      clock.advance(22 * 3600_000 + 60_000);
      t.ctx.wakeWorker();
      const events = await eventually(async () => {
        const r = await t.db.query<{ type: string }>(`SELECT type FROM events WHERE subject_id = $1 AND type LIKE 'nfce.contingency%' ORDER BY seq`, [note.id]);
        return r.rows.some((e) => e.type === 'nfce.contingency_deadline') && r.rows.map((e) => e.type);
      }, 60_000, 'nfce.contingency_deadline');
      expect(events).toEqual(['nfce.contingency_issued', 'nfce.contingency_deadline']);
      // A person is told too (the bell of the dashboard).
      const bell = await eventually(async () => {
        const list = (await t.app.inject({ method: 'GET', url: '/v1/notifications', headers: auth })).json().data as Array<{ type: string; title: string }>;
        return list.find((n) => n.type === 'nfce.contingency_deadline');
      }, 30_000, 'the deadline notification');
      expect(bell.title).toMatch(/near its deadline/);
      // Later failures of the same note do not warn again.
      clock.advance(120_000);
      t.ctx.wakeWorker();
      await eventually(async () => {
        const r = await t.db.query<{ attempts: number }>(`SELECT attempts FROM jobs WHERE kind = 'nfce.authorize' AND payload->>'noteId' = $1 AND payload ? 'contingency'`, [note.id]);
        return (r.rows[0]?.attempts ?? 0) >= 3;
      }, 30_000, 'another transmission attempt');
      const again = await t.db.query(`SELECT 1 FROM events WHERE subject_id = $1 AND type = 'nfce.contingency_deadline'`, [note.id]);
      expect(again.rows).toHaveLength(1);
    } finally {
      t.simulator.endOutage(otherCnpj);
      // The gateway's clock is now a day ahead of real time: the authority would refuse every dhEmi
      // after its reception (MOC B09-10, 703), so from here on it keeps the gateway's time.
      t.simulator.setClock(() => clock.now());
    }
  });

  it('a contingency note the authority refuses is rejected with the reason, and both of its numbers are voided', async () => {
    const other = await readyIssuer(t, auth, { contingency: { mode: 'offline', wait_seconds: 1 } });
    const otherCnpj = (await t.app.inject({ method: 'GET', url: `/v1/issuers/${other}`, headers: auth })).json().cnpj;
    t.simulator.startOutage({ mode: 'unavailable', seconds: 3600, cnpj: otherCnpj });
    const note: Note = (await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...auth, prefer: 'wait=1' }, payload: sale(other) })).json();
    expect(note.status).toBe('contingency');
    // Back, but the authority refuses the contingency document (778: an NCM it does not know).
    t.simulator.setScenario('reject:778', { times: 1, service: 'autorizacao' });
    t.simulator.endOutage(otherCnpj);
    const failed = await untilSettled(async () => {
      const n = await get(note.id);
      const history = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/events`, headers: auth })).json().data.map((e: { type: string }) => e.type);
      return n.status === 'rejected' && n.contingency?.first_attempt?.outcome === 'voided' && history.includes('contingency_number_voided') && n;
    }, 'the refused contingency note and both numbers voided');
    expect((failed as Note & { rejection: { code: string } }).rejection.code).toBe('778');
    const voided = await t.db.query<{ n_ini: string }>('SELECT n_ini FROM sim_voids WHERE cnpj = $1 AND model = 65 AND serie = 1 ORDER BY n_ini', [otherCnpj]);
    expect(voided.rows.map((r) => Number(r.n_ini))).toEqual([note.contingency!.first_attempt!.number, note.number].sort((a, b) => a - b));
    // In the order written (seq): two events of one step can share a created_at.
    const events = await t.db.query<{ type: string }>(`SELECT type FROM events WHERE subject_id = $1 ORDER BY seq`, [note.id]);
    expect(events.rows.map((e) => e.type)).toEqual(['nfce.contingency_issued', 'nfce.contingency_failed']);
  });

  it('when the contingency document is refused but the first attempt was authorized after all, that attempt stands as the sale', async () => {
    t.simulator.setScenario('lost-response', { times: 1, service: 'autorizacao' });
    t.simulator.setScenario('unavailable', { times: 1, service: 'consultaProtocolo' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
    const id = res.json().id as string;
    await eventually(async () => {
      const history = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/events`, headers: auth })).json().data as Array<{ type: string }>;
      return history.some((e) => e.type === 'authority_in_doubt');
    }, 30_000, `the first attempt of ${id} in doubt`);
    t.simulator.setScenario('reject:778', { times: 1, service: 'autorizacao' });
    const switched = await switchToContingency(t.ctx, id, contingencyReason('sem resposta em 1 s'));
    const firstKey = switched!.contingency!.first_attempt!.access_key;
    const final = await untilSettled(async () => {
      const n = await get(id);
      const history = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${id}/events`, headers: auth })).json().data.map((e: { type: string }) => e.type);
      return n.contingency?.first_attempt?.outcome === 'authorized_kept' && history.includes('contingency_number_voided') && n;
    }, 'the first attempt kept and the refused contingency number voided');
    expect(final.status).toBe('rejected');
    // The authority holds exactly one valid NFC-e for the sale: the first attempt, not canceled.
    expect(await authorityFate(final.contingency!.first_attempt!.number)).toBe('authorized');
    expect(await t.simulator.authorizationsFor(firstKey)).toBe(1);
    expect(await authorityFate(final.number)).toBe('voided');
  });
});
