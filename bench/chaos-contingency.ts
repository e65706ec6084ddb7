// `npm run bench:chaos-contingency` (or `CHAOS_MODE=contingency npm run bench:chaos`), CHAOS_SALES
// NFC-e sales (default 1000) from 2 API processes, paced over CHAOS_CYCLES down/up cycles, while the
// simulated SEFAZ FLAPS through its admin API (POST /sim/admin/outage, DELETE /sim/admin/outage): down
// CHAOS_FLAP_S seconds (30), up CHAOS_FLAP_S, again and again, the modes taking turns (unavailable = 108,
// unavailable:109, no-answer), and API and worker processes are killed with SIGKILL and restarted.
// The issuers allow contingency ({mode: 'offline', wait_seconds: 2}) and every sale asks `Prefer: wait=2`:
// during an outage the answer is `contingency` (after the bound, or at once while the breaker is open).
// Afterwards (authority up for good) every note must settle: nothing `processing` or `contingency`, every
// first attempt voided or canceled by substitution. Then, against the simulator's own tables: 0 lost,
// 0 duplicated (one valid note per sale, its final key; a first attempt the authority authorized is
// canceled there), every number of every series authorized, canceled or voided, every contingency note
// transmitted within its deadline. Exits 1 on any failure.
// Environment: CHAOS_SALES (1000), CHAOS_FLAP_S (30), CHAOS_CYCLES (3), CHAOS_ISSUERS (2), CHAOS_KILLS (20),
// CHAOS_LOST_ANSWERS (3 authorizations whose answer is lost just before each outage), CHAOS_CONCURRENCY (24),
// CHAOS_TIMEOUT_S (900), CHAOS_DATABASE_URL, CHAOS_REDIS_URL, CHAOS_SIM_LATENCY_MS (5-60).
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { OUTAGE_MODES } from '../src/authority-sim/outage.js';
import { remoteSimulatorLink } from '../src/authority-sim/sim-admin-client.js';
import { isUp, startKiller } from './support/killer.js';
import { call, Cluster, createSchema, dropSchema, freshBranchCnpj, listNotes, readyIssuer, sale, sleep, type Json } from './support/cluster.js';
import { checkLedger, readCounters, readSimulatorBooks } from './support/contingency-ledger.js';

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number`);
  return v;
};

const SALES = num('CHAOS_SALES', 1000);
const FLAP_MS = num('CHAOS_FLAP_S', 30) * 1000;
const CYCLES = Math.max(1, num('CHAOS_CYCLES', 3));
const ISSUERS = Math.max(1, num('CHAOS_ISSUERS', 2));
const KILLS = num('CHAOS_KILLS', 20);
const CONCURRENCY = num('CHAOS_CONCURRENCY', 24);
const TIMEOUT_MS = num('CHAOS_TIMEOUT_S', 900) * 1000;
const LOST_ANSWERS = num('CHAOS_LOST_ANSWERS', 3);
const WAIT_S = 2;
const DB_URL = process.env.CHAOS_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.CHAOS_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function main(): Promise<number> {
  const started = Date.now();
  const deadline = started + TIMEOUT_MS;
  const tag = randomBytes(4).toString('hex');
  const schema = `chaosc_${tag}`;
  const simSchema = `chaosc_sim_${tag}`;
  const dir = mkdtempSync(join(tmpdir(), 'fg-chaosc-'));
  const token = 'chaos-admin-token-' + randomBytes(8).toString('hex');
  let standalone: StandaloneSimulator | undefined;
  let cluster: Cluster | undefined;
  await createSchema(DB_URL, schema);
  try {
    standalone = await startStandaloneSimulator({
      SIM_ADMIN_TOKEN: token,
      SIM_DATA_DIR: join(dir, 'sim'),
      AUTHORITY_SIM_LATENCY_MS: process.env.CHAOS_SIM_LATENCY_MS ?? '5-60',
      AUTHORITY_SIM_HOST: '127.0.0.1',
      AUTHORITY_SIM_PORT: '0',
      SIM_DATABASE_URL: DB_URL,
      SIM_DATABASE_SCHEMA: simSchema,
    });
    const admin = remoteSimulatorLink({ url: standalone.sim.url, caPem: readFileSync(standalone.caFile, 'utf8'), token });
    cluster = new Cluster({ simUrl: standalone.sim.url, simCaFile: standalone.caFile, simToken: token, dataDir: dir, databaseUrl: DB_URL, schema, redisUrl: REDIS_URL });
    const c = cluster;
    const api1 = await c.add('api');
    await Promise.all([c.add('api'), c.add('worker'), c.add('worker')]);
    const apis = c.gateways.filter((g) => g.role === 'api');
    const bases = () => {
      const alive = apis.filter(isUp).map((g) => g.base!);
      return alive.length ? alive : apis.map((g) => g.base!);
    };
    // Issuers that allow offline contingency, switching after 2 s (docs/guides/nfce.md "When SEFAZ is down").
    const cnpjOf = new Map<string, string>();
    for (let k = 0; k < ISSUERS; k++) {
      const cnpj = freshBranchCnpj();
      cnpjOf.set(await readyIssuer(api1.base!, { cnpj, contingency: { mode: 'offline', wait_seconds: WAIT_S } }), cnpj);
    }
    const issuerIds = [...cnpjOf.keys()];
    const spanMs = CYCLES * 2 * FLAP_MS;
    console.log(`chaos (contingency): ${SALES} NFC-e sales over ${spanMs / 1000} s, ${ISSUERS} issuers, authority down ${FLAP_MS / 1000} s / up ${FLAP_MS / 1000} s (${OUTAGE_MODES.join(', ')} in turn), ${KILLS}+ kills; 2 API + 2 worker processes; schema ${schema}`);

    // Clients: sale i starts no earlier than t0 + i/SALES of the span; each retried with its key until accepted.
    const accepted = new Map<string, string>();
    const answers: Record<string, number> = {};
    const stats = { retries: 0, fivexx: 0 };
    let next = 0;
    const t0 = performance.now();
    const client = async () => {
      while (next < SALES && Date.now() < deadline - 240_000) {
        const i = next++;
        const wait = t0 + (i * spanMs) / SALES - performance.now();
        if (wait > 0) await sleep(wait);
        const key = `chaosc-${tag}-${i}`;
        const r = await sendWithin(() => (i % 2 ? bases() : [...bases()].reverse()), key, sale(issuerIds[i % issuerIds.length]!, { external_ref: key }), stats);
        accepted.set(key, r.id);
        answers[r.status] = (answers[r.status] ?? 0) + 1;
        if (accepted.size % 200 === 0) console.log(`  ${accepted.size} accepted (${JSON.stringify(answers)}), ${killer.kills} kills, ${outages} outages, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
    };

    // Flapper: up a third of a period to warm up, then down FLAP / up FLAP, modes in turn. Half a second
    // before each outage a few authorizations are processed by the simulator but their answers lost, and as
    // many consultations are left unanswered (queued scenarios wait out an outage): the gateway cannot learn
    // those authorizations within the bound, issues the sales in contingency, and the first attempts,
    // authorized after all, must be canceled by substitution (docs/guides/nfce.md "The first attempt").
    let outages = 0;
    let lostQueued = 0;
    const outagesByMode: Record<string, number> = {};
    let stopFlapping = false;
    const flapper = async () => {
      await sleep(FLAP_MS / 3 - 500);
      while (!stopFlapping) {
        if (LOST_ANSWERS > 0) {
          await admin.setScenario('lost-response', { times: LOST_ANSWERS, service: 'autorizacao' });
          // ... and the consultation that would find them out gets no answer in time either.
          await admin.setScenario('timeout', { times: LOST_ANSWERS, service: 'consultaProtocolo' });
          lostQueued += LOST_ANSWERS;
        }
        await sleep(500);
        const mode = OUTAGE_MODES[outages % OUTAGE_MODES.length]!;
        // A little longer than the period: the DELETE ends it; the simulator's own end is the fallback.
        await admin.startOutage({ mode, seconds: Math.ceil(FLAP_MS / 1000) + 5 });
        outages++;
        outagesByMode[mode] = (outagesByMode[mode] ?? 0) + 1;
        console.log(`  authority down (${mode}) at ${((Date.now() - started) / 1000).toFixed(0)} s`);
        await sleep(FLAP_MS);
        await admin.endOutage();
        if (stopFlapping) break;
        await sleep(FLAP_MS - 500);
      }
    };

    // Spread over the span: KILLS kills in spanMs, jittered.
    const killGap = Math.max(1000, spanMs / Math.max(1, KILLS));
    const killer = startKiller(c, { target: KILLS, pauseMs: () => randomInt(Math.floor(killGap / 2), Math.floor(killGap * 1.5)), stopAt: deadline - 240_000 });
    const flapping = flapper();
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    const acceptSeconds = (performance.now() - t0) / 1000;
    killer.clientsDone();
    stopFlapping = true;
    await flapping;
    await admin.endOutage();
    await admin.setScenario(null);
    await killer.done;
    console.log(`  clients done: ${accepted.size} accepted in ${acceptSeconds.toFixed(1)} s; ${killer.kills} kills, ${outages} outages; authority up for good; waiting for every note to settle`);

    const settled = await waitAllSettled(bases, issuerIds, deadline - 30_000, started);
    const seconds = (performance.now() - t0) / 1000;
    const notes = (await Promise.all(issuerIds.map((id) => listNotes(bases()[0]!, id)))).flat();
    const books = await readSimulatorBooks(DB_URL, simSchema, [...cnpjOf.values()]);
    const report = checkLedger({ notes, accepted: accepted.values(), cnpjOf, ...books, nextNumber: await readCounters(DB_URL, schema) });
    const refs = new Map<string, number>();
    for (const n of notes) refs.set(n.external_ref, (refs.get(n.external_ref) ?? 0) + 1);
    const twoNotes = [...refs.values()].filter((k) => k > 1).length;
    const stray = notes.length - accepted.size;

    const k = report.counts;
    const line = (ok: boolean, text: string) => console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
    console.log('');
    console.log(`sales sent ${SALES}, accepted ${accepted.size}, authorized ${k.authorized}, rejected ${k.rejected}; POST answers ${JSON.stringify(answers)}`);
    console.log(`     contingency: ${answers.contingency ?? 0} sales answered \`contingency\`; ${k.contingencyNotes} notes issued in contingency: ${k.straightToContingency} straight (breaker open, no first attempt), ${k.afterBound} after the bound (first attempt: ${k.firstAttemptsVoided} voided, ${k.firstAttemptsCanceled} canceled by substitution; ${k.firstAttemptsAuthorizedAtAuthority} had reached the authority)`);
    line(settled && report.lost.length === 0, `lost: ${report.lost.length}${settled ? '' : ' (notes still outstanding at the deadline)'}${detail(report.lost)}`);
    const dup = report.duplicated.length + report.strays.length + twoNotes + Math.max(0, stray);
    line(dup === 0, `duplicated: ${dup} (sales without exactly one valid note at the authority ${report.duplicated.length}, authorized notes no sale names ${report.strays.length}, sales with two notes ${twoNotes}, notes no client accepted ${Math.max(0, stray)})${detail([...report.duplicated, ...report.strays])}`);
    line(report.unexplained.length === 0, `every number explained at the authority (authorized, canceled or voided): ${k.numbersChecked} numbers checked, ${books.simNotes.length} notes and ${books.simVoids.length} voidings held there${detail(report.unexplained)}`);
    line(report.late.length === 0, `every contingency note transmitted within its deadline: ${k.contingencyNotes - report.late.length}/${k.contingencyNotes}${detail(report.late)}`);
    line(killer.kills >= KILLS, `kills: ${killer.kills} (API ${killer.byRole.api}, worker ${killer.byRole.worker})`);
    line(outages >= 2, `outages: ${outages} ${JSON.stringify(outagesByMode)}, ${FLAP_MS / 1000} s each; lost answers queued just before them: ${lostQueued}`);
    console.log(`     client retries ${stats.retries}, 5xx answers ${stats.fivexx}`);
    console.log(`     time: accepted in ${acceptSeconds.toFixed(1)} s, all settled in ${seconds.toFixed(1)} s, ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
    for (const id of [...report.lost, ...report.duplicated].map((s) => s.split(' ')[0]!).slice(0, 3)) await printHistory(bases()[0]!, id);
    const failed = !settled || report.lost.length > 0 || dup > 0 || report.unexplained.length > 0 || report.late.length > 0 || killer.kills < KILLS || outages < 2;
    return failed ? 1 : 0;
  } finally {
    await cluster?.stopAll();
    await standalone?.close();
    await dropSchema(DB_URL, schema).catch(() => undefined);
    await dropSchema(DB_URL, simSchema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

const detail = (xs: string[]) => (xs.length ? `: ${xs.slice(0, 5).join('; ')}${xs.length > 5 ? ` (+${xs.length - 5})` : ''}` : '');

/**
 * Sends one sale with `Prefer: wait=2` and its Idempotency-Key until a gateway accepts it, moving to the
 * next base on connection errors, 409 and 5xx. Answers the note id and the status the answer carried.
 */
async function sendWithin(bases: () => string[], key: string, body: unknown, stats: { retries: number; fivexx: number }): Promise<{ id: string; status: string }> {
  for (let attempt = 0; ; attempt++) {
    const list = bases();
    try {
      const r = await call(list[attempt % list.length]!, 'POST', '/v1/nfce', body, { 'idempotency-key': key, prefer: `wait=${WAIT_S}` });
      if (r.status === 202 || r.status === 201) return { id: r.json.id as string, status: r.json.status as string };
      if (r.status >= 500) stats.fivexx++;
      if (r.status !== 409 && r.status < 500) throw new Error(`sale ${key}: ${r.status} ${JSON.stringify(r.json)}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('sale ')) throw err;
      // connection refused or reset: that process is down; try again
    }
    stats.retries++;
    await sleep(100);
  }
}

/** Until no note of the issuers is processing or in contingency and GET /v1/contingency lists nothing for them. */
async function waitAllSettled(bases: () => string[], issuerIds: string[], until: number, started: number): Promise<boolean> {
  let said = 0;
  for (;;) {
    try {
      let open = 0;
      for (const id of issuerIds) {
        for (const status of ['processing', 'contingency']) {
          const r = await call(bases()[0]!, 'GET', `/v1/nfce?issuer_id=${id}&status=${status}&limit=100`);
          open += r.status === 200 ? r.json.data.length : 1;
        }
      }
      const outstanding = await call(bases()[0]!, 'GET', '/v1/contingency');
      const mine = ((outstanding.json.data ?? []) as Json[]).filter((o) => issuerIds.includes(o.issuer_id));
      const pending = mine.reduce((s, o) => s + o.outstanding + o.first_attempts_pending, 0);
      if (outstanding.status === 200 && open === 0 && pending === 0) return true;
      if (Date.now() - said > 15_000) {
        said = Date.now();
        console.log(`  settling at ${((Date.now() - started) / 1000).toFixed(0)} s: ${open} notes processing or in contingency (first page), ${JSON.stringify(mine.map((o) => ({ outstanding: o.outstanding, first_attempts_pending: o.first_attempts_pending })))}`);
      }
    } catch {
      // an API process restarting: ask again
    }
    if (Date.now() > until) return false;
    await sleep(500);
  }
}

async function printHistory(base: string, id: string): Promise<void> {
  const note = await call(base, 'GET', `/v1/nfce/${id}`);
  const events = await call(base, 'GET', `/v1/nfce/${id}/events`);
  console.log(`\n${id}: ${JSON.stringify({ status: note.json.status, number: note.json.number, access_key: note.json.access_key, contingency: note.json.contingency })}`);
  for (const e of (events.json.data ?? []) as Json[]) console.log(`  ${e.at} ${e.type} ${e.code ?? ''} ${e.message ?? ''}`);
}

// Bounded: whatever happens, stop (the exit hook of bench/support/cluster.ts kills the children).
setTimeout(() => {
  console.error(`bench:chaos-contingency: still running after ${TIMEOUT_MS / 1000 + 60} s; stopping`);
  process.exit(2);
}, TIMEOUT_MS + 60_000).unref();
for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => process.exit(130));
main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
