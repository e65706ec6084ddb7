// SoftHSM2 tokens for the tests. SoftHSM reads SOFTHSM2_CONF once, at C_Initialize, and vitest runs
// every file of a worker in one process (isolate: false): so one config and one token folder per
// test run, made by the global setup (createSoftHsmTokens) and handed to the workers through the
// environment; the tests only read the settings (softHsmSettings).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SOFTHSM_LIBRARY = process.env.TEST_PKCS11_LIBRARY ?? '/usr/lib/softhsm/libsofthsm2.so';

/** Tokens of a test run: label -> user PIN. */
export const TEST_TOKENS = {
  /** The gateway's token (Pkcs11KeyProvider, hsm-init). */
  gateway: { label: 'fg-test', pin: '1234-gateway', soPin: '5678-gateway' },
  /** The KMS test double's token (test/support/kms-double.ts). */
  kmsDouble: { label: 'fg-kms-double', pin: '1234-kms', soPin: '5678-kms' },
} as const;

/** Global setup: a SoftHSM2 config with its own token folder, both tokens created; returns the folder to remove. */
export function createSoftHsmTokens(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fg-softhsm-'));
  const tokens = join(dir, 'tokens');
  mkdirSync(tokens);
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  const env = { ...process.env, SOFTHSM2_CONF: conf };
  for (const t of Object.values(TEST_TOKENS)) {
    try {
      execFileSync('softhsm2-util', ['--init-token', '--free', '--label', t.label, '--pin', t.pin, '--so-pin', t.soPin], { env, stdio: 'pipe' });
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      throw new Error(missing ? 'softhsm2-util not found: install SoftHSM2 (apt-get install softhsm2; .ci/run does)' : `softhsm2-util --init-token failed: ${String((err as { stderr?: Buffer }).stderr ?? err)}`);
    }
  }
  // Workers are forked after the global setup and inherit its environment.
  process.env.SOFTHSM2_CONF = conf;
  return dir;
}

export function removeSoftHsmTokens(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** PKCS#11 settings of a test token; the key label is the caller's (each test file its own keys). */
export function softHsmSettings(token: keyof typeof TEST_TOKENS, keyLabel: string) {
  if (!process.env.SOFTHSM2_CONF) throw new Error('SOFTHSM2_CONF is not set: the vitest global setup creates the test tokens (test/support/global-setup.ts)');
  const t = TEST_TOKENS[token];
  return { library: SOFTHSM_LIBRARY, tokenLabel: t.label, pin: t.pin, keyLabel };
}
