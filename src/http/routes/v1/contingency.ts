import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contingencySummary } from '../../../documents/nfce/services/contingency-summary.js';
import { errorResponses } from '../../../kernel/errors.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const OutstandingSchema = Type.Object(
  {
    issuer_id: Type.String(),
    outstanding: Type.Integer({ description: 'NFC-e issued in offline contingency not yet authorized' }),
    oldest_entered_at: Nullable(Type.String({ format: 'date-time' })),
    next_deadline_at: Nullable(Type.String({ format: 'date-time', description: 'The nearest transmission deadline (24 hours from entering contingency)' })),
    first_attempts_pending: Type.Integer({ description: 'Normal-emission attempts still to cancel by substitution (110112) or to void' }),
  },
  { title: 'ContingencyOutstanding' },
);

export const contingencyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.get(
    '/v1/contingency',
    {
      config: { scope: 'nfce:read' },
      schema: {
        tags: ['nfce'],
        summary: 'What is outstanding in offline contingency, per issuer',
        description:
          'Issuers with NFC-e issued in offline contingency that the authority has not authorized yet, or with a first attempt ' +
          'still to settle. The notes: `GET /v1/nfce?status=contingency&issuer_id=...`.',
        response: { 200: Type.Object({ data: Type.Array(OutstandingSchema), has_more: Type.Boolean() }), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({ data: await contingencySummary(ctx, request.auth.accountId), has_more: false }),
  );
};
