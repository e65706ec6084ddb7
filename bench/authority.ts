// Round trips between the SEFAZ client and the authority simulator over mutual TLS (latency 0):
// authorizations per second on keep-alive connections, and the cost of a fresh TLS handshake.
// The simulator runs in a child process and the client here, so each has a core of this 2-core
// machine, and the simulator's CPU time per authorization is measured apart from the client's (a
// figure that holds when other work shares the machine; wall-clock rates do not).
// Storage: in-memory PGlite, and PostgreSQL too when DATABASE_URL is set (own schema, dropped
// afterwards). The client certificate is RSA-2048 like real A1 certificates (BENCH_RSA_BITS=4096
// for the size of the test certificate).
//   BENCH_N (3000) notes, BENCH_CONCURRENCY (32) requests in flight, BENCH_HANDSHAKES (200).
import { fork, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startAuthoritySimulator } from '../src/authority-sim/authority-simulator.js';
import { certificateBase64, generateSelfSigned, privateKeyObject } from '../src/authority-sim/server-certificate.js';
import { AgentPool } from '../src/fiscal/sefaz/https-transport.js';
import { createSefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { openDb, type Db } from '../src/infra/storage/db.js';
import { signedNfce, TEST_CSC, uniqueCnpj, type TestIssuer } from '../test/support/authority-fixtures.js';

type ToSim = { op: 'cpu' } | { op: 'stats' } | { op: 'stop' };
interface SimReady {
  url: string;
  caPem: string;
  cnpj: string;
}

const target = { uf: 'BA', model: 65 as const, tpAmb: 2 as const };
const TOTAL = Number(process.env.BENCH_N ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const HANDSHAKES = Number(process.env.BENCH_HANDSHAKES ?? 200);

/** Child process: the simulator on its own database, answering the parent's questions. */
async function simulatorProcess(storage: string, clientCertPem: string): Promise<void> {
  const schema = `bench_authority_${process.pid}`;
  const db: Db = storage === 'postgres' ? await openDb({ databaseUrl: process.env.DATABASE_URL, schema, poolSize: 10 }) : await openDb({});
  const sim = await startAuthoritySimulator({ db, latencyMs: [0, 0] });
  await sim.registerClientCertificate(clientCertPem);
  const cnpj = uniqueCnpj();
  await sim.registerCsc(cnpj, 2, TEST_CSC.id, TEST_CSC.token);
  process.on('message', (m: ToSim) => {
    if (m.op === 'cpu') process.send!(process.cpuUsage());
    else if (m.op === 'stats') process.send!(sim.stats());
    else
      void (async () => {
        await sim.close();
        await db.close();
        if (storage === 'postgres') await dropSchema(schema);
        process.exit(0);
      })();
  });
  process.send!({ url: sim.url, caPem: sim.caPem, cnpj } satisfies SimReady);
}

async function dropSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
}

function ask<T>(child: ChildProcess, m: ToSim): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (x) => resolve(x as T));
    child.send(m);
  });
}

async function runOnce(label: string, storage: 'pglite' | 'postgres', client: { keyPem: string; certPem: string }): Promise<void> {
  // tsx's loader is passed on so the child runs this same TypeScript file.
  const child = fork(fileURLToPath(import.meta.url), ['simulator', storage], {
    // BENCH_PROFILE=<dir>: a V8 CPU profile of the simulator process lands there.
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
    env: { ...process.env, BENCH_CLIENT_CERT: client.certPem },
  });
  const ready = await new Promise<SimReady>((resolve, reject) => {
    child.once('message', (m) => resolve(m as SimReady));
    child.once('exit', (code) => reject(new Error(`simulator process exited (${code})`)));
  });
  try {
    const issuer = { signingKey: { privateKey: privateKeyObject(client.keyPem), certificateBase64: certificateBase64(client.certPem) } } as TestIssuer;
    let t = performance.now();
    const notes = Array.from({ length: TOTAL }, (_, i) => signedNfce(issuer, { cnpj: ready.cnpj, nNF: i + 1 }).xml);
    const buildMs = performance.now() - t;
    const base = { credentials: { key: client.keyPem, cert: client.certPem }, ca: [ready.caPem], endpointOverride: { baseUrl: ready.url } };

    const sefaz = createSefazClient({ ...base, maxSockets: CONCURRENCY });
    const warm = await sefaz.status(target); // schema compilation on the simulator side
    if (warm.kind !== 'in-operation') throw new Error(`simulator not reachable: ${JSON.stringify(warm)}`);
    let next = 0;
    const outcomes: Record<string, number> = {};
    const latencies: number[] = [];
    const cpuBefore = await ask<NodeJS.CpuUsage>(child, { op: 'cpu' });
    const clientCpu = process.cpuUsage();
    t = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < TOTAL) {
          const i = next++;
          const out = await sefaz.authorize({ ...target, signedNFeXml: notes[i]!, idLote: i + 1 });
          latencies.push(out.timing.elapsedMs);
          outcomes[out.kind] = (outcomes[out.kind] ?? 0) + 1;
        }
      }),
    );
    const seconds = (performance.now() - t) / 1000;
    const clientCpuUsed = process.cpuUsage(clientCpu);
    const cpuAfter = await ask<NodeJS.CpuUsage>(child, { op: 'cpu' });
    sefaz.close();
    const simCpuMs = (cpuAfter.user - cpuBefore.user + cpuAfter.system - cpuBefore.system) / 1000;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
    console.log(
      `[${label}] keep-alive: ${TOTAL} authorizations in ${seconds.toFixed(2)} s = ${(TOTAL / seconds).toFixed(0)}/s ` +
        `(concurrency ${CONCURRENCY}; p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms; outcomes ${JSON.stringify(outcomes)})\n` +
        `[${label}]   simulator CPU ${(simCpuMs / TOTAL).toFixed(2)} ms per authorization = at most ${((1000 * TOTAL) / simCpuMs).toFixed(0)}/s on one core ` +
        `(client CPU ${((clientCpuUsed.user + clientCpuUsed.system) / 1000 / TOTAL).toFixed(2)} ms; notes built and signed beforehand in ${buildMs.toFixed(0)} ms)`,
    );

    // Status round trips, sequential: reused connection versus a new mutual-TLS handshake each time.
    const statusLoop = async (fresh: boolean): Promise<number> => {
      const shared = createSefazClient(base);
      const start = performance.now();
      for (let i = 0; i < HANDSHAKES; i++) {
        const c = fresh ? createSefazClient({ ...base, pool: new AgentPool() }) : shared;
        const out = await c.status(target);
        if (out.kind !== 'in-operation') throw new Error(`status failed (${fresh ? 'fresh' : 'reused'} connection): ${JSON.stringify(out)}`);
        if (fresh) c.close();
      }
      shared.close();
      return (performance.now() - start) / HANDSHAKES;
    };
    await statusLoop(false);
    const reusedMs = await statusLoop(false);
    const before = (await ask<{ tlsHandshakes: number }>(child, { op: 'stats' })).tlsHandshakes;
    const freshMs = await statusLoop(true);
    const handshakes = (await ask<{ tlsHandshakes: number }>(child, { op: 'stats' })).tlsHandshakes - before;
    console.log(
      `[${label}] status round trip: ${reusedMs.toFixed(2)} ms on a kept-alive connection, ${freshMs.toFixed(2)} ms with a new ` +
        `mutual-TLS handshake (handshake cost ~${(freshMs - reusedMs).toFixed(2)} ms; ${handshakes} handshakes)`,
    );
  } finally {
    child.send({ op: 'stop' } satisfies ToSim);
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (process.argv[2] === 'simulator') {
  await simulatorProcess(process.argv[3]!, process.env.BENCH_CLIENT_CERT!);
} else {
  const bits = Number(process.env.BENCH_RSA_BITS ?? 2048);
  const client = generateSelfSigned({ commonName: 'bench client', usage: 'client', bits });
  console.log(`client certificate: self-signed RSA-${bits}; simulator latency 0; keep-alive pool of ${CONCURRENCY} connections`);
  await runOnce('PGlite', 'pglite', client);
  if (process.env.DATABASE_URL) await runOnce('PostgreSQL', 'postgres', client);
}
