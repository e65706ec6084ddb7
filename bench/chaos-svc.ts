// `npm run bench:chaos-svc`: CHAOS_NOTES NF-e (model 55, default 400) from CHAOS_ISSUERS SP issuers
// (default 3), CHAOS_CONCURRENCY at a time, from 2 API processes and 2 workers, paced over CHAOS_CYCLES
// down/up cycles while the simulated state's NF-e authorizer FLAPS (POST/DELETE /sim/admin/outage: down
// CHAOS_FLAP_S seconds, up as long; the modes take turns: 108, 109, no answer; the simulated SVC-AN stays
// up). Half a second before each outage CHAOS_LOST_ANSWERS authorizations are registered by the state but
// their answers lost, and as many consultations go unanswered: those notes must be consulted at the state,
// never issued again at SVC. The gateway switches a note to SVC-AN (tpEmis 6, same number) when the state
// answers it 108/109, and new notes while the state's breaker is open (docs/fiscal/svc.md).
// Afterwards (state up for good) every note must be authorized exactly once, checked against the
// simulator's own table (sim_notes, shared by the state and the SVC): by number (cnpj, serie, nNF: one
// authorization) and by access key (the gateway's key is the one authorized; no authorization the gateway
// does not hold), none lost, every number handed out accounted for. Exits 1 on any failure.
// Environment: CHAOS_NOTES (400), CHAOS_FLAP_S (10), CHAOS_CYCLES (5), CHAOS_ISSUERS (3), CHAOS_CONCURRENCY (16),
// CHAOS_LOST_ANSWERS (3), CHAOS_BREAKER_COOLDOWN_MS (3000), CHAOS_TIMEOUT_S (600), CHAOS_DATABASE_URL, CHAOS_REDIS_URL, CHAOS_SIM_LATENCY_MS (5-40).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { OUTAGE_MODES } from '../src/authority-sim/outage.js';
import { remoteSimulatorLink } from '../src/authority-sim/sim-admin-client.js';
import { invoice } from '../test/support/nfe-flow.js';
import { call, Cluster, createSchema, dropSchema, freshBranchCnpj, listNotes, readyIssuer, sendSale, sleep, type Json } from './support/cluster.js';
import { readCounters, readSimulatorBooks } from './support/contingency-ledger.js';

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number`);
  return v;
};

const NOTES = num('CHAOS_NOTES', 400);
const FLAP_MS = num('CHAOS_FLAP_S', 10) * 1000;
const CYCLES = Math.max(1, num('CHAOS_CYCLES', 5));
const ISSUERS = Math.max(1, num('CHAOS_ISSUERS', 3));
const CONCURRENCY = num('CHAOS_CONCURRENCY', 16);
const LOST_ANSWERS = num('CHAOS_LOST_ANSWERS', 3);
// The breaker's cool-down, short so that it closes again in each up phase and new notes go back to the state.
const COOLDOWN_MS = num('CHAOS_BREAKER_COOLDOWN_MS', 3000);
const TIMEOUT_MS = num('CHAOS_TIMEOUT_S', 600) * 1000;
const DB_URL = process.env.CHAOS_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.CHAOS_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function main(): Promise<number> {
  const started = Date.now();
  const deadline = started + TIMEOUT_MS;
  const tag = randomBytes(4).toString('hex');
  const schema = `chaossvc_${tag}`;
  const simSchema = `chaossvc_sim_${tag}`;
  const dir = mkdtempSync(join(tmpdir(), 'fg-chaossvc-'));
  const token = 'chaos-admin-token-' + randomBytes(8).toString('hex');
  let standalone: StandaloneSimulator | undefined;
  let cluster: Cluster | undefined;
  await createSchema(DB_URL, schema);
  try {
    standalone = await startStandaloneSimulator({
      SIM_ADMIN_TOKEN: token,
      SIM_DATA_DIR: join(dir, 'sim'),
      AUTHORITY_SIM_LATENCY_MS: process.env.CHAOS_SIM_LATENCY_MS ?? '5-40',
      AUTHORITY_SIM_HOST: '127.0.0.1',
      AUTHORITY_SIM_PORT: '0',
      SIM_DATABASE_URL: DB_URL,
      SIM_DATABASE_SCHEMA: simSchema,
    });
    const admin = remoteSimulatorLink({ url: standalone.sim.url, caPem: readFileSync(standalone.caFile, 'utf8'), token });
    cluster = new Cluster({ simUrl: standalone.sim.url, simCaFile: standalone.caFile, simToken: token, dataDir: dir, databaseUrl: DB_URL, schema, redisUrl: REDIS_URL,
      env: { AUTHORITY_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS), AUTHORITY_BREAKER_MAX_COOLDOWN_MS: String(2 * COOLDOWN_MS) } });
    const c = cluster;
    const api1 = await c.add('api');
    await Promise.all([c.add('api'), c.add('worker'), c.add('worker')]);
    const bases = () => c.gateways.filter((g) => g.role === 'api').map((g) => g.base!);
    const cnpjOf = new Map<string, string>();
    for (let k = 0; k < ISSUERS; k++) {
      const cnpj = freshBranchCnpj();
      cnpjOf.set(await readyIssuer(api1.base!, { cnpj }), cnpj);
    }
    const issuerIds = [...cnpjOf.keys()];
    const spanMs = CYCLES * 2 * FLAP_MS;
    console.log(`chaos (SVC): ${NOTES} NF-e over ${spanMs / 1000} s, ${ISSUERS} SP issuers, state's authorizer down ${FLAP_MS / 1000} s / up ${FLAP_MS / 1000} s (${OUTAGE_MODES.join(', ')} in turn), ${LOST_ANSWERS} lost answers before each outage, breaker cool-down ${COOLDOWN_MS} ms; 2 API + 2 worker processes; schema ${schema}`);

    const accepted = new Map<string, string>();
    const stats = { retries: 0, fivexx: 0, fivexxSeen: [] as string[] };
    let next = 0;
    const t0 = performance.now();
    const client = async () => {
      while (next < NOTES && Date.now() < deadline - 120_000) {
        const i = next++;
        const wait = t0 + (i * spanMs) / NOTES - performance.now();
        if (wait > 0) await sleep(wait);
        const key = `chaossvc-${tag}-${i}`;
        const id = await sendSale(() => (i % 2 ? bases() : [...bases()].reverse()), key, invoice(issuerIds[i % issuerIds.length]!, { external_ref: key }), stats, 'nfe');
        accepted.set(key, id);
        if (accepted.size % 100 === 0) console.log(`  ${accepted.size} accepted, ${outages} outages, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
    };

    let outages = 0;
    let lostQueued = 0;
    const outagesByMode: Record<string, number> = {};
    let stopFlapping = false;
    const flapper = async () => {
      await sleep(Math.max(0, FLAP_MS / 3 - 500));
      while (!stopFlapping) {
        if (LOST_ANSWERS > 0) {
          // Registered by the state, answer lost; and the consultation that would find them out times out too.
          await admin.setScenario('lost-response', { times: LOST_ANSWERS, service: 'autorizacao' });
          await admin.setScenario('timeout', { times: LOST_ANSWERS, service: 'consultaProtocolo' });
          lostQueued += LOST_ANSWERS;
        }
        await sleep(500);
        const mode = OUTAGE_MODES[outages % OUTAGE_MODES.length]!;
        await admin.startOutage({ mode, seconds: Math.ceil(FLAP_MS / 1000) + 5 });
        outages++;
        outagesByMode[mode] = (outagesByMode[mode] ?? 0) + 1;
        console.log(`  state down (${mode}) at ${((Date.now() - started) / 1000).toFixed(0)} s`);
        await sleep(FLAP_MS);
        await admin.endOutage();
        if (stopFlapping) break;
        await sleep(Math.max(0, FLAP_MS - 500));
      }
    };
    const flapping = flapper();
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    const acceptSeconds = (performance.now() - t0) / 1000;
    stopFlapping = true;
    await flapping;
    await admin.endOutage();
    await admin.setScenario(null);
    console.log(`  clients done: ${accepted.size} accepted in ${acceptSeconds.toFixed(1)} s; ${outages} outages; state up for good; waiting for every note to settle`);

    const settled = await waitAllSettled(bases, issuerIds, deadline - 30_000, started);
    const seconds = (performance.now() - t0) / 1000;
    const notes = (await Promise.all(issuerIds.map((id) => listNotes(bases()[0]!, id, 'nfe')))).flat();
    const { simNotes } = await readSimulatorBooks(DB_URL, simSchema, [...cnpjOf.values()]);
    const counters = await readCounters(DB_URL, schema);

    // By access key: the gateway's authorized key is authorized once at the simulator (state or SVC).
    const byId = new Map(notes.map((n) => [n.id as string, n]));
    const lost: string[] = [];
    const authorizedKeys = new Set<string>();
    let atSvc = 0;
    for (const [key, id] of accepted) {
      const n = byId.get(id);
      if (!n || n.status !== 'authorized') {
        lost.push(`${key} ${id} ${n?.status ?? 'missing'}`);
        continue;
      }
      authorizedKeys.add(n.access_key);
      if (n.access_key[34] !== '1') atSvc++;
      const rows = simNotes.filter((r) => r.access_key === n.access_key && r.status === 'authorized');
      if (rows.length !== 1) lost.push(`${id} key ${n.access_key}: ${rows.length} authorizations at the simulator`);
    }
    // By number: at most one authorization per (cnpj, serie, nNF), state and SVC together, and none the gateway does not hold.
    const perNumber = new Map<string, string[]>();
    for (const r of simNotes) if (r.status !== 'denied' && r.model === 55) perNumber.set(`${r.cnpj}/${r.serie}/${r.nnf}`, [...(perNumber.get(`${r.cnpj}/${r.serie}/${r.nnf}`) ?? []), r.access_key]);
    const twice = [...perNumber].filter(([, keys]) => keys.length > 1).map(([n, keys]) => `${n}: ${keys.join(', ')}`);
    const strays = simNotes.filter((r) => r.model === 55 && !authorizedKeys.has(r.access_key)).map((r) => `${r.access_key} (${r.status}) held by no note`);
    // Every number handed out (1 .. next-1 of each issuer's series 1) is an authorized note.
    const unexplained: string[] = [];
    for (const [issuerId, cnpj] of cnpjOf) {
      const nextNumber = counters.get(`${issuerId}/55/1`) ?? 1;
      for (let nNF = 1; nNF < nextNumber; nNF++) if (!perNumber.has(`${cnpj}/1/${nNF}`)) unexplained.push(`${cnpj} nNF ${nNF}`);
    }
    // The notes whose send to the state went unanswered (lost answer, no-answer outage) before any switch:
    // they must be consulted at the state, never issued again at SVC - unless a later consultation at the
    // state said it does not know the key (217) and the send after it was answered 108/109.
    let inDoubt = 0;
    let inDoubtAtState = 0;
    let inDoubtSwitchedAfter217 = 0;
    const unsafeSwitch: string[] = [];
    for (const n of notes) {
      const events = await call(bases()[0]!, 'GET', `/v1/nfe/${n.id}/events`);
      const lines = ((events.json.data ?? []) as Json[]).map((e) => ({ type: e.type as string, code: (e.code ?? null) as string | null }));
      const doubt = lines.findIndex((e) => e.type === 'authority_in_doubt');
      const svc = lines.findIndex((e) => e.type === 'svc_contingency');
      if (doubt < 0 || (svc >= 0 && svc < doubt)) continue;
      inDoubt++;
      if (svc < 0) inDoubtAtState++;
      else if (lines.slice(doubt, svc).some((e) => e.type === 'consulted' && e.code === '217')) inDoubtSwitchedAfter217++;
      else unsafeSwitch.push(`${n.id} switched to SVC after a send in doubt at the state, no consultation said 217`);
    }
    const refs = new Map<string, number>();
    for (const n of notes) refs.set(n.external_ref, (refs.get(n.external_ref) ?? 0) + 1);
    const twoNotes = [...refs.values()].filter((k) => k > 1).length + Math.max(0, notes.length - accepted.size);

    const line = (ok: boolean, text: string) => console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
    console.log('');
    console.log(`NF-e sent ${NOTES}, accepted ${accepted.size}, authorized ${accepted.size - lost.length} (${atSvc} at SVC-AN with tpEmis 6, ${accepted.size - lost.length - atSvc} at the state)`);
    line(settled && lost.length === 0, `lost: ${lost.length}${settled ? '' : ' (notes still processing at the deadline)'}${detail(lost)}`);
    const dup = twice.length + strays.length + twoNotes;
    line(dup === 0, `duplicated: ${dup} (numbers authorized twice, state and SVC together ${twice.length}; authorizations no note holds ${strays.length}; sales with two notes ${twoNotes})${detail([...twice, ...strays])}`);
    line(unexplained.length === 0, `every number accounted for: ${[...perNumber.keys()].length} numbers authorized at the simulator, ${unexplained.length} handed out and not authorized${detail(unexplained)}`);
    line(unsafeSwitch.length === 0, `notes whose send to the state went unanswered: ${inDoubt}; authorized at the state under their first key ${inDoubtAtState}, at SVC after the state said it did not know the key (217) ${inDoubtSwitchedAfter217}, at SVC otherwise ${unsafeSwitch.length}${detail(unsafeSwitch)}`);
    line(outages >= OUTAGE_MODES.length, `outages: ${outages} ${JSON.stringify(outagesByMode)}, ${FLAP_MS / 1000} s each; lost answers queued just before them: ${lostQueued}`);
    console.log(`     client retries ${stats.retries}, 5xx answers ${stats.fivexx}`);
    for (const seen of stats.fivexxSeen) console.log(`       ${seen}`);
    console.log(`     time: accepted in ${acceptSeconds.toFixed(1)} s, all settled in ${seconds.toFixed(1)} s, ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
    return !settled || lost.length > 0 || dup > 0 || unexplained.length > 0 || unsafeSwitch.length > 0 || outages < OUTAGE_MODES.length ? 1 : 0;
  } finally {
    await cluster?.stopAll();
    await standalone?.close();
    await dropSchema(DB_URL, schema).catch(() => undefined);
    await dropSchema(DB_URL, simSchema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

const detail = (xs: string[]) => (xs.length ? `: ${xs.slice(0, 5).join('; ')}${xs.length > 5 ? ` (+${xs.length - 5})` : ''}` : '');

/** Until no NF-e of the issuers is processing. */
async function waitAllSettled(bases: () => string[], issuerIds: string[], until: number, started: number): Promise<boolean> {
  let said = Date.now();
  for (;;) {
    try {
      let open = 0;
      for (const id of issuerIds) {
        const r = await call(bases()[0]!, 'GET', `/v1/nfe?issuer_id=${id}&status=processing&limit=100`);
        open += r.status === 200 ? (r.json.data as Json[]).length : 1;
      }
      if (open === 0) return true;
      if (Date.now() - said > 15_000) {
        said = Date.now();
        console.log(`  settling at ${((Date.now() - started) / 1000).toFixed(0)} s: ${open} NF-e processing (first pages)`);
      }
    } catch {
      // an API process busy: ask again
    }
    if (Date.now() > until) return false;
    await sleep(500);
  }
}

setTimeout(() => {
  console.error(`bench:chaos-svc: still running after ${TIMEOUT_MS / 1000 + 60} s; stopping`);
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
