import type { BreakerState } from '../../fiscal/sefaz/authority-breaker.js';
import type { Db } from '../../infra/storage/db.js';
import { pendingMigrations } from '../../infra/storage/migrate.js';
import { gatewayMigrations } from '../../infra/storage/migrations/index.js';
import { processFaults } from './process-guards.js';

/** A named dependency check for /healthz/deep; other modules add theirs (key store, authority). */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

export interface CheckResult {
  name: string;
  status: 'ok' | 'fail';
  latency_ms: number;
  error?: string;
}

export interface DeepHealthReport {
  status: 'ok' | 'fail';
  ts: string;
  checks: CheckResult[];
  process: ReturnType<typeof processFaults>;
  /** Every known authority endpoint's circuit breaker. */
  authority?: BreakerState[];
}

const CHECK_TIMEOUT_MS = 3_000;

/** Storage answers, no migration is pending, then every extra check; each bounded by a timeout. */
/**
 * `authority`, when given, lists the endpoints' breakers. An open breaker does not fail the report:
 * the gateway is healthy and issuing in contingency, and a load balancer that took it out of service
 * for a SEFAZ outage would stop the sales contingency exists to keep going.
 */
export async function deepHealth(db: Db, extraChecks: readonly HealthCheck[], authority?: () => Promise<BreakerState[]>): Promise<DeepHealthReport> {
  const checks: HealthCheck[] = [
    { name: 'storage', check: async () => void (await db.query('SELECT 1')) },
    {
      name: 'migrations',
      check: async () => {
        const pending = await pendingMigrations(db, gatewayMigrations);
        if (pending.length) throw new Error(`pending migrations: ${pending.join(', ')}`);
      },
    },
    ...extraChecks,
  ];
  const [results, breakers] = await Promise.all([
    Promise.all(checks.map(runCheck)),
    // Storage down already fails the 'storage' check; the list is then left out.
    authority ? authority().catch(() => undefined) : undefined,
  ]);
  const ok = results.every((r) => r.status === 'ok');
  return { status: ok ? 'ok' : 'fail', ts: new Date().toISOString(), checks: results, process: processFaults(), ...(breakers ? { authority: breakers } : {}) };
}

async function runCheck(c: HealthCheck): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      c.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { name: c.name, status: 'ok', latency_ms: round(performance.now() - started) };
  } catch (err) {
    return { name: c.name, status: 'fail', latency_ms: round(performance.now() - started), error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
