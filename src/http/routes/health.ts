import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deepHealth, type HealthCheck } from '../../platform/health/deep-health.js';
import { formatResetTime, nextResetAt } from '../../platform/sandbox/reset-schedule.js';

export type { HealthCheck } from '../../platform/health/deep-health.js';

const CheckResult = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('fail')]),
  latency_ms: Type.Number(),
  error: Type.Optional(Type.String()),
});
const Breaker = Type.Object({
  endpoint: Type.String({ description: 'The service URL the breaker guards (several states share one authorizer)' }),
  authorizer: Type.String(),
  service: Type.String({ description: 'WSDL service, e.g. NFeAutorizacao4' }),
  state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half_open')]),
  failures: Type.Integer(),
  opened_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  next_probe_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Open: when the status probe is due; half-open: when the probe in flight is given up' }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_error_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
const DeepHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('fail')]),
  ts: Type.String({ format: 'date-time' }),
  checks: Type.Array(CheckResult),
  process: Type.Object(
    { uncaught_exceptions: Type.Integer(), unhandled_rejections: Type.Integer() },
    { description: 'Faults the process guards caught (logged, the process kept serving) since this process started' },
  ),
  authority: Type.Optional(
    Type.Array(Breaker, {
      description: 'Circuit breaker of every authority endpoint the gateway has called. An open one does not make the status fail: the gateway then issues in contingency',
    }),
  ),
  sandbox: Type.Optional(
    Type.Object(
      {
        reset_at: Type.String({ description: 'Daily reset time, UTC (HH:MM, SANDBOX_RESET_AT)' }),
        next_reset_at: Type.String({ format: 'date-time', description: 'When every identifier created in the sandbox is wiped next' }),
      },
      { description: 'Sandbox only, when the daily reset is on: the database is wiped every day at this time (SPEC)' },
    ),
  ),
});

export function healthRoutes(extraChecks: () => HealthCheck[]): FastifyPluginAsyncTypebox {
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
        const report = await deepHealth(app.ctx.db, extraChecks(), () => app.ctx.breaker.states());
        const reset = app.ctx.config.env === 'sandbox' ? app.ctx.config.sandboxResetAt : null;
        const sandbox = reset ? { sandbox: { reset_at: formatResetTime(reset), next_reset_at: nextResetAt(app.ctx.clock.now(), reset).toISOString() } } : {};
        return reply.code(report.status === 'ok' ? 200 : 503).send({ ...report, ...sandbox });
      },
    );
  };
}
