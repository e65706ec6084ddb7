import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deepHealth, type HealthCheck } from '../../platform/health/deep-health.js';

export type { HealthCheck } from '../../platform/health/deep-health.js';

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
        const report = await deepHealth(app.ctx.db, extraChecks());
        return reply.code(report.status === 'ok' ? 200 : 503).send(report);
      },
    );
  };
}
