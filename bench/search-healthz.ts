// What one account's phrase searches cost the other users of a process on the
// embedded database. PGlite runs every statement on the event loop's thread, so while searches run
// nothing else is answered: this measures /healthz (asked every 10 ms over a connection of its own)
// while one account sends BENCH_SEARCHES (20) phrase searches at once, after BENCH_NOTES (300) sales.
// BENCH_REPEAT (5) rounds; prints each round's answers (status counts), /healthz's worst and median
// answer times, and the worst of all rounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAccount } from '../src/cli/create-account.js';
import { loadConfig } from '../src/config.js';
import { startRuntime } from '../src/runtime.js';
import { sale } from '../test/support/nfce-flow.js';
import { certFile } from '../test/issuers-harness.js';
import { SP_ISSUER, TEST_CSC, freshBranchCnpj } from '../test/support/nfce-flow.js';

const NOTES = Number(process.env.BENCH_NOTES ?? 300);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 20);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const PHRASE = process.env.BENCH_PHRASE ?? '"torrado pao" "cafe frances"';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fg-search-healthz-'));
  const config = loadConfig({ ...process.env, GATEWAY_ENV: 'sandbox', DATA_DIR: dir, DATABASE_URL: '', PORT: '0', SIM_LATENCY_MS: '0-0', RATE_LIMIT_PER_MINUTE: '1000000', SANDBOX_RESET_AT: 'off', NFE_RECEIVED_SYNC: 'false' });
  const rt = await startRuntime(config, { role: 'all', simulatorLatencyMs: [0, 0], workerPollMs: 20 });
  try {
    const app = rt.app!;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const { key } = await createAccount(rt.ctx.db, config, 'Search load');
    const h = { authorization: `Bearer ${key}` };
    const call = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
      const r = await fetch(base + path, { method, headers: { ...h, ...(body ? { 'content-type': 'application/json' } : {}), ...extra }, body: body ? JSON.stringify(body) : undefined });
      return { status: r.status, json: (await r.json().catch(() => ({}))) as Record<string, unknown> };
    };
    const issuer = await call('POST', '/v1/issuers', { ...SP_ISSUER, cnpj: freshBranchCnpj(), contingency: { mode: 'off' } });
    const id = issuer.json.id as string;
    const form = new FormData();
    form.set('password', 'minhasenha');
    form.set('pfx', new Blob([certFile('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx')]), 'cert.pfx');
    await fetch(`${base}/v1/issuers/${id}/certificate`, { method: 'POST', headers: h, body: form });
    await call('POST', `/v1/issuers/${id}/csc`, TEST_CSC);
    for (let i = 0; i < NOTES; i += 10) await Promise.all(Array.from({ length: Math.min(10, NOTES - i) }, () => call('POST', '/v1/nfce', sale(id))));
    // Let the worker finish authorizing (each note's search row is rewritten then).
    for (;;) {
      const r = await call('GET', `/v1/nfce?status=processing&limit=1`);
      if (((r.json.data as unknown[]) ?? []).length === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const rounds: Array<Record<string, unknown>> = [];
    for (let round = 0; round < REPEAT; round++) {
      const health: number[] = [];
      let stop = false;
      const monitor = (async () => {
        while (!stop) {
          const t0 = performance.now();
          await fetch(`${base}/healthz`);
          health.push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      await new Promise((r) => setTimeout(r, 200));
      const t0 = performance.now();
      const answers = await Promise.all(Array.from({ length: SEARCHES }, () => call('GET', `/v1/search?q=${encodeURIComponent(PHRASE)}`)));
      const took = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 200));
      stop = true;
      await monitor;
      const counts: Record<number, number> = {};
      for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
      const sorted = [...health].sort((a, b) => a - b);
      rounds.push({ statuses: counts, searches_ms: Math.round(took), healthz_max_ms: Math.round(sorted.at(-1)!), healthz_p50_ms: Math.round(sorted[Math.floor(sorted.length / 2)]!) });
    }
    console.log(JSON.stringify({ notes: NOTES, searches: SEARCHES, phrase: PHRASE, rounds }));
    console.log(`healthz worst over ${REPEAT} rounds: ${Math.max(...rounds.map((r) => r.healthz_max_ms as number))} ms`);
  } finally {
    await rt.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
