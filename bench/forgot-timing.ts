// `npm run bench:forgot` - does POST /v1/auth/password/forgot, or a sign-up, tell an
// address that has an account from one that has none by its time? Over real HTTP against the gateway
// (PGlite, or PostgreSQL with DATABASE_URL), interleaved at random, each request from an address of
// its own (X-Forwarded-For, TRUST_PROXY): FORGOT_TRIES (200) forgot requests for known and unknown
// addresses, then SIGNUP_TRIES (30) sign-ups with a taken and a new address. Prints the medians and
// their difference. The API process alone (role api): what a caller waits for is the request itself;
// the reset link leaves through a job a worker runs elsewhere.
// Environment: FORGOT_TRIES (200), SIGNUP_TRIES (30), DATABASE_URL (unset: PGlite in memory).
import { randomBytes } from 'node:crypto';
import { median, startTimedGateway } from './support/timed-gateway.js';

const FORGOT_TRIES = Number(process.env.FORGOT_TRIES ?? 200);
const SIGNUP_TRIES = Number(process.env.SIGNUP_TRIES ?? 30);
const shuffled = <T>(xs: T[]) => xs.map((x) => [Math.random(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);

async function main(): Promise<void> {
  const gateway = await startTimedGateway('forgot');
  const post = gateway.post;
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
      if (kind === 'taken' && r.status !== 201) console.log(`  (sign-up with a taken address answered ${r.status}: the behaviour of earlier versions)`);
    }
    const storage = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    console.log(`forgot-password and sign-up timing over HTTP (${storage}), interleaved:`);
    report('POST /v1/auth/password/forgot', ['known address  ', forgot.known], ['unknown address', forgot.unknown]);
    report('POST /v1/auth/signup', ['taken address', signup.taken], ['new address  ', signup.fresh]);
  } finally {
    await gateway.close();
  }
}

void main();
