// Round trips between the SEFAZ client and the authority simulator over mutual TLS (latency 0):
// authorizations per second on keep-alive connections, and the cost of a fresh TLS handshake.
import { startAuthoritySimulator } from '../src/authority-sim/authority-simulator.js';
import { AgentPool } from '../src/fiscal/sefaz/https-transport.js';
import { createSefazClient } from '../src/fiscal/sefaz/sefaz-client.js';
import { openDb } from '../src/storage/db.js';
import { signedNfce, testIssuer, TEST_CSC, uniqueCnpj } from '../test/support/authority-fixtures.js';

const TOTAL = Number(process.env.BENCH_N ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const HANDSHAKES = 200;

const db = await openDb({ databaseUrl: process.env.DATABASE_URL });
const sim = await startAuthoritySimulator({ db, latencyMs: [0, 0] });
const issuer = testIssuer('plain');
sim.registerClientCertificate(issuer.credentials.cert);
const cnpj = uniqueCnpj();
await sim.registerCsc(cnpj, 2, TEST_CSC.id, TEST_CSC.token);
const target = { uf: 'BA', model: 65 as const, tpAmb: 2 as const };
const base = { credentials: issuer.credentials, ca: [sim.caPem], endpointOverride: { baseUrl: sim.url } };

let t = performance.now();
const notes = Array.from({ length: TOTAL }, (_, i) => signedNfce(issuer, { cnpj, nNF: i + 1 }).xml);
console.log(`built and signed ${TOTAL} NFC-e in ${(performance.now() - t).toFixed(0)} ms (not part of the figures below)`);

const client = createSefazClient({ ...base, maxSockets: CONCURRENCY });
await client.status(target); // warm up: one handshake, schema compilation
let next = 0;
const outcomes = new Map<string, number>();
const latencies: number[] = [];
t = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < TOTAL) {
      const xml = notes[next++]!;
      const out = await client.authorize({ ...target, signedNFeXml: xml, idLote: next });
      latencies.push(out.timing.elapsedMs);
      outcomes.set(out.kind, (outcomes.get(out.kind) ?? 0) + 1);
    }
  }),
);
const seconds = (performance.now() - t) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
console.log(
  `keep-alive: ${TOTAL} authorizations in ${seconds.toFixed(2)} s = ${(TOTAL / seconds).toFixed(0)}/s ` +
    `(concurrency ${CONCURRENCY}; p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms; outcomes ${JSON.stringify(Object.fromEntries(outcomes))}; ` +
    `TLS handshakes so far ${sim.stats().tlsHandshakes})`,
);
client.close();

// Status round trips, sequential: reused connection versus a new mutual-TLS handshake each time.
async function statusLoop(fresh: boolean): Promise<number> {
  const shared = createSefazClient(base);
  const start = performance.now();
  for (let i = 0; i < HANDSHAKES; i++) {
    const c = fresh ? createSefazClient({ ...base, pool: new AgentPool() }) : shared;
    const out = await c.status(target);
    if (out.kind !== 'in-operation') throw new Error(`status failed: ${out.kind}`);
    if (fresh) c.close();
  }
  shared.close();
  return (performance.now() - start) / HANDSHAKES;
}
await statusLoop(false);
const reused = await statusLoop(false);
const handshakesBefore = sim.stats().tlsHandshakes;
const freshMs = await statusLoop(true);
console.log(
  `status round trip: ${reused.toFixed(2)} ms on a kept-alive connection, ${freshMs.toFixed(2)} ms with a new TLS handshake ` +
    `(handshake cost ~${(freshMs - reused).toFixed(2)} ms; ${sim.stats().tlsHandshakes - handshakesBefore} handshakes)`,
);
await sim.close();
await db.close();
