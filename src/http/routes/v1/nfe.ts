import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NfeRequestSchema } from '../../../documents/nfe/domain/nfe-request.js';
import { issueNfe } from '../../../documents/nfe/services/issue-nfe.js';
import { NFE_FAMILY } from '../../../documents/nfe/services/nfe-family.js';
import { presentNfe } from '../../../documents/nfe/services/present-nfe.js';
import { requestCancellation } from '../../../documents/notes/services/cancel-note.js';
import { distributableXml } from '../../../documents/notes/services/distributable-xml.js';
import { findNote } from '../../../documents/notes/services/find-note.js';
import { waitUntilCorrectionSettled } from '../../../documents/notes/services/note-settled.js';
import { renderNoteDanfe } from '../../../documents/notes/services/render-note-danfe.js';
import { requestCorrection } from '../../../documents/nfe/services/correct-nfe.js';
import { correctionLetterXml } from '../../../documents/nfe/services/nfe-event-files.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { CancelBody } from '../../schemas/nfce.js';
import { CorrectionBody, NfeRecordSchema } from '../../schemas/nfe.js';
import { sendDocument } from '../../document-reply.js';
import { answerIssued, issueOptions, issueRouteOptions, registerFamilyCancel, registerFamilyReads } from './family-routes.js';

const tags = ['nfe'];

/** NF-e (model 55): issue, read, list, history, XML, cancel. */
export const nfeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  const present = (row: Parameters<typeof presentNfe>[0]) => presentNfe(row, ctx.config.publicBaseUrl);

  app.post(
    '/v1/nfe',
    issueRouteOptions(app, { object: 'nfe', tags, record: NfeRecordSchema }, {
      summary: 'Issue an NF-e (model 55)',
      description:
        'Validates the invoice (recipient, items, taxes, freight, billing, payments; idDest derived from the parties\' states), ' +
        'reserves the next number of the issuer\'s model-55 series, builds and signs the NF-e and queues it for authorization. ' +
        'A second sale with the external_ref of a live note of the same issuer (processing, contingency or authorized) is refused with 409 `duplicate_external_ref`, `details[0].note_id` naming that note, unless `allow_duplicate_external_ref` is true. ' +
        'Totals are computed, never taken from the request. Answers 202 with status processing at once; with `Prefer: wait=N` ' +
        '(N <= 10) waits up to N seconds for the authority and answers 201 with the final record when it arrives in time. ' +
        'In the sandbox, `X-Sandbox-Scenario` (`reject:<cStat>`, `deny`, `timeout`, `lost-response`, `unavailable`, `http-500`, ' +
        '`malformed`, `async`, `outage:<seconds>[:109|:no-answer]`) makes the simulated authority fail on purpose (or, `async`, answer with a receipt to poll; `outage:60` takes it down for this issuer for 60 s).',
      body: NfeRequestSchema,
    }),
    async (request, reply) => {
      const row = await issueNfe(ctx, request.auth.accountId, request.body, issueOptions(request.headers));
      return answerIssued(app, reply, { object: 'nfe', family: NFE_FAMILY, present }, request, row);
    },
  );

  registerFamilyReads(app, {
    object: 'nfe', family: NFE_FAMILY, tags, record: NfeRecordSchema, listTitle: 'NfeList', present,
    summaries: { get: 'Retrieve an NF-e', list: 'List NF-e, newest first', history: "The NF-e's history" },
    descriptions: { get: 'The record, with the correction in force (`correction`, the consolidated text of the last registered letter) and every letter sent.' },
  });

  app.get(
    '/v1/nfe/:id/xml',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: 'The distributable XML',
        description:
          'nfeProc (signed NFe + protNFe) of an authorized NF-e; `?event=cancellation` gives the procEventoNFe of its cancellation, ' +
          '`?event=correction&sequence=N` the procEventoNFe of its correction letter N (the last one by default).',
        params: IdParams,
        querystring: Type.Object(
          {
            event: Type.Optional(Type.Union([Type.Literal('cancellation'), Type.Literal('correction')])),
            sequence: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'nSeqEvento of the correction letter' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { event, sequence } = request.query;
      const { xml, fileName } = event === 'correction'
        ? await correctionLetterXml(ctx, request.auth.accountId, request.params.id, sequence)
        : await distributableXml(ctx, NFE_FAMILY, request.auth.accountId, request.params.id, event);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );

  registerFamilyCancel(app, { object: 'nfe', family: NFE_FAMILY, tags, record: NfeRecordSchema, present }, {
    summary: 'Cancel an authorized NF-e',
    description:
      'Sends the cancellation event (110111). A reason under 15 characters is refused here and never sent; a note that is ' +
      "not authorized is 409; past the state's window (24 hours after authorization) is 422 cancel_window_expired. Answers " +
      '200 with status canceled when the authority confirms within a few seconds, otherwise 202 with cancellation_pending ' +
      'true while the cancellation finishes in the background.',
    body: CancelBody,
    request: (accountId, id, body) => requestCancellation(ctx, NFE_FAMILY, accountId, id, body.reason),
  });

  app.post(
    '/v1/nfe/:id/cce',
    {
      config: { scope: 'nfe:write' },
      schema: {
        tags,
        summary: 'Send a correction letter (CC-e)',
        description:
          'Sends a Carta de Correção (event 110110) for an authorized NF-e. The gateway numbers the letters (1-20) and, since each ' +
          'letter replaces the previous one, sends the consolidated text: by default the corrections in force followed by this one ' +
          '(`mode: "replace"` sends `correction` alone). A correction the conditions of use forbid - values that determine the tax, ' +
          'a change of sender or recipient, the date of issue or departure - is refused with 422 and a message to cancel and ' +
          're-issue. Past 720 hours after authorization, or after 20 letters, 409. Answers 200 with `correction` (the text in ' +
          'force) when the authority registers it within a few seconds, otherwise 202 while it finishes in the background; ' +
          'webhook `nfe.corrected`.',
        params: IdParams,
        body: CorrectionBody,
        response: { 200: NfeRecordSchema, 202: NfeRecordSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await requestCorrection(ctx, request.auth.accountId, id, request.body);
      await waitUntilCorrectionSettled(ctx.db, id, 5_000);
      const row = await findNote(ctx, NFE_FAMILY, request.auth.accountId, id);
      const pending = (row.corrections?.letters ?? []).some((l) => l.status === 'pending');
      return reply.code(pending ? 202 : 200).send(present(row));
    },
  );

  app.get(
    '/v1/nfe/:id/danfe.pdf',
    {
      config: { scope: 'nfe:read' },
      schema: {
        tags,
        summary: 'The DANFE (A4 portrait PDF)',
        description:
          'Canhoto, issuer block with the access key as a Code-128 barcode and in groups of four, authorization protocol, ' +
          'recipient, invoice and installments, taxes, transport, items with continuation pages and additional information; ' +
          "the issuer's DANFE settings (logo, color). Available once the NF-e is authorized (a canceled one is marked), or once the EPEC of an NF-e issued in EPEC is registered (marked as printed in contingency, with the EPEC's protocol). " +
          'Drawn in a worker thread; 503 when every renderer is busy.',
        params: IdParams,
        response: { 200: Type.Unsafe<Buffer>(Type.String({ description: 'application/pdf', format: 'binary' })), ...errorResponses(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const row = await findNote(ctx, NFE_FAMILY, request.auth.accountId, request.params.id, { full: true });
      const { pdf, warning } = await renderNoteDanfe(ctx, row, { model: 55 });
      if (warning) {
        request.log.warn({ nfe_id: row.id, issuer_id: row.issuer_id, warning }, 'DANFE printed without the issuer logo');
        reply.header('X-Danfe-Warning', warning);
      }
      return sendDocument(request, reply, { type: 'application/pdf', fileName: `danfe-${row.access_key}.pdf`, body: pdf });
    },
  );
};
