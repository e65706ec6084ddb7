// `npm run bench:forgot` - issue 28 item 2: does POST /v1/auth/password/forgot, or a sign-up, tell an
// address that has an account from one that has none by its time? Over real HTTP against the gateway
// (PGlite, or PostgreSQL with DATABASE_URL), interleaved at random, each request from an address of
// its own (X-Forwarded-For, TRUST_PROXY): FORGOT_TRIES (200) forgot requests for known and unknown
// addresses, then SIGNUP_TRIES (30) sign-ups with a taken and a new address. Prints the medians and
// their difference. The API process alone (role api): what a caller waits for is the request itself;
// the reset link leaves through a job a worker runs elsewhere.
// Environment: FORGOT_TRIES (200), SIGNUP_TRIES (30), DATABASE_URL (unset: PGlite in memory).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startRuntime } from '../src/runtime.js';

const FORGOT_TRIES = Number(process.env.FORGOT_TRIES ?? 200);
const SIGNUP_TRIES = Number(process.env.SIGNUP_TRIES ?? 30);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const shuffled = <T>(xs: T[]) => xs.map((x) => [Math.random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-forgot-'));
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
  const post = async (path: string, body: object) => {
    ip++;
    const t0 = process.hrtime.bigint();
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, ms: ms(t0) };
  };
  const report = (what: string, a: [string, number[]], b: [string, number[]]) => {
    const [ma, mb] = [median(a[1]), median(b[1])];
    console.log(`${what}:`);
    for (const [name, xs] of [a, b]) console.log(`  ${name}: median ${median(xs).toFixed(2)} ms (min ${Math.min(...xs).toFixed(2)}, max ${Math.max(...xs).toFixed(2)}, n ${xs.length})`);
    console.log(`  difference of the medians: ${((Math.abs(ma - mb) / Math.min(ma, mb)) * 100).toFixed(1)}%`);
  };
  try {
    const run = randomBytes(4).toString('hex');
    const known: string[] = [];
    for (let i = 0; i < Math.max(SIGNUP_TRIES, 20); i++) {
      const email = `known.${run}.${i}@example.com`;
      const r = await post('/v1/auth/signup', { email, password: 'the right password 123' });
      if (r.status !== 201) throw new Error(`signup ${r.status} ${r.text}`);
      known.push(email);
    }
    // Warm-up: both paths a few times, so neither pays for a first compilation.
    for (let i = 0; i < 10; i++) {
      await post('/v1/auth/password/forgot', { email: `warm.${run}.${i}@example.com` });
      await post('/v1/auth/password/forgot', { email: known[i % known.length]! });
    }
    const forgot = { known: [] as number[], unknown: [] as number[] };
    let u = 0;
    let k = 0;
    for (const kind of shuffled([...Array<'known'>(FORGOT_TRIES).fill('known'), ...Array<'unknown'>(FORGOT_TRIES).fill('unknown')])) {
      const email = kind === 'unknown' ? `nobody.${run}.${u++}@example.com` : known[k++ % known.length]!;
      const r = await post('/v1/auth/password/forgot', { email });
      if (r.status !== 202) throw new Error(`forgot ${kind}: ${r.status} ${r.text}`);
      forgot[kind].push(r.ms);
    }
    const signup = { taken: [] as number[], fresh: [] as number[] };
    let t = 0;
    let f = 0;
    for (const kind of shuffled([...Array<'taken'>(SIGNUP_TRIES).fill('taken'), ...Array<'fresh'>(SIGNUP_TRIES).fill('fresh')])) {
      const email = kind === 'fresh' ? `fresh.${run}.${f++}@example.com` : known[t++ % known.length]!;
      const r = await post('/v1/auth/signup', { email, password: 'another password 456' });
      signup[kind].push(r.ms);
      if (kind === 'fresh' && r.status !== 201) throw new Error(`signup fresh: ${r.status} ${r.text}`);
      if (kind === 'taken' && r.status !== 201) console.log(`  (sign-up with a taken address answered ${r.status}: the behaviour before issue 28)`);
    }
    const storage = config.databaseUrl ? 'PostgreSQL' : 'PGlite';
    console.log(`forgot-password and sign-up timing over HTTP (${storage}), interleaved:`);
    report('POST /v1/auth/password/forgot', ['known address  ', forgot.known], ['unknown address', forgot.unknown]);
    report('POST /v1/auth/signup', ['taken address', signup.taken], ['new address  ', signup.fresh]);
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
