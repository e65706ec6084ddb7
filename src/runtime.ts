import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { buildApp, type BuildAppOptions } from './app.js';
import { startAuthoritySimulator, type AuthoritySimulator } from './authority-sim/authority-simulator.js';
import { remoteSimulatorLink, waitForSimulator } from './authority-sim/sim-admin-client.js';
import { inProcessLink, type SimulatorLink } from './authority-sim/sim-link.js';
import { openStorage, prepareDatabase } from './bootstrap.js';
import type { Clock } from './kernel/clock.js';
import { systemClock } from './kernel/clock.js';
import type { Config } from './config.js';
import { JobRunner } from './infra/queue/runner.js';
import { releaseSecretBox, secretBoxFor } from './infra/security/secret-box-registry.js';
import type { IssuerSecretHooks } from './platform/issuers/issuer-deps.js';
import { AuthorityAccess } from './fiscal/sefaz/authority-access.js';
import type { AuthorityBreaker } from './fiscal/sefaz/authority-breaker.js';
import type { BreakerRecorder } from './fiscal/sefaz/observed-client.js';
import { openAuthorityBreaker } from './platform/health/authority-breaker.js';
import { sandboxIssuerHooks, registerStoredIssuersWithSimulator } from './platform/sandbox/simulator-registration.js';
import { openDb, type Db } from './infra/storage/db.js';
import { authorityReachableCheck, keyStoreCheck } from './platform/health/runtime-health.js';
import { openNotificationBus } from './platform/notifications/notification-bus.js';
import { workerJobs } from './worker/handlers/index.js';
import { reformTablesInForce } from './fiscal/reform/reform-tables-in-force.js';

export type Role = 'all' | 'api' | 'worker';

export interface RuntimeOptions {
  role?: Role;
  clock?: Clock;
  /** An open, shared database (tests); otherwise opened from the configuration. */
  db?: Db;
  app?: Omit<BuildAppOptions, 'issuerHooks'>;
  /** Sandbox: overrides SIM_LATENCY_MS (tests use [0, 0]). */
  simulatorLatencyMs?: [number, number];
  /**
   * The worker's own storage handle (a second pool on the same server), so background work never
   * queues API requests behind it for a connection. Defaults to `db`; a runtime that opens its own
   * server storage with both roles opens a second pool of DB_POOL_SIZE for the worker.
   */
  workerDb?: Db;
  /** Sandbox: a running simulator to use (tests share one per process); not closed by this runtime. */
  simulator?: AuthoritySimulator;
  workerPollMs?: number;
}

export interface Runtime {
  ctx: AppContext;
  app: FastifyInstance | undefined;
  runner: JobRunner | undefined;
  /** The sandbox's authority: in-process, shared (tests) or standalone (SIM_URL). */
  simulator: SimulatorLink | undefined;
  close(): Promise<void>;
}

/**
 * Composes one gateway process (docs/decisions.md#components): storage, secrets, the authority (the in-process SEFAZ
 * simulator in the sandbox), the job runner for the worker role and the HTTP app for the API role.
 */
export async function startRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  // The tax reform tables (docs/fiscal/reform-tables.md), read and checked before anything opens:
  // a bad file stops the start here, naming the file and the row.
  reformTablesInForce();
  const role = opts.role ?? 'all';
  const clock = opts.clock ?? systemClock;
  const ownsDb = !opts.db;
  const db = opts.db ?? (await openStorage(config));
  if (!ownsDb) await prepareDatabase(db, config);
  const ownsWorkerDb = ownsDb && !opts.workerDb && role === 'all' && Boolean(config.databaseUrl);
  const workerDb = ownsWorkerDb ? await openDb({ databaseUrl: config.databaseUrl, poolSize: config.dbPoolSize }) : opts.workerDb;
  const secrets = secretBoxFor(config);

  let simulator: SimulatorLink | undefined;
  let ownSimulator: AuthoritySimulator | undefined;
  let hooks: IssuerSecretHooks | undefined;
  let authority: AuthorityAccess;
  // Every SEFAZ call's outcome goes to its endpoint's breaker, built below once the authority is known.
  const recorder: BreakerRecorder = { record: (target, outcome) => breaker.record(target, outcome) };
  if (config.env === 'sandbox') {
    if (opts.simulator) simulator = inProcessLink(opts.simulator);
    else if (config.simulatorUrl) {
      // A standalone simulator outlives this process: registrations go through its admin API.
      simulator = remoteSimulatorLink({
        url: config.simulatorUrl,
        caPem: config.simulatorCaFile ? readFileSync(config.simulatorCaFile, 'utf8') : undefined,
        token: config.simulatorAdminToken!,
      });
      await waitForSimulator(simulator, 15_000);
    } else {
      ownSimulator = await startAuthoritySimulator({
        db,
        host: '127.0.0.1',
        port: config.simulatorPort,
        latencyMs: opts.simulatorLatencyMs ?? config.simulatorLatencyMs,
        clientAuth: 'registered',
        cscStorage: 'memory',
        now: () => clock.now(),
      });
      simulator = inProcessLink(ownSimulator);
    }
    if (!opts.simulator) await registerStoredIssuersWithSimulator(db, secrets, simulator);
    hooks = sandboxIssuerHooks(simulator);
    authority = new AuthorityAccess({
      endpointOverride: { baseUrl: simulator.url },
      ca: simulator.caPem ? [simulator.caPem] : undefined,
      connectTimeoutMs: config.authorityConnectTimeoutMs,
      responseTimeoutMs: config.authorityResponseTimeoutMs,
      scenariosAllowed: true,
      breaker: recorder,
      // Every call names its account to the simulated authority, signed so no caller can name another's.
      tenantCredential: (accountId) => simulator!.tenantCredential(accountId),
    });
  } else {
    authority = new AuthorityAccess({
      ca: config.authorityCaFile ? [readFileSync(config.authorityCaFile, 'utf8')] : undefined,
      connectTimeoutMs: config.authorityConnectTimeoutMs,
      responseTimeoutMs: config.authorityResponseTimeoutMs,
      scenariosAllowed: false,
      breaker: recorder,
    });
  }
  let app: FastifyInstance | undefined;
  const breaker: AuthorityBreaker = openAuthorityBreaker({
    config, db, secrets, clock, endpointOverride: authority.options.endpointOverride, authority: () => authority,
    // A lost count is no reason to fail a sale; it is logged where there is a logger (API processes).
    onError: (err) => app?.log.warn({ err }, 'authority breaker: state not read or stored'),
  });

  let runner: JobRunner | undefined;
  const notifications = await openNotificationBus(config, db);
  const ctx: AppContext = { config, db, clock, secrets, authority, breaker, wakeWorker: () => runner?.poke(), notifications };
  const workCtx: AppContext = workerDb ? { ...ctx, db: workerDb } : ctx;
  const jobs = workerJobs(workCtx);
  if (role !== 'api') {
    runner = new JobRunner({
      db: workCtx.db,
      clock,
      concurrency: config.workerConcurrency,
      pollMs: opts.workerPollMs,
      handlers: jobs.handlers,
    });
    runner.start();
    await jobs.start();
    // Worker processes probe the open endpoints; the row lock lets one of them send each probe.
    breaker.start();
  }

  if (role !== 'worker') {
    const extra = opts.app?.healthChecks;
    const authorityUrl = simulator?.url;
    app = await buildApp(ctx, {
      ...opts.app,
      issuerHooks: hooks,
      healthChecks: () => [
        keyStoreCheck(secrets),
        ...(authorityUrl ? [authorityReachableCheck(authorityUrl)] : []),
        ...(extra ? extra() : []),
      ],
    });
  }

  let closed = false;
  return {
    ctx,
    app,
    runner,
    simulator,
    async close() {
      if (closed) return;
      closed = true;
      await app?.close();
      await runner?.stop();
      breaker.stop();
      jobs.close();
      await notifications.close();
      authority.close();
      await ownSimulator?.close();
      if (ownsWorkerDb) await workerDb?.close();
      if (ownsDb) await db.close();
      await releaseSecretBox(config);
    },
  };
}
