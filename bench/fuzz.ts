// OpenAPI fuzz, the long run: every operation of GET /docs/json gets requests generated
// from its own schemas (test/support/fuzz-openapi.ts), sent in process (Fastify inject: nothing
// listens, nothing leaves 127.0.0.1; the simulated SEFAZ is the in-process one on 127.0.0.1).
// Every answer is checked: no 5xx, error envelopes, 2xx bodies against their declared schemas;
// accepted sales with <&"' have their nfeProc checked with xmllint (XSD) and xmlsec1.
//   BENCH_FUZZ_CASES (20000) total cases, spread evenly over the operations
//   BENCH_FUZZ_SECONDS (600) stops earlier when this much time has passed
//   BENCH_FUZZ_SEED (time) fast-check seed; BENCH_FUZZ_XML (20) nfeProc checks at most
// Storage: PGlite, or TEST_DATABASE_URL. Exit code 1 when anything failed.
import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { createTestApp } from '../test/support/app.js';
import { checkEscapedXml, fire, fuzzContext, metacharSale, operationsOf, requestArb, responseValidator } from '../test/support/fuzz-openapi.js';

const TOTAL = Number(process.env.BENCH_FUZZ_CASES ?? 20_000);
const SECONDS = Number(process.env.BENCH_FUZZ_SECONDS ?? 600);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? Date.now() % 1_000_000);
const XML_CHECKS = Number(process.env.BENCH_FUZZ_XML ?? 20);

const started = performance.now();
const t = await createTestApp({ role: 'all' });
const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
const ops = operationsOf(doc);
const validate = responseValidator(doc);
const ctx = await fuzzContext(t);
const perOp = Math.ceil(TOTAL / ops.length);
const deadline = started + SECONDS * 1000;
console.log(`OpenAPI fuzz: ${ops.length} operations, ${perOp} cases each, seed ${SEED}, at most ${SECONDS} s`);

const counts = new Map<string, { cases: number; failures: number; statuses: Map<number, number> }>(ops.map((o) => [o.key, { cases: 0, failures: 0, statuses: new Map() }]));
const failures: string[] = [];
const escapes: Array<{ body: unknown; id: string }> = [];
const BATCH = 50;
let stopped = false;
// round-robin in batches, so a time limit still leaves every operation covered
for (let round = 0; round * BATCH < perOp && !stopped; round++) {
  for (const [i, op] of ops.entries()) {
    if (performance.now() > deadline) {
      stopped = true;
      break;
    }
    const n = Math.min(BATCH, perOp - round * BATCH);
    const reqs = fc.sample(requestArb(ctx, op, { allowOversized: true }), { numRuns: n, seed: SEED + i * 7919 + round * 104_729 });
    const c = counts.get(op.key)!;
    for (const req of reqs) {
      const out = await fire(ctx, op, validate, req);
      c.cases++;
      c.statuses.set(out.status, (c.statuses.get(out.status) ?? 0) + 1);
      if (out.problems.length) {
        c.failures++;
        failures.push(`${req.method} ${req.url.slice(0, 160)} [${req.kind}] -> ${out.status}: ${out.problems.join('; ')} body=${String(req.payload ?? '').slice(0, 200)}`);
      }
      if (op.key === 'POST /v1/nfce' && req.kind === 'metachars' && out.status < 300 && out.id && escapes.length < XML_CHECKS) escapes.push({ body: req.body, id: out.id });
    }
  }
}

// nfeProc checks: the fuzzer's accepted metacharacter sales, topped up with hand-made ones
let xmlChecked = 0;
while (escapes.length < XML_CHECKS) {
  const body = metacharSale(ctx.issuerId, `b${escapes.length}`);
  const res = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: { ...ctx.auth, prefer: 'wait=10' }, payload: body });
  if (res.statusCode >= 300) {
    failures.push(`metachar sale: ${res.statusCode} ${res.body.slice(0, 300)}`);
    break;
  }
  escapes.push({ body, id: res.json().id });
}
for (const e of escapes) {
  const problems = await checkEscapedXml(ctx, e.body, { id: e.id });
  xmlChecked++;
  if (problems.length) failures.push(`nfeProc of ${e.id}: ${problems.join('; ')}`);
}

const seconds = (performance.now() - started) / 1000;
let total = 0;
console.log('\ncases  fail  operation                                            statuses');
for (const [key, c] of counts) {
  total += c.cases;
  const st = [...c.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
  console.log(`${String(c.cases).padStart(5)}  ${String(c.failures).padStart(4)}  ${key.padEnd(52)} ${st}`);
}
console.log(`\n${total} cases over ${ops.length} operations, ${xmlChecked} nfeProc checked (XSD + xmlsec1), ${failures.length} failures, ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)} cases/s)${stopped ? ', stopped by BENCH_FUZZ_SECONDS' : ''}`);
for (const f of failures.slice(0, 50)) console.log('FAIL ' + f);
await t.runtime.close();
process.exit(failures.length ? 1 : 0);
