#!/usr/bin/env node
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { openStorage } from './bootstrap.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createAccount } from './cli/create-account.js';
import { reformTablesCommand } from './cli/reform-tables.js';
import { loadReformTables } from './fiscal/reform/load-reform-tables.js';
import { reformTablesInForce, useReformTables } from './fiscal/reform/reform-tables-in-force.js';
import { LOG_REDACT } from './app.js';
import { startRuntime, type Role } from './runtime.js';
import { SANDBOX_PUBLIC_KEY } from './infra/identity/api-key.js';
import { formatResetTime, nextResetAt } from './platform/sandbox/reset-schedule.js';
import { memoryRateLimitStore } from './infra/storage/rate-limit-store.js';
import { openRateLimitRedis, redisRateLimitStore } from './infra/storage/redis-rate-limit-store.js';
import { installProcessGuards } from './platform/health/process-guards.js';
import type { runAuthoritySimCli as RunAuthoritySimCliFn } from './authority-sim/cli.js';

type RunAuthoritySimCli = typeof RunAuthoritySimCliFn;

/** The process guards' logger: same level and redaction as the app's (no secrets in logs). */
const guardLogger = (config: Config, name: string) => pino({ name, level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' } });

const USAGE = `usage: node dist/main.js <command>
  serve [--role all|api|worker]   start the gateway (default role: all)
  migrate                          apply database migrations and exit
  create-account --name <name>     create an account and print its first API key (production installs)
  authority-sim                    run the SEFAZ simulator alone
  hsm-init                         create the pkcs11 master key in the token (PKCS11_*), if missing
  doctor --issuer <id> [--url <gateway>] [--key <api key>] [--lang pt-BR|en]
                                   check an issuer against what usually fails in production (a running gateway answers)
  reform-tables [--check DIR]      check the tax reform tables (REFORM_TABLES_DIR or assets/fiscal/reform, or DIR): revision, counts, rates`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  // Needs no configuration: it only reads the tables' folder (docs/fiscal/reform-tables.md).
  if (command === 'reform-tables') process.exit(reformTablesCommand(rest, (line) => console.log(line)));
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  switch (command) {
    case 'serve':
      return serve(config, rest);
    case 'migrate': {
      const db = await openStorage(config);
      await db.close();
      console.log('migrations applied');
      return;
    }
    case 'create-account': {
      const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
      if (!values.name) throw new Error('create-account needs --name <name>');
      const db = await openStorage(config);
      try {
        const out = await createAccount(db, config, values.name);
        console.log(`account:     ${out.accountId}\napplication: ${out.applicationId}\napi key:     ${out.key}\n(store the key now: it is not shown again)`);
      } finally {
        await db.close();
      }
      return;
    }
    case 'hsm-init': {
      // Loaded on demand: only this command (and KEY_PROVIDER=pkcs11) needs the native PKCS#11 binding.
      const { hsmInit } = await import('./cli/hsm-init.js');
      return hsmInit(config.keyStorage, (line) => console.log(line));
    }
    case 'doctor': {
      const { values } = parseArgs({ args: rest, options: { issuer: { type: 'string' }, url: { type: 'string' }, key: { type: 'string' }, lang: { type: 'string' } } });
      if (!values.issuer) throw new Error('doctor needs --issuer <id>');
      const { runDoctor } = await import('./cli/doctor.js');
      const key = values.key ?? process.env.GATEWAY_API_KEY ?? (config.env === 'sandbox' ? SANDBOX_PUBLIC_KEY : undefined);
      if (!key) throw new Error('doctor needs --key <api key> (or GATEWAY_API_KEY) outside the sandbox');
      const lang = (values.lang ?? (process.env.LANG?.toLowerCase().startsWith('en') ? 'en' : 'pt-BR')) === 'en' ? 'en' : 'pt-BR';
      const url = values.url ?? process.env.GATEWAY_URL ?? `http://127.0.0.1:${config.port}`;
      process.exitCode = await runDoctor({ issuer: values.issuer, url, key, lang }, (line) => console.log(line));
      return;
    }
    case 'authority-sim': {
      const simCli = './authority-sim/cli.js';
      const { runAuthoritySimCli } = (await import(simCli)) as { runAuthoritySimCli: RunAuthoritySimCli };
      return runAuthoritySimCli(process.env, { onReady: () => installProcessGuards(guardLogger(config, 'authority-sim')) });
    }
    default:
      console.error(USAGE);
      process.exit(command ? 2 : 0);
  }
}

async function serve(config: Config, args: string[]): Promise<void> {
  const started = performance.now();
  const { values } = parseArgs({ args, options: { role: { type: 'string', default: 'all' } } });
  const role = values.role;
  if (!['all', 'api', 'worker'].includes(String(role))) throw new Error('--role must be all, api or worker');
  let redis: Redis | undefined;
  if (config.redisUrl) redis = openRateLimitRedis(config.redisUrl);
  const runtime = await startRuntime(config, {
    role: role as Role,
    app: {
      logger: { level: config.logLevel, redact: { paths: LOG_REDACT, censor: '[redacted]' } },
      // Counters per environment: a sandbox and a production install sharing one Redis never mix them.
      rateLimitStore: redis ? redisRateLimitStore(redis, `rlw:${config.env}:`) : memoryRateLimitStore(),
      healthChecks: () => (redis ? [{ name: 'redis', check: async () => void (await redis!.ping()) }] : []),
    },
  });
  const app = runtime.app;
  if (app) await app.listen({ port: config.port, host: config.host });
  else console.log(`\n  Fiscal gateway worker (${config.env}) running, ${config.workerConcurrency} jobs at a time`);
  // Up and serving: from now on a fault in a callback is logged and counted, not fatal.
  installProcessGuards(guardLogger(config, 'gateway'));
  const address = app?.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const ms = Math.round(performance.now() - started);
  if (app) console.log(
    [
      '',
      `  Fiscal gateway (${config.env}) ready in ${ms} ms`,
      `  API:      ${base}`,
      `  Docs:     ${base}/docs`,
      // The dashboard's own origin (DASHBOARD_URL): sign-in cookies, CSRF and passkeys are bound to it.
      `  Dashboard: ${config.people.dashboardUrl}/`,
      config.env === 'sandbox' ? `  API key:  ${SANDBOX_PUBLIC_KEY}` : '  API keys: create one with `node dist/main.js create-account --name <name>`',
      !runtime.simulator
        ? '  SEFAZ:    real authority endpoints (per state)'
        : runtime.simulator.kind === 'remote'
          ? `  SEFAZ:    simulated by the authority simulator at ${runtime.simulator.url} (SIM_URL)`
          : `  SEFAZ:    simulated at ${runtime.simulator.url} (latency ${config.simulatorLatencyMs.join('-')} ms)`,
      `  Storage:  ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}`,
      `  Keys:     certificates under ${custodyLine(runtime.ctx.secrets.custody)}`,
      ...resetLine(config),
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`shutting down (${signal})`);
    await runtime.close().catch(() => undefined);
    redis?.disconnect();
    process.exit(0);
  };
  // SIGHUP: read the reform tables' folder again (docs/fiscal/reform-tables.md); bad data keeps the tables in force.
  process.on('SIGHUP', () => {
    try {
      useReformTables(loadReformTables());
      console.log(`reform tables reloaded: ${reformTablesInForce().revision}`);
    } catch (err) {
      console.error(`reform tables NOT reloaded, the previous ones stay in force: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

// Where certificate keys are wrapped (KEY_PROVIDER), without anything secret.
function custodyLine(custody: { mode: string; keyId: string; label: string }): string {
  return custody.mode === 'envelope' ? `the local master key ${custody.keyId} (KEY_PROVIDER=envelope)` : `${custody.mode} ${custody.label} (${custody.keyId})`;
}

// docs/guides/api.md#contract-sandbox-and-secrets: the sandbox's identifiers do not persist; say when they go next (SANDBOX_RESET_AT).
function resetLine(config: Config): string[] {
  if (config.env !== 'sandbox') return [];
  const at = config.sandboxResetAt;
  if (!at) return ['  Reset:    off (SANDBOX_RESET_AT=off)'];
  return [`  Reset:    daily at ${formatResetTime(at)} UTC (next ${nextResetAt(new Date(), at).toISOString().replace('.000Z', 'Z')})`];
}
