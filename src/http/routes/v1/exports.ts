import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { downloadExport, listAccountExports, requestExport, showExport } from '../../../platform/exports/manage-exports.js';
import { sendZipStream } from '../../document-reply.js';
import { IdParams } from '../../schemas/common.js';
import { CreateExportBody, ExportList, ExportListQuery, ExportSchema } from '../../schemas/exports.js';

/** A month of an issuer's fiscal XMLs as one ZIP, for the accountant (docs/guides/accountant.md). */
export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['exports'];
  app.post(
    '/v1/exports',
    {
      config: { scope: 'exports:write' },
      schema: {
        tags,
        summary: "Export a month of an issuer's XMLs",
        description:
          'Queues a ZIP of the month\'s XMLs of the issuer, exactly as stored (signatures intact): nfeProc of every authorized, canceled or denied NF-e/NFC-e, ' +
          'the procEventoNFe of each cancellation and CC-e, the NFS-e and their events, ProcInutNFe of the voided ranges, received NF-e, and `manifest.csv` ' +
          '(file, kind, key, model, serie, number, status, issued_at, value, protocol). Follow `progress` with GET /v1/exports/{id}; download when `ready`. ' +
          '`Idempotency-Key` honoured. Roles: owner, admin, developer, accountant.',
        body: CreateExportBody,
        response: { 202: ExportSchema, ...errorResponses(400, 401, 403, 404, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await requestExport(app.ctx, request.auth.accountId, request.auth.session?.userId ?? request.auth.applicationId, request.body)),
  );

  app.get(
    '/v1/exports',
    {
      config: { scope: 'exports:read' },
      schema: { tags, summary: 'The exports, newest first', querystring: ExportListQuery, response: { 200: ExportList, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (request) => listAccountExports(app.ctx, request.auth.accountId, request.query),
  );

  app.get(
    '/v1/exports/:id',
    {
      config: { scope: 'exports:read' },
      schema: {
        tags,
        summary: 'An export: status and progress',
        description: '`progress.files_done` of `progress.files_total`; `download_url` once `ready`; `error` when `failed`.',
        params: IdParams,
        response: { 200: ExportSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => showExport(app.ctx, request.auth.accountId, request.params.id),
  );

  app.get(
    '/v1/exports/:id/download',
    {
      config: { scope: 'exports:read' },
      schema: {
        tags,
        summary: 'Download the ZIP',
        description: 'The ZIP (application/zip), streamed from storage; the `X-Content-SHA256` header carries its SHA-256 (hex). 409 until the export is ready.',
        params: IdParams,
        response: { 200: Type.String({ description: 'application/zip' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => sendZipStream(reply, await downloadExport(app.ctx, request.auth.accountId, request.params.id)),
  );
};
