import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { createSeries, listSeries, updateSeries } from '../../../platform/issuers/issuer-series.js';
import { IdParams } from '../../schemas/common.js';
import { CreateSeriesBody, PatchSeriesBody, SeriesChangeSchema, SeriesList, SeriesParams } from '../../schemas/series.js';

/** An issuer's NF-e and NFC-e series and their numbers (docs/fiscal/series.md). */
export const seriesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['issuers'];
  app.get(
    '/v1/issuers/:id/series',
    {
      config: { scope: 'issuers:read' },
      schema: {
        tags,
        summary: "The issuer's NF-e and NFC-e series",
        description: 'Series 1 of each model (every issuer has it) and every series created, with the next number, the highest used and the ranges voided ahead.',
        params: IdParams,
        response: { 200: SeriesList, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => ({ data: await listSeries(app.ctx, request.auth.accountId, request.params.id) }),
  );

  app.post(
    '/v1/issuers/:id/series',
    {
      config: { scope: 'issuers:write' },
      schema: {
        tags,
        summary: 'Open a series',
        description:
          'Opens series `series` of `model` (0-889) at `next_number` (default: after the highest number of the series already used or voided). ' +
          'A sale names it in `series`. 409 `series_exists` when the issuer has it; 409 `series_number_used` when next_number is used or voided. ' +
          'Starting above 1 lists the numbers skipped in `gaps`, to be voided by `void_by`.',
        params: IdParams,
        body: CreateSeriesBody,
        response: { 201: SeriesChangeSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await createSeries(app.ctx, request.auth.accountId, request.params.id, request.body)),
  );

  app.patch(
    '/v1/issuers/:id/series/:model/:series',
    {
      config: { scope: 'issuers:write' },
      schema: {
        tags,
        summary: "Set a series' next number, retire it or open it again",
        description:
          'A number already used or voided is never issued again: `next_number` at or below the highest used or voided one, or inside a voided range, ' +
          'is 409 `series_number_used` naming the field. Moving forward leaves the numbers between neither used nor voided: the answer lists them in `gaps` ' +
          'and the date to void them by (`void_by`, the 10th day of the next month); the gateway does not void them itself (a voiding needs your justification). ' +
          '`retired: true` numbers no further sale in the series (a sale naming it is 422 on `series`).',
        params: SeriesParams,
        body: PatchSeriesBody,
        response: { 200: SeriesChangeSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request) => {
      const { id, model, series } = request.params;
      return updateSeries(app.ctx, request.auth.accountId, id, Number(model) as 55 | 65, Number(series), request.body);
    },
  );
};
