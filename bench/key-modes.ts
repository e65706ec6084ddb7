// npm run bench:key-modes - what keeping certificate keys in an HSM or KMS costs, per
// KEY_PROVIDER: envelope (local master key), pkcs11 (SoftHSM2, a token in a temporary folder) and
// aws-kms (the KMS test double of test/support/kms-double.ts on 127.0.0.1, its cryptography in
// SoftHSM2: a real KMS adds a network round trip of a few milliseconds to each uncached call).
//   1. secrets: opening an issuer's three secrets (key, certificate, CSC) straight through the
//      provider and from the bounded cache, sealing one secret; RSA-2048 signatures per second on the
//      same core as the yardstick (figures vary up to 2x between machines, the ratio less).
//   2. emission: bench/emit.ts's whole path (HTTP POST /v1/nfce -> worker -> simulated SEFAZ, PGlite),
//      one fresh gateway process per mode, BENCH_SECONDS (5) at BENCH_RATE (100/s) then flat out;
//      the goal is every mode within 10% of envelope.
import { fork } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { CachedKeyProvider } from '../src/infra/security/cached-key-provider.js';
import { EnvelopeKeyProvider } from '../src/infra/security/envelope-key-provider.js';
import { AwsKmsKeyProvider } from '../src/infra/security/aws-kms-key-provider.js';
import type { KeyProvider } from '../src/infra/security/key-provider.js';
import { initPkcs11MasterKey, Pkcs11KeyProvider } from '../src/infra/security/pkcs11-key-provider.js';
import { SecretBox } from '../src/infra/security/secret-box.js';
import { startKmsDouble } from '../test/support/kms-double.js';
import { createSoftHsmTokens, removeSoftHsmTokens, softHsmSettings } from '../test/support/softhsm.js';

type Mode = 'envelope' | 'pkcs11' | 'aws-kms';
const MODES: Mode[] = ['envelope', 'pkcs11', 'aws-kms'];

/** Operations per second of an async `fn`: best of three rounds of `ms` after a warm-up. */
async function rate(fn: () => Promise<unknown> | unknown, ms = 1000): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  let best = 0;
  for (let round = 0; round < 3; round++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < ms) {
      await fn();
      n++;
    }
    best = Math.max(best, (n * 1000) / (performance.now() - start));
  }
  return best;
}

function emitInItsOwnProcess(env: Record<string, string>): Promise<Record<string, string | number>> {
  const child = fork(new URL('./emit.ts', import.meta.url).pathname, ['--store', 'pglite', '--doc', 'nfce'], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
    env: { ...process.env, BENCH_SECONDS: process.env.BENCH_SECONDS ?? '5', BENCH_WARMUP_SECONDS: '2', BENCH_SIM: 'inline', ...env },
  });
  return new Promise((resolve, reject) => {
    child.once('message', (row: Record<string, string | number>) => resolve(row));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the emission run exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const tokens = createSoftHsmTokens(); // sets SOFTHSM2_CONF for this process and the gateways it forks
  const p11 = softHsmSettings('gateway', 'bench-master');
  initPkcs11MasterKey(p11);
  const kms = await startKmsDouble({ token: softHsmSettings('kmsDouble', 'unused') });
  const kmsKey = kms.createKey();
  const envs: Record<Mode, Record<string, string>> = {
    envelope: { KEY_PROVIDER: 'envelope' },
    pkcs11: { KEY_PROVIDER: 'pkcs11', PKCS11_LIBRARY: p11.library, PKCS11_TOKEN_LABEL: p11.tokenLabel, PKCS11_PIN: p11.pin, PKCS11_KEY_LABEL: p11.keyLabel },
    'aws-kms': {
      KEY_PROVIDER: 'aws-kms', AWS_KMS_KEY_ID: kmsKey.keyId, AWS_REGION: kms.region, AWS_KMS_ENDPOINT: kms.url,
      AWS_ACCESS_KEY_ID: kms.credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: kms.credentials.secretAccessKey,
    },
  };
  try {
    const parts = (process.env.BENCH_PARTS ?? 'secrets,emission').split(',');
    // 1. Secrets, in this process.
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const rsaPerSecond = await rate(() => sign('sha256', randomBytes(32), rsa));
    const providers: Record<Mode, KeyProvider> = {
      envelope: new EnvelopeKeyProvider(randomBytes(32)),
      pkcs11: Pkcs11KeyProvider.open(p11),
      'aws-kms': new AwsKmsKeyProvider({ keyId: kmsKey.keyId, region: kms.region, endpoint: kms.url, credentials: kms.credentials }),
    };
    const pem = Buffer.from(rsa.export({ type: 'pkcs8', format: 'pem' }) as string);
    const secretsRows: Record<string, Record<string, string | number>> = {};
    for (const mode of parts.includes('secrets') ? MODES : []) {
      const direct = new SecretBox(providers[mode]);
      const cached = new CachedKeyProvider(providers[mode], { ttlMs: 300_000 });
      const viaCache = new SecretBox(cached);
      const three = await Promise.all(['certificate_key', 'certificate', 'csc'].map((s) => direct.encrypt(pem, `issuer:iss_bench:${s}`)));
      const open = (box: SecretBox) => () => Promise.all(three.map((b, i) => box.decrypt(b, `issuer:iss_bench:${['certificate_key', 'certificate', 'csc'][i]}`)));
      const openDirect = await rate(open(direct));
      const openCached = await rate(open(viaCache));
      const seal = await rate(() => direct.encrypt(pem, 'issuer:iss_bench:csc'));
      secretsRows[mode] = {
        'open an issuer (3 secrets) through the provider /s': Math.round(openDirect),
        'ms each': +(1000 / openDirect).toFixed(3),
        'open an issuer from the cache /s': Math.round(openCached),
        'seal one secret /s': Math.round(seal),
        'RSA-2048 signatures per opened issuer (direct)': +(rsaPerSecond / openDirect).toFixed(2),
      };
    }
    console.log(`RSA-2048 signatures/s on this core: ${Math.round(rsaPerSecond)}`);
    if (parts.includes('secrets')) console.table(secretsRows);
    if (!parts.includes('emission')) return;
    const kmsBefore = { generate: kms.requests('GenerateDataKey'), decrypt: kms.requests('Decrypt') };
    await providers.pkcs11.close?.();
    await providers['aws-kms'].close?.();

    // 2. Emission, one gateway process per mode, interleaved rounds (BENCH_ROUNDS, 2) so a noisy moment hits all modes.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    const best: Record<Mode, Record<string, string | number>> = {} as never;
    const perRound: Record<Mode, number[]> = { envelope: [], pkcs11: [], 'aws-kms': [] };
    for (let r = 0; r < rounds; r++) {
      // Each round starts with another mode, so no mode always runs last on a warming machine.
      for (const mode of [...MODES.slice(r % MODES.length), ...MODES.slice(0, r % MODES.length)]) {
        console.log(`emission, ${mode}, round ${r + 1} ...`);
        const row = await emitInItsOwnProcess(envs[mode]);
        perRound[mode].push(Number(row['authorized notes/s']));
        const prev = best[mode];
        if (!prev || Number(row['authorized notes/s']) > Number(prev['authorized notes/s'])) best[mode] = row;
      }
    }
    console.log('authorized notes/s per round:', JSON.stringify(perRound));
    const keys = ['POST p50 ms', 'POST p99 ms', 'POST in gateway p50 ms', 'authorized notes/s', 'CPU ms/note flat out gateway', 'outcome'];
    const base = Number(best.envelope['authorized notes/s']);
    console.table(
      Object.fromEntries(
        MODES.map((m) => [m, { ...Object.fromEntries(keys.map((k) => [k, best[m][k]])), 'throughput vs envelope': `${((Number(best[m]['authorized notes/s']) / base) * 100).toFixed(0)}%` }]),
      ),
    );
    console.log(
      `KMS double requests during the emission runs: GenerateDataKey ${kms.requests('GenerateDataKey') - kmsBefore.generate}, Decrypt ${kms.requests('Decrypt') - kmsBefore.decrypt} ` +
        `(${rounds} aws-kms gateways, each uploading one certificate and CSC: 3 of each per gateway, then none per sale)`,
    );
  } finally {
    await kms.close();
    removeSoftHsmTokens(tokens);
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
