// What the timing benches of the sign-in paths share (bench:login, bench:forgot): an API process on
// loopback with limits out of the way, and a POST that comes from an address of its own each time
// (X-Forwarded-For, TRUST_PROXY), so the throttles' delays stay out of what is measured.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startRuntime } from '../../src/runtime.js';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
export const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

export interface TimedGateway {
  post(path: string, body: object): Promise<{ status: number; text: string; ms: number }>;
  close(): Promise<void>;
}

/** The gateway's API role (PGlite, or PostgreSQL with DATABASE_URL) listening on 127.0.0.1. */
export async function startTimedGateway(name: string): Promise<TimedGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    MASTER_KEY: randomBytes(32).toString('base64'),
    SIM_LATENCY_MS: '0',
  });
  const runtime = await startRuntime(config, { role: 'api' });
  const app = runtime.app!;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let ip = 0;
  return {
    async post(path, body) {
      ip++;
      const t0 = process.hrtime.bigint();
      const res = await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, text, ms: ms(t0) };
    },
    async close() {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
