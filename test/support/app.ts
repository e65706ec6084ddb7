import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { BuildAppOptions } from '../../src/app.js';
import type { AppContext } from '../../src/app-context.js';
import { startAuthoritySimulator, type AuthoritySimulator } from '../../src/authority-sim/authority-simulator.js';
import { prepareDatabase } from '../../src/bootstrap.js';
import type { Clock } from '../../src/kernel/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createAccount } from '../../src/cli/create-account.js';
import { startRuntime, type Role, type Runtime } from '../../src/runtime.js';
import type { Db } from '../../src/infra/storage/db.js';
import { getTestDb } from './db.js';

export const TEST_MASTER_KEY = randomBytes(32).toString('base64');
/** The operator token of every test app (HEALTH_TOKEN): /healthz/deep shows its details only with it. */
export const TEST_HEALTH_TOKEN = randomBytes(24).toString('hex');
export const TEST_HEALTH_AUTH = { authorization: `Bearer ${TEST_HEALTH_TOKEN}` };

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  ctx: AppContext;
  runtime: Runtime;
  simulator: AuthoritySimulator;
  /** A fresh account with an all-scopes key: tests never see each other's records. */
  newAccount(name?: string): Promise<{ accountId: string; key: string; auth: { authorization: string } }>;
}

let prepared: Promise<void> | undefined;
let sharedSimulator: Promise<AuthoritySimulator> | undefined;
/** What file-isolation.ts finds on globalThis once a file of this worker has started the simulator. */
export type TestSimulatorHandle = typeof globalThis & { fgTestSimulator?: Promise<AuthoritySimulator> };

/**
 * One SEFAZ simulator per test worker process (latency 0), shared by every app it runs: a job
 * queued by one test app may be run by another's worker, and both must reach the same authority.
 */
export async function testSimulator(): Promise<AuthoritySimulator> {
  if (!sharedSimulator) {
    sharedSimulator = getTestDb().then((db) => startAuthoritySimulator({ db, latencyMs: [0, 0], clientAuth: 'registered', cscStorage: 'memory' }));
    // The next file's setup (file-isolation.ts) ends what this file left on it.
    (globalThis as TestSimulatorHandle).fgTestSimulator = sharedSimulator;
  }
  return sharedSimulator;
}

export async function createTestApp(
  opts: { env?: Record<string, string>; clock?: Clock; options?: BuildAppOptions; role?: Role } = {},
): Promise<TestApp> {
  const db = await getTestDb();
  // Generous default limit: only the rate-limit test wants to hit it. The authority's answer gets
  // 15 s, a last guard: with 2 s a loaded machine turned plain emissions into in-doubt ones. The
  // test of the 'timeout' scenario, which waits the timeout out, asks for a short one itself.
  const config = loadConfig({
    RATE_LIMIT_PER_MINUTE: '100000',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    // Test files share 127.0.0.1 and, per worker, a database: one file's deliberate failures must not
    // delay another's sign-ins. test/people/sessions.test.ts sets the product's 20 and tests the rule.
    LOGIN_IP_FREE_FAILURES: '1000000',
    // The hourly download of received NF-e would reach the simulator for every issuer of the worker's
    // database; test/nfe-received.test.ts turns it on for its own app.
    NFE_RECEIVED_SYNC: 'false',
    DATA_DIR: '/tmp/fiscal-gateway-test',
    MASTER_KEY: TEST_MASTER_KEY,
    AUTHORITY_RESPONSE_TIMEOUT_MS: '15000',
    // The authority breakers' state lives in the worker's database: one file's deliberate faults would
    // open them for the next file's sales. Off unless a test turns them on (authority-breaker,
    // nfce-contingency).
    AUTHORITY_BREAKER_FAILURES: '0',
    // The daily sandbox wipe would empty the worker's shared database under the next file whose clock
    // passes 04:00 UTC; test/sandbox-reset.test.ts turns it on for its own runtimes.
    SANDBOX_RESET_AT: 'off',
    HEALTH_TOKEN: TEST_HEALTH_TOKEN,
    // The webhook tests' receivers listen on 127.0.0.1: a sandbox on one's own machine (
    // production refuses the setting).
    ...(opts.env?.GATEWAY_ENV === 'production' ? {} : { WEBHOOKS_ALLOW_LOOPBACK: 'true' }),
    ...opts.env,
  });
  prepared ??= prepareDatabase(db, { env: 'sandbox' });
  await prepared;
  const runtime = await startRuntime(config, {
    db,
    role: opts.role ?? 'api',
    clock: opts.clock,
    app: opts.options,
    simulator: config.env === 'sandbox' ? await testSimulator() : undefined,
    workerPollMs: 50,
  });
  const app = runtime.app!;
  // A file that closes only its app must not leave its job runner polling: files of a worker share
  // its database, and a runner left behind (on another file's clock) takes the next file's jobs.
  if (runtime.runner) app.addHook('onClose', async () => void (await runtime.runner!.stop()));
  await app.ready();
  return {
    app,
    db,
    config,
    ctx: runtime.ctx,
    runtime,
    simulator: await testSimulator(),
    async newAccount(name = 'Test account') {
      const { accountId, key } = await createAccount(db, config, name);
      return { accountId, key, auth: { authorization: `Bearer ${key}` } };
    },
  };
}
