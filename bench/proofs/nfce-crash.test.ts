// Crash test (NFS-e): while 60 sales (CRASH_SALES) are being emitted - every fourth one a
// service invoice (NFS-e, DPS to the simulated Sefin Nacional), the rest NFC-e - the gateway process is
// killed with SIGKILL at random moments (at least 3 times, CRASH_MIN_KILLS) and restarted. The simulated authority lives
// in this test process, so it outlives every kill and remembers what it authorized. Afterwards: every
// accepted sale is final, the authority authorized each one exactly once (an NFS-e: one per DPS Id),
// the numbers of each series have no gap, and billing metered each authorization exactly once.
// Storage of the gateway: the PostgreSQL server when TEST_DATABASE_URL is set (own schema), else
// PGlite files in a temporary DATA_DIR (which must survive SIGKILL too).
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, Cluster, createSchema, dropSchema, enableNfse, listNotes, readyIssuer, sale, sendSale, serviceInvoice, sleep, waitSettled, type Doc, type Gateway } from '../support/cluster.js';
import { startStandaloneSimulator, type StandaloneSimulator } from '../../src/authority-sim/cli.js';
import { getTestDb } from '../../test/support/db.js';

// Each gateway life takes at least 25 sales (below), so 60 give three lives or more, and the kills go on
// while the last sales are authorized. The minutes-long proofs are benches: CRASH_SALES=150
// CRASH_MIN_KILLS=5 runs this one at the size it had in npm test before (BENCHMARKS.md; it runs in `npm run test:proofs` now), and
// `npm run bench:chaos` adds more processes, an authority that fails and a database that restarts.
const SALES = Number(process.env.CRASH_SALES ?? 60);
const MIN_KILLS = Number(process.env.CRASH_MIN_KILLS ?? 3);
const TOKEN = 'crash-admin-token-' + randomBytes(8).toString('hex');
const dir = mkdtempSync(join(tmpdir(), 'fg-crash-'));
const dbUrl = process.env.TEST_DATABASE_URL;
const schema = `crash_${randomBytes(4).toString('hex')}`;

let standalone: StandaloneSimulator;
let cluster: Cluster;
let gateway: Gateway;

beforeAll(async () => {
  if (dbUrl) await createSchema(dbUrl, schema);
  standalone = await startStandaloneSimulator(
    { SIM_ADMIN_TOKEN: TOKEN, SIM_DATA_DIR: join(dir, 'sim'), AUTHORITY_SIM_LATENCY_MS: '5-40', AUTHORITY_SIM_HOST: '127.0.0.1', AUTHORITY_SIM_PORT: '0' },
    await getTestDb(),
  );
  // One gateway process (all roles): PostgreSQL schema of its own, or PGlite files in DATA_DIR.
  cluster = new Cluster({ simUrl: standalone.sim.url, simCaFile: standalone.caFile, simToken: TOKEN, dataDir: dir, ...(dbUrl ? { databaseUrl: dbUrl, schema } : {}) });
  gateway = await cluster.add('all');
}, 120_000);

afterAll(async () => {
  await cluster?.stopAll();
  await standalone?.close();
  if (dbUrl) await dropSchema(dbUrl, schema);
});

describe('SIGKILL during emission', () => {
  it(`${SALES} sales, ${MIN_KILLS}+ kills: every sale final, authorized once, numbers gap-free`, async () => {
    // An issuer of its own (the simulator keeps one numbering per CNPJ), with the contingency autopilot
    // off: on a machine slow enough that a sale waits past its bound between two lives, the autopilot
    // issues it offline under a new number and voids the first (seen once: 42 voided, 114 used), which
    // is right but is not what this test counts; the autopilot has its own tests (nfce-contingency*).
    const base = gateway.base!;
    const startedAt = new Date();
    const issuerId = await readyIssuer(base, { contingency: { mode: 'off' } });
    await enableNfse(base, issuerId);

    // The clients: each sale retried with its Idempotency-Key until the gateway accepts it.
    const accepted = new Map<string, string>(); // key -> note id
    const docOf = (n: number): Doc => (n % 4 === 3 ? 'nfse' : 'nfce');
    let next = 0;
    const client = async () => {
      while (next < SALES) {
        const n = next++;
        const key = `crash-sale-${n}`;
        const body = docOf(n) === 'nfse' ? serviceInvoice(issuerId, { external_ref: key }) : sale(issuerId, { external_ref: key });
        accepted.set(key, await sendSale(() => [base], key, body, undefined, docOf(n)));
      }
    };

    // The killer: random moments while sales go in and while they are being authorized.
    let kills = 0;
    let clientsDone = false;
    const killer = async () => {
      while (kills < MIN_KILLS || !clientsDone) {
        // A restart from the TypeScript sources takes seconds; let each life take at least a few
        // sales before its random end, so the run progresses on a slow or busy machine too.
        const before = accepted.size;
        await sleep(randomInt(200, 1200));
        while (!clientsDone && accepted.size < Math.min(SALES, before + 25)) await sleep(20);
        await cluster.restart(gateway);
        kills++;
        if (clientsDone && kills >= MIN_KILLS) break;
      }
    };
    const killing = killer();
    await Promise.all(Array.from({ length: 6 }, client));
    clientsDone = true;
    await killing;

    // Let the last process finish the work.
    await waitSettled(() => base, issuerId, 120_000);
    await waitSettled(() => base, issuerId, 120_000, 'nfse');
    const notes = await listNotes(base, issuerId);
    const services = await listNotes(base, issuerId, 'nfse');
    expect((await call(base, 'GET', `/v1/nfce?issuer_id=${issuerId}&status=processing&limit=1`)).json.data).toEqual([]);

    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);
    expect(accepted.size).toBe(SALES);
    const nfseSales = Array.from({ length: SALES }, (_, n) => n).filter((n) => docOf(n) === 'nfse').length;
    // One note per sale: no retry made a second one.
    expect(notes).toHaveLength(SALES - nfseSales);
    expect(services).toHaveLength(nfseSales);
    expect(new Set([...notes, ...services].map((n) => n.id))).toEqual(new Set(accepted.values()));
    expect(new Set([...notes, ...services].map((n) => n.external_ref)).size).toBe(SALES);
    // Every sale final, and authorized exactly once by the authority.
    const unsettled = [...notes, ...services].filter((n) => n.status !== 'authorized');
    expect(unsettled.map((n) => `${n.id} ${n.status} ${JSON.stringify(n.rejection)}`)).toEqual([]);
    const counts = await Promise.all(notes.map((n) => standalone.sim.authorizationsFor(n.access_key)));
    expect(counts.filter((c) => c !== 1)).toEqual([]);
    const issued = await Promise.all(services.map((n) => standalone.sim.nfseIssuedFor(n.dps.id)));
    expect(issued.filter((c) => c !== 1)).toEqual([]);
    expect(new Set(services.map((n) => n.access_key)).size).toBe(nfseSales);
    // Gap-free numbering of each series: NFC-e 1..3/4 of the sales, DPS 1..1/4.
    expect(notes.map((n) => n.number).sort((a, b) => a - b)).toEqual(Array.from({ length: SALES - nfseSales }, (_, i) => i + 1));
    expect(services.map((n) => n.dps.number).sort((a, b) => a - b)).toEqual(Array.from({ length: nfseSales }, (_, i) => i + 1));
    // Billing: each authorization metered once, whatever the kills and retries (the usage
    // row is written in the authorization's own statement). Periods are months in Brasília time.
    const periods = new Set([startedAt, new Date()].map((d) => new Date(d.getTime() - 3 * 3600_000).toISOString().slice(0, 7)));
    const metered = { nfce: 0, nfse: 0 };
    for (const period of periods) {
      const usage = await call(base, 'GET', `/v1/billing/usage?period=${period}`);
      expect(usage.status, JSON.stringify(usage.json)).toBe(200);
      const mine = (usage.json.by_issuer as { issuer_id: string; nfce: number; nfse: number }[]).find((u) => u.issuer_id === issuerId);
      metered.nfce += mine?.nfce ?? 0;
      metered.nfse += mine?.nfse ?? 0;
    }
    expect(metered).toEqual({ nfce: notes.length, nfse: services.length });
  }, 420_000);
});
