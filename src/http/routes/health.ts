import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../kernel/errors.js';
import { deepHealth, type HealthCheck } from '../../platform/health/deep-health.js';
import { DeepHealthCache } from '../../platform/health/deep-health-cache.js';
import { processFaults } from '../../platform/health/process-guards.js';
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
  status: Type.Union([Type.Literal('ok'), Type.Literal('fail'), Type.Literal('degraded')], {
    description: 'Without the operator token: ok or degraded, and nothing else. With it: ok or fail, with every check',
  }),
  ts: Type.String({ format: 'date-time' }),
  checks: Type.Optional(Type.Array(CheckResult)),
  process: Type.Optional(Type.Object(
    { uncaught_exceptions: Type.Integer(), unhandled_rejections: Type.Integer() },
    { description: 'Faults the process guards caught (logged, the process kept serving) since this process started' },
  )),
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

/** The operator's token, compared in constant time (over digests, so its length leaks nothing either). */
function isOperator(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}

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

    // One round of probes answers every caller for 10 s: the key store's check is a
    // round trip through the HSM or KMS, which a flood of calls would otherwise multiply.
    const probes = new DeepHealthCache(
      () => deepHealth(app.ctx.db, extraChecks(), () => app.ctx.breaker.states()),
      () => app.ctx.clock.now().getTime(),
    );

    app.get(
      '/healthz/deep',
      {
        // Public for load balancers, yet counted per client address (RATE_LIMIT_PER_MINUTE).
        config: { public: true, limitPerIp: 'health' },
        schema: {
          tags: ['health'],
          summary: 'Readiness: storage, migrations, key store, authority',
          description:
            'Without credentials: `{status: ok | degraded, ts}` and 200 or 503, nothing more. The details (each check with its ' +
            'error, the process counters, every authority endpoint with its circuit breaker) need the operator token ' +
            '(`Authorization: Bearer <HEALTH_TOKEN>`). The probes run at most once every 10 s per process, whoever asks; ' +
            'the route is counted per client address (RATE_LIMIT_PER_MINUTE).',
          security: [],
          response: { 200: DeepHealth, 503: DeepHealth, ...errorResponses(429) },
        },
      },
      async (request, reply) => {
        const report = await probes.report();
        const reset = app.ctx.config.env === 'sandbox' ? app.ctx.config.sandboxResetAt : null;
        const sandbox = reset ? { sandbox: { reset_at: formatResetTime(reset), next_reset_at: nextResetAt(app.ctx.clock.now(), reset).toISOString() } } : {};
        reply.code(report.status === 'ok' ? 200 : 503);
        // The process counters cost nothing to read: always today's, not the cached round's.
        if (isOperator(request.headers.authorization, app.ctx.config.healthToken)) return reply.send({ ...report, process: processFaults(), ...sandbox });
        // The sandbox's reset time is public (docs/guides/api.md#contract-sandbox-and-secrets); what the checks found is the operator's.
        return reply.send({ status: report.status === 'ok' ? 'ok' : 'degraded', ts: report.ts, ...sandbox });
      },
    );
  };
}
