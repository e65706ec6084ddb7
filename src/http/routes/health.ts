import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { pendingMigrations } from '../../platform/storage/migrate.js';
import { gatewayMigrations } from '../../platform/storage/migrations/index.js';
import { processFaults } from '../../platform/health/process-guards.js';

/** A named dependency check for /healthz/deep; other modules add theirs (key store, authority). */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

const CheckResult = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('fail')]),
  latency_ms: Type.Number(),
  error: Type.Optional(Type.String()),
});
const DeepHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('fail')]),
  ts: Type.String({ format: 'date-time' }),
  checks: Type.Array(CheckResult),
  process: Type.Object(
    { uncaught_exceptions: Type.Integer(), unhandled_rejections: Type.Integer() },
    { description: 'Faults the process guards caught (logged, the process kept serving) since this process started' },
  ),
});

const CHECK_TIMEOUT_MS = 3_000;

export function healthRoutes(extraChecks: () => HealthCheck[]): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/healthz',
      {
        config: { public: true },
        schema: {
          tags: ['health'],
          summary: 'Liveness',
          security: [],
          response: { 200: Type.Object({ status: Type.Literal('ok'), ts: Type.String({ format: 'date-time' }) }) },
        },
      },
      async () => ({ status: 'ok' as const, ts: new Date().toISOString() }),
    );

    app.get(
      '/healthz/deep',
      {
        config: { public: true },
        schema: {
          tags: ['health'],
          summary: 'Readiness: storage, migrations, key store, authority',
          security: [],
          response: { 200: DeepHealth, 503: DeepHealth },
        },
      },
      async (_request, reply) => {
        const { db } = app.ctx;
        const checks: HealthCheck[] = [
          { name: 'storage', check: async () => void (await db.query('SELECT 1')) },
          {
            name: 'migrations',
            check: async () => {
              const pending = await pendingMigrations(db, gatewayMigrations);
              if (pending.length) throw new Error(`pending migrations: ${pending.join(', ')}`);
            },
          },
          ...extraChecks(),
        ];
        const results = await Promise.all(checks.map(runCheck));
        const ok = results.every((r) => r.status === 'ok');
        return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'fail', ts: new Date().toISOString(), checks: results, process: processFaults() });
      },
    );
  };
}

async function runCheck(c: HealthCheck) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      c.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { name: c.name, status: 'ok' as const, latency_ms: round(performance.now() - started) };
  } catch (err) {
    return { name: c.name, status: 'fail' as const, latency_ms: round(performance.now() - started), error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
