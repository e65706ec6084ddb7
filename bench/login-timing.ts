// `npm run bench:login` - does sign-in tell an unknown e-mail from a wrong password by its
// time? 50 sign-ins with unknown e-mails and 50 with a known e-mail and a wrong password, interleaved
// at random, over real HTTP against the gateway (PGlite, or PostgreSQL with DATABASE_URL). Each try
// comes from an address of its own (X-Forwarded-For, TRUST_PROXY) and each known e-mail is tried
// once, so the growing delays of the login throttle stay out of the measure. Prints both medians,
// their difference in percent (the bar: under 20%), the argon2id cost of one hash and one
// verification, and RSA-2048 signatures per second on the same machine for scale.
// Environment: LOGIN_TRIES (50), DATABASE_URL (unset: PGlite in memory).
import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../src/infra/identity/password.js';
import { median, ms, startTimedGateway } from './support/timed-gateway.js';

const TRIES = Number(process.env.LOGIN_TRIES ?? 50);

function rsaSignaturesPerSecond(): number {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const data = randomBytes(512);
  const t0 = process.hrtime.bigint();
  let n = 0;
  while (ms(t0) < 1000) {
    createSign('RSA-SHA1').update(data).sign(privateKey);
    n++;
  }
  return n / (ms(t0) / 1000);
}

async function main(): Promise<void> {
  const gateway = await startTimedGateway('login');
  const post = gateway.post;
  try {
    const run = randomBytes(4).toString('hex');
    const known: string[] = [];
    for (let i = 0; i < TRIES; i++) {
      const email = `known.${run}.${i}@example.com`;
      const r = await post('/v1/auth/signup', { email, password: 'the right password 123' });
      if (r.status !== 201) throw new Error(`signup ${r.status} ${r.text}`);
      known.push(email);
    }
    // Warm-up: both paths once, so neither pays for a first compilation.
    await post('/v1/auth/login', { email: `warm.${run}@example.com`, password: 'whatever password' });
    await post('/v1/auth/login', { email: known[0]!, password: 'another wrong password' });
    const plan = [...Array.from({ length: TRIES }, () => 'unknown'), ...Array.from({ length: TRIES }, () => 'wrong')].sort(() => Math.random() - 0.5);
    const times = { unknown: [] as number[], wrong: [] as number[] };
    let u = 0;
    let w = 1;
    for (const kind of plan) {
      const email = kind === 'unknown' ? `nobody.${run}.${u++}@example.com` : known[w++ % known.length]!;
      const r = await post('/v1/auth/login', { email, password: 'a wrong password here' });
      if (r.status !== 401) throw new Error(`login ${kind}: ${r.status} ${r.text}`);
      if (!r.text.includes('Wrong e-mail or password')) throw new Error(`login ${kind}: another answer ${r.text}`);
      times[kind as 'unknown' | 'wrong'].push(r.ms);
    }
    const mu = median(times.unknown);
    const mw = median(times.wrong);
    const hashTimes: number[] = [];
    const verifyTimes: number[] = [];
    let stored = '';
    for (let i = 0; i < 20; i++) {
      let t0 = process.hrtime.bigint();
      stored = await hashPassword(`password number ${i}`);
      hashTimes.push(ms(t0));
      t0 = process.hrtime.bigint();
      await verifyPassword(stored, 'a wrong one');
      verifyTimes.push(ms(t0));
    }
    const rsa = rsaSignaturesPerSecond();
    const storage = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    console.log(`login timing over HTTP (${storage}), ${TRIES} tries each, interleaved:`);
    console.log(`  unknown e-mail: median ${mu.toFixed(1)} ms (min ${Math.min(...times.unknown).toFixed(1)}, max ${Math.max(...times.unknown).toFixed(1)})`);
    console.log(`  wrong password: median ${mw.toFixed(1)} ms (min ${Math.min(...times.wrong).toFixed(1)}, max ${Math.max(...times.wrong).toFixed(1)})`);
    const diff = (Math.abs(mu - mw) / Math.min(mu, mw)) * 100;
    console.log(`  difference of the medians: ${diff.toFixed(1)}% (bar: < 20%) -> ${diff < 20 ? 'PASS' : 'FAIL'}`);
    console.log(`argon2id (m=19456 KiB, t=2, p=1): hash median ${median(hashTimes).toFixed(1)} ms, verify median ${median(verifyTimes).toFixed(1)} ms`);
    console.log(`RSA-2048 SHA-1 signatures per second on this machine: ${rsa.toFixed(0)}; one verification costs ${(median(verifyTimes) * rsa / 1000).toFixed(0)} signatures`);
    if (diff >= 20) process.exitCode = 1;
  } finally {
    await gateway.close();
  }
}

void main();
