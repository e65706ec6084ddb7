// `npm run bench:chaos`: CHAOS_SALES sales (default 2000) through 2 API processes while
// API and worker processes are killed with SIGKILL at random and restarted (CHAOS_KILLS, default 20,
// at least), and the simulated SEFAZ is told through its admin API (POST /sim/admin/scenarios with
// the bearer token) to time out, lose answers, answer 108/109 and HTTP 500. Afterwards: sales
// accepted, authorized, rejected, lost (accepted but without a final note: must be 0), duplicated
// (a sale with two notes, or a note authorized twice: must be 0), kills, time. Exits 1 if lost or
// duplicated is not 0 or a note is left unsettled.
// Environment: CHAOS_SALES (2000), CHAOS_KILLS (20), CHAOS_CONCURRENCY (24), CHAOS_TIMEOUT_S (540),
// CHAOS_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test),
// CHAOS_REDIS_URL (else TEST_REDIS_URL, else redis://127.0.0.1:6379), CHAOS_SIM_LATENCY_MS (5-60).
// CHAOS_MODE=contingency runs bench/chaos-contingency.ts instead (a flapping authority).
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandaloneSimulator, type StandaloneSimulator } from '../src/authority-sim/cli.js';
import { remoteSimulatorLink } from '../src/authority-sim/sim-admin-client.js';
import { gapsPerSeries } from './scale.js';
import { isUp, startKiller } from './support/killer.js';
import { call, Cluster, createSchema, dropSchema, listNotes, readyIssuer, sale, sendSale, sleep, waitSettled } from './support/cluster.js';
import pg from 'pg';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { certFile } from '../test/issuers-harness.js';
import { TEST_CSC } from '../test/support/nfce-flow.js';
import { invoice } from '../test/support/nfe-flow.js';
import { fragments } from '../test/support/security-world.js';

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number`);
  return v;
};

const SALES = num('CHAOS_SALES', 2000);
const KILLS = num('CHAOS_KILLS', 20);
const CONCURRENCY = num('CHAOS_CONCURRENCY', 24);
const TIMEOUT_MS = num('CHAOS_TIMEOUT_S', 540) * 1000;
const DB_URL = process.env.CHAOS_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.CHAOS_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const FAULTS = ['timeout', 'lost-response', 'unavailable:108', 'unavailable:109', 'http-500'] as const;

async function main(): Promise<number> {
  const started = Date.now();
  const deadline = started + TIMEOUT_MS;
  const tag = randomBytes(4).toString('hex');
  const schema = `chaos_${tag}`;
  const simSchema = `chaos_sim_${tag}`;
  const dir = mkdtempSync(join(tmpdir(), 'fg-chaos-'));
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
    // Logs at info level, all kept: at the end they are searched for secrets with the database.
    cluster = new Cluster({
      simUrl: standalone.sim.url, simCaFile: standalone.caFile, simToken: token, dataDir: dir, databaseUrl: DB_URL, schema, redisUrl: REDIS_URL,
      env: { LOG_LEVEL: 'info' }, keepFullLog: true,
    });
    const c = cluster;
    const api1 = await c.add('api');
    await Promise.all([c.add('api'), c.add('worker'), c.add('worker')]);
    const apis = c.gateways.filter((g) => g.role === 'api');
    const bases = () => {
      const alive = apis.filter(isUp).map((g) => g.base!);
      return alive.length ? alive : apis.map((g) => g.base!);
    };
    // The contingency autopilot off (the sandbox's default is offline): a sale that waits past its bound while the
    // simulator times out would be renumbered and its first number voided, right but not what this run counts
    // (gap-free authorized numbers); the run with contingency is CHAOS_MODE=contingency.
    const issuerId = await readyIssuer(api1.base!, { contingency: { mode: 'off' } });
    // A real API key in the traffic too (the sandbox key is public): it must never be logged or stored.
    const app = await call(api1.base!, 'POST', '/v1/applications', { name: 'chaos client', scopes: ['nfce:read'] });
    const appKey = app.json.key as string;
    console.log(`chaos: ${SALES} sales, ${KILLS}+ kills, simulator faults ${FAULTS.join(', ')}; 2 API + 2 worker processes; schema ${schema}`);

    // Clients: each sale retried with its key, alternating APIs, until one accepts it.
    const accepted = new Map<string, string>();
    const stats = { retries: 0, fivexx: 0 };
    let next = 0;
    let stopClients = false;
    const client = async () => {
      while (next < SALES && !stopClients) {
        const i = next++;
        const key = `chaos-${tag}-${i}`;
        // Every fourth sale is a business invoice (NF-e, model 55): both families share the core under test.
        const nfe = i % 4 === 3;
        const body = nfe ? invoice(issuerId, { external_ref: key }) : sale(issuerId, { external_ref: key });
        const id = await sendSale(() => (i % 2 ? bases() : [...bases()].reverse()), key, body, stats, nfe ? 'nfe' : 'nfce');
        accepted.set(key, id);
        if (accepted.size % 250 === 0) console.log(`  ${accepted.size} accepted, ${killer.kills} kills, ${faults} faults queued, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
    };

    // Faults at the simulator, through its admin API.
    let faults = 0;
    const faultsByKind: Record<string, number> = {};
    let stopFaults = false;
    const injector = async () => {
      while (!stopFaults) {
        await sleep(randomInt(500, 2000));
        if (stopFaults) break;
        const scenario = FAULTS[randomInt(0, FAULTS.length)]!;
        const times = randomInt(1, 6);
        try {
          await admin.setScenario(scenario, { times });
          faults += times;
          faultsByKind[scenario] = (faultsByKind[scenario] ?? 0) + times;
        } catch (err) {
          console.error(`scenario ${scenario}: ${(err as Error).message}`);
        }
      }
    };

    const t0 = performance.now();
    const killer = startKiller(c, { target: KILLS, pauseMs: () => randomInt(200, 1500), stopAt: deadline - 60_000 });
    const injecting = injector();
    const salesTimer = setTimeout(() => (stopClients = true), Math.max(30_000, deadline - Date.now() - 120_000));
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
    clearTimeout(salesTimer);
    killer.clientsDone();
    await killer.done;
    stopFaults = true;
    await injecting;
    await admin.setScenario(null);
    const acceptSeconds = (performance.now() - t0) / 1000;
    console.log(`  clients done: ${accepted.size} accepted in ${acceptSeconds.toFixed(1)} s; ${killer.kills} kills; waiting for the notes to settle`);

    let unsettled = false;
    try {
      await waitSettled(() => bases()[0]!, issuerId, Math.max(10_000, deadline - Date.now()));
      await waitSettled(() => bases()[0]!, issuerId, Math.max(10_000, deadline - Date.now()), 'nfe');
    } catch {
      unsettled = true;
    }
    const seconds = (performance.now() - t0) / 1000;
    const notes = [...(await listNotes(bases()[0]!, issuerId)), ...(await listNotes(bases()[0]!, issuerId, 'nfe'))];
    const byId = new Map(notes.map((n) => [n.id as string, n]));
    const counts = new Map<string, number>();
    for (let i = 0; i < notes.length; i += 50) {
      await Promise.all(notes.slice(i, i + 50).map(async (n) => counts.set(n.id, await standalone!.sim.authorizationsFor(n.access_key))));
    }
    const final = new Set(['authorized', 'rejected', 'denied', 'canceled']);
    const lost = [...accepted.values()].filter((id) => !final.has(byId.get(id)?.status)).length;
    const refs = new Map<string, number>();
    for (const n of notes) refs.set(n.external_ref, (refs.get(n.external_ref) ?? 0) + 1);
    const twoNotes = [...refs.values()].filter((k) => k > 1).length;
    const authorizedTwice = [...counts.values()].filter((k) => k > 1).length;
    const authorized = notes.filter((n) => n.status === 'authorized');
    const rejected = notes.filter((n) => n.status === 'rejected' || n.status === 'denied');
    // An authorized note the simulator does not know, or a rejected one it authorized, is a lie.
    const mismatched = notes.filter((n) => (n.status === 'authorized' ? counts.get(n.id) !== 1 : counts.get(n.id) !== 0)).length;
    // Each model numbers its own series (issuer + model + series).
    const gaps = [65, 55].flatMap((model) => gapsPerSeries(authorized.filter((n) => n.model === model)).map((g) => `model ${model} ${g}`));
    const stray = notes.length - accepted.size;
    const simStats = await admin.stats();
    await call(bases()[0]!, 'GET', `/v1/nfce?issuer_id=${issuerId}&limit=5`, undefined, { authorization: `Bearer ${appKey}` });
    const leaks = await secretsFound(cluster.fullLog.join(''), await dumpSchema(DB_URL, schema), appKey);

    const line = (ok: boolean, text: string) => console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
    console.log('');
    console.log(`sales sent ${SALES} (${notes.filter((n) => n.model === 55).length} NF-e), accepted ${accepted.size}, authorized ${authorized.length}, rejected ${rejected.length}${rejected.length ? ` (${[...new Set(rejected.map((n) => n.rejection?.code ?? n.status))].join(', ')})` : ''}`);
    line(lost === 0 && !unsettled, `lost: ${lost}${unsettled ? ' (notes still processing at the deadline)' : ''}`);
    line(twoNotes + authorizedTwice + Math.max(0, stray) === 0, `duplicated: ${twoNotes + authorizedTwice + Math.max(0, stray)} (sales with two notes ${twoNotes}, notes authorized twice ${authorizedTwice}, notes no client accepted ${stray})`);
    line(mismatched === 0, `gateway and simulator agree on every note: ${notes.length - mismatched}/${notes.length}`);
    line(rejected.length > 0 || gaps.length === 0, `numbers gap-free among authorized notes${gaps.length ? ': ' + gaps.join('; ') : ''}`);
    line(killer.kills >= KILLS, `kills: ${killer.kills} (API ${killer.byRole.api}, worker ${killer.byRole.worker})`);
    console.log(`     simulator faults queued: ${faults} ${JSON.stringify(faultsByKind)}; simulator counters ${JSON.stringify(simStats)}`);
    console.log(`     client retries ${stats.retries}, 5xx answers ${stats.fivexx}`);
    line(leaks.length === 0, `secrets in the ${cluster.fullLog.length} captured log chunks and the gateway's database dump: ${leaks.length}${leaks.length ? ` (${leaks.join(', ')})` : ''}`);
    console.log(`     time: accepted in ${acceptSeconds.toFixed(1)} s, all final in ${seconds.toFixed(1)} s (${(accepted.size / seconds).toFixed(1)} sales/s), ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
    const failed = leaks.length > 0 || lost > 0 || unsettled || twoNotes + authorizedTwice + Math.max(0, stray) > 0 || mismatched > 0 || (rejected.length === 0 && gaps.length > 0) || killer.kills < KILLS;
    return failed ? 1 : 0;
  } finally {
    await cluster?.stopAll();
    await standalone?.close();
    await dropSchema(DB_URL, schema).catch(() => undefined);
    await dropSchema(DB_URL, simSchema).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

// CHAOS_MODE=contingency: the run with a flapping authority and offline contingency.
if (process.env.CHAOS_MODE === 'contingency') await import('./chaos-contingency.js');
else {
  // Bounded: whatever happens, stop (the exit hook of bench/support/cluster.ts kills the children).
  setTimeout(() => {
    console.error(`bench:chaos: still running after ${TIMEOUT_MS / 1000 + 60} s; stopping`);
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
}

/** Every row of every table of the gateway's schema, as text. */
async function dumpSchema(url: string, schema: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const tables = await c.query<{ t: string }>(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, [schema]);
    const out: string[] = [];
    for (const { t } of tables.rows) out.push(...(await c.query<{ r: string }>(`SELECT x::text AS r FROM "${schema}"."${t}" x`)).rows.map((x) => x.r));
    return out.join('\n');
  } finally {
    await c.end();
  }
}

/**
 * Which secrets of the run appear in the logs or the database: the issuer's private key
 * (PEM lines and DER fragments; the public certificate, which every signed note carries, excluded),
 * the certificate password, the CSC and the application's API key.
 */
async function secretsFound(logs: string, dump: string, apiKey: string): Promise<string[]> {
  const cert = parsePfx(certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'), 'minhasenha');
  const publicCert = cert.certificateBase64 + cert.certificatePem.replace(/\n/g, '');
  const keyDer = cert.privateKey.export({ type: 'pkcs8', format: 'der' });
  const all: Array<[string, string]> = [
    ['certificate password', 'minhasenha'],
    ['CSC', TEST_CSC.csc],
    ['API key', apiKey],
    ['private key', 'PRIVATE KEY'],
    ...cert.privateKeyPem.split('\n').filter((l) => l.length === 64).map((l): [string, string] => ['private key', l]),
    ...fragments(keyDer).map((f): [string, string] => ['private key', f]),
  ];
  const needles = all.filter(([, n]) => !publicCert.includes(n));
  const found = new Set<string>();
  for (const [name, needle] of needles) {
    if (logs.includes(needle)) found.add(`${name} in logs`);
    if (dump.includes(needle)) found.add(`${name} in database`);
  }
  return [...found];
}
