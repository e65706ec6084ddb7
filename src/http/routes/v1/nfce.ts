import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { SaleSchema, type Sale } from '../../../nfce/sale.js';
import { issueNfce } from '../../../services/nfce/issue-nfce.js';
import { waitUntilCancellationSettled, waitUntilSettled } from '../../../services/nfce/note-settled.js';
import { presentNfce } from '../../../services/nfce/present-nfce.js';
import { getNfce, listHistory, listNfce, type NfceStatus } from '../../../storage/repositories/nfce-repository.js';
import { ApiError, errorResponses, notFound } from '../../errors.js';
import { IdParams, ListOf, page } from '../../schemas/common.js';
import { CancelBody, NfceHistoryEntrySchema, NfceListQuery, NfceRecordSchema } from '../../schemas/nfce.js';
import { requestCancellation } from '../../../services/nfce/cancel-nfce.js';
import { renderNoteDanfe } from '../../../services/nfce/render-note-danfe.js';

const tags = ['nfce'];
const MAX_WAIT_S = 10;
// Scenarios the SEFAZ simulator understands (DESIGN 3); anything else is a client mistake.
const SCENARIO = /^(reject:\d{3,4}|deny|timeout|lost-response|unavailable|http-500|malformed)$/;

/** RFC 7240 `Prefer: wait=N` (DESIGN 4: N <= 10 s). */
function preferWait(header: string | string[] | undefined): number | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  const m = text ? /(?:^|[,;\s])wait=(\d+)/i.exec(text) : null;
  return m ? Math.min(MAX_WAIT_S, Number(m[1])) : null;
}

export const nfceRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;
  const present = (row: Parameters<typeof presentNfce>[0]) => presentNfce(row, ctx.config.publicBaseUrl);

  app.post(
    '/v1/nfce',
    {
      config: { scope: 'nfce:write' },
      schema: {
        tags,
        summary: 'Issue an NFC-e',
        description:
          'Validates the sale, reserves the next number, builds and signs the NFC-e and queues it for authorization. ' +
          'Answers 202 with status processing at once; with `Prefer: wait=N` (N <= 10) waits up to N seconds for the ' +
          "authority's answer and answers 201 with the final record when it arrives in time. " +
          'In the sandbox, `X-Sandbox-Scenario` (`reject:<cStat>`, `deny`, `timeout`, `lost-response`, `unavailable`, `http-500`, `malformed`) makes the simulated authority fail on purpose.',
        body: SaleSchema,
        headers: Type.Object({
          prefer: Type.Optional(Type.String({ description: 'wait=N: wait up to N seconds (max 10) for the final state' })),
          'idempotency-key': Type.Optional(Type.String({ description: '8-256 characters; the same key and body within 24 h replays the first answer' })),
          'x-sandbox-scenario': Type.Optional(Type.String({ description: 'Sandbox only: the failure the simulated authority should produce' })),
        }),
        response: {
          201: NfceRecordSchema,
          202: NfceRecordSchema,
          ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const sale = request.body as Sale;
      const rawScenario = request.headers['x-sandbox-scenario'];
      let scenario: string | undefined;
      if (typeof rawScenario === 'string' && rawScenario !== '') {
        if (ctx.config.env !== 'sandbox') throw new ApiError('invalid_request', 'X-Sandbox-Scenario is only accepted in the sandbox');
        if (!SCENARIO.test(rawScenario)) {
          throw new ApiError('validation_error', `Unknown sandbox scenario "${rawScenario}"`, [
            { field: 'header.X-Sandbox-Scenario', message: 'must be reject:<cStat>, deny, timeout, lost-response, unavailable, http-500 or malformed' },
          ]);
        }
        scenario = rawScenario;
      }
      const key = request.headers['idempotency-key'];
      let row = await issueNfce(ctx, request.auth.accountId, sale, {
        scenario,
        idempotencyKey: typeof key === 'string' ? key : undefined,
      });
      const wait = preferWait(request.headers.prefer);
      if (wait !== null) {
        reply.header('Preference-Applied', `wait=${wait}`);
        if (wait > 0) {
          await waitUntilSettled(ctx.db, row.id, wait * 1000);
          row = (await getNfce(ctx.db, request.auth.accountId, row.id))!;
        }
      }
      reply.header('Location', `/v1/nfce/${row.id}`);
      return reply.code(row.status === 'processing' ? 202 : 201).send(present(row));
    },
  );

  app.get(
    '/v1/nfce/:id',
    {
      config: { scope: 'nfce:read' },
      schema: { tags, summary: 'Retrieve an NFC-e', params: IdParams, response: { 200: NfceRecordSchema, ...errorResponses(401, 403, 404, 429) } },
    },
    async (request) => {
      const { id } = request.params as Static<typeof IdParams>;
      const row = await getNfce(ctx.db, request.auth.accountId, id);
      if (!row) throw notFound('NFC-e');
      return present(row);
    },
  );

  app.get(
    '/v1/nfce',
    {
      config: { scope: 'nfce:read' },
      schema: {
        tags,
        summary: 'List NFC-e, newest first',
        description: 'Filters: issuer_id, status, external_ref, created_at[gte] and created_at[lt] (ISO 8601).',
        querystring: NfceListQuery,
        response: { 200: ListOf(NfceRecordSchema, 'NfceList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof NfceListQuery>;
      const limit = q.limit ?? 20;
      const rows = await listNfce(ctx.db, request.auth.accountId, {
        limit: limit + 1,
        issuerId: q.issuer_id,
        status: q.status as NfceStatus | undefined,
        externalRef: q.external_ref,
        createdGte: q['created_at[gte]'] ? new Date(q['created_at[gte]']) : undefined,
        createdLt: q['created_at[lt]'] ? new Date(q['created_at[lt]']) : undefined,
        startingAfter: q.starting_after,
      });
      const p = page(rows, limit);
      return { data: p.data.map(present), has_more: p.has_more };
    },
  );

  app.get(
    '/v1/nfce/:id/events',
    {
      config: { scope: 'nfce:read' },
      schema: {
        tags,
        summary: "The note's history",
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(NfceHistoryEntrySchema), has_more: Type.Boolean() }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { id } = request.params as Static<typeof IdParams>;
      const row = await getNfce(ctx.db, request.auth.accountId, id);
      if (!row) throw notFound('NFC-e');
      const entries = await listHistory(ctx.db, id);
      return { data: entries.map((e) => ({ ...e, at: e.at.toISOString() })), has_more: false };
    },
  );

  app.get(
    '/v1/nfce/:id/xml',
    {
      config: { scope: 'nfce:read' },
      schema: {
        tags,
        summary: 'The distributable XML',
        description: 'nfeProc (signed NFe + protNFe) of an authorized note; `?event=cancellation` gives the procEventoNFe of its cancellation.',
        params: IdParams,
        querystring: Type.Object({ event: Type.Optional(Type.Literal('cancellation')) }, { additionalProperties: false }),
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { id } = request.params as Static<typeof IdParams>;
      const { event } = request.query as { event?: 'cancellation' };
      const row = await getNfce(ctx.db, request.auth.accountId, id, { full: true });
      if (!row) throw notFound('NFC-e');
      const xml = event === 'cancellation' ? row.cancel_proc_xml : row.status === 'authorized' || row.status === 'canceled' ? row.proc_xml : null;
      if (!xml) {
        throw new ApiError(
          'invalid_state',
          event === 'cancellation' ? `NFC-e ${id} has no registered cancellation` : `NFC-e ${id} is ${row.status}; its XML is available once authorized`,
        );
      }
      const name = event === 'cancellation' ? `${row.access_key}-procEventoNFe.xml` : `${row.access_key}-nfeProc.xml`;
      return reply.type('application/xml; charset=utf-8').header('Content-Disposition', `inline; filename="${name}"`).send(xml);
    },
  );

  app.post(
    '/v1/nfce/:id/cancel',
    {
      config: { scope: 'nfce:write' },
      schema: {
        tags,
        summary: 'Cancel an authorized NFC-e',
        description:
          'Sends the cancellation event (110111). A reason under 15 characters is refused here and never sent; a note that ' +
          "is not authorized is 409; past the state's window (30 minutes after authorization) is 422 cancel_window_expired. " +
          'Answers 200 with status canceled when the authority confirms within a few seconds, otherwise 202 with ' +
          'cancellation_pending true while the cancellation finishes in the background.',
        params: IdParams,
        body: CancelBody,
        response: { 200: NfceRecordSchema, 202: NfceRecordSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { id } = request.params as Static<typeof IdParams>;
      const { reason } = request.body as Static<typeof CancelBody>;
      let row = await requestCancellation(ctx, request.auth.accountId, id, reason);
      if (row.status !== 'canceled') {
        await waitUntilCancellationSettled(ctx.db, id, 5_000);
        row = (await getNfce(ctx.db, request.auth.accountId, id))!;
      }
      const pending = row.cancellation !== null && !('protocolo' in row.cancellation);
      return reply.code(row.status === 'canceled' || !pending ? 200 : 202).send(present(row));
    },
  );

  app.get(
    '/v1/nfce/:id/danfe.pdf',
    {
      config: { scope: 'nfce:read' },
      schema: {
        tags,
        summary: 'The DANFE NFC-e (printable receipt, PDF)',
        description:
          'Thermal-roll layout, 80 mm wide by default, `?width=58` for 58 mm rolls; divisions I-IX of the DANFE NFC-e manual, ' +
          "the QR code and the issuer's DANFE settings (logo, color, footer). Available once the note is authorized. " +
          'A logo that cannot be printed (stored by an older version without the checks of today) is left out and the ' +
          'answer carries `X-Danfe-Warning` saying why.',
        params: IdParams,
        querystring: Type.Object({ width: Type.Optional(Type.Union([Type.Literal(80), Type.Literal(58)], { default: 80 })) }, { additionalProperties: false }),
        response: { 200: Type.String({ description: 'application/pdf', format: 'binary' }), ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const { id } = request.params as Static<typeof IdParams>;
      const { width } = request.query as { width?: 80 | 58 };
      const row = await getNfce(ctx.db, request.auth.accountId, id, { full: true });
      if (!row) throw notFound('NFC-e');
      const { pdf, warning } = await renderNoteDanfe(ctx, row, width ?? 80);
      if (warning) {
        request.log.warn({ nfce_id: row.id, issuer_id: row.issuer_id, warning }, 'DANFE printed without the issuer logo');
        reply.header('X-Danfe-Warning', warning);
      }
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="danfe-${row.access_key}.pdf"`)
        .send(pdf);
    },
  );
};
