import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SaleSchema } from '../../../documents/nfce/domain/sale.js';
import { issueNfce } from '../../../documents/nfce/services/issue-nfce.js';
import { distributableXml } from '../../../documents/notes/services/distributable-xml.js';
import { findNote } from '../../../documents/notes/services/find-note.js';
import { nfceWithinBound } from '../../../documents/nfce/services/answer-within-bound.js';
import { presentNfce } from '../../../documents/nfce/services/present-nfce.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { CancelBody, NfceRecordSchema } from '../../schemas/nfce.js';
import { requestCancellation } from '../../../documents/notes/services/cancel-note.js';
import { NFCE_FAMILY } from '../../../documents/nfce/services/nfce-family.js';
import { renderNoteDanfe } from '../../../documents/notes/services/render-note-danfe.js';
import { renderNoteEscpos, renderNoteHtml } from '../../../documents/notes/services/render-note-receipt.js';
import { RECEIPT_CSP } from '../../../danfe/html/index.js';
import { sendDocument, sendReceiptPage } from '../../document-reply.js';
import { answerIssued, issueOptions, issueRouteOptions, registerFamilyCancel, registerFamilyReads } from './family-routes.js';

const tags = ['nfce'];

export const nfceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  const present = (row: Parameters<typeof presentNfce>[0]) => presentNfce(row, ctx.config.publicBaseUrl);

  app.post(
    '/v1/nfce',
    issueRouteOptions(app, { object: 'nfce', tags, record: NfceRecordSchema }, {
      summary: 'Issue an NFC-e',
      description:
        'Validates the sale, reserves the next number, builds and signs the NFC-e and queues it for authorization. ' +
        'A second sale with the external_ref of a live note of the same issuer (processing, contingency or authorized) is refused with 409 `duplicate_external_ref`, `details[0].note_id` naming that note, unless `allow_duplicate_external_ref` is true. ' +
        'Answers 202 with status processing at once; with `Prefer: wait=N` (N <= 10) waits up to N seconds for the ' +
        "authority's answer and answers 201 with the final record when it arrives in time; when it does not and the issuer allows " +
        'contingency, the sale is issued in offline contingency (status `contingency`, printable at once, transmitted later). ' +
        'In the sandbox, `X-Sandbox-Scenario` (`reject:<cStat>`, `deny`, `timeout`, `lost-response`, `unavailable`, `http-500`, `malformed`, `async`, `outage:<seconds>[:109|:no-answer]`) makes the simulated authority fail on purpose (or, `async`, answer with a receipt; `outage:60` takes it down for this issuer for 60 s).',
      body: SaleSchema,
    }),
    async (request, reply) => {
      const row = await issueNfce(ctx, request.auth.accountId, request.body, issueOptions(request.headers));
      // Past the bound the sale is issued in offline contingency rather than left waiting.
      return answerIssued(app, reply, { object: 'nfce', family: NFCE_FAMILY, present }, request, row, (r, ms) => nfceWithinBound(ctx, request.auth.accountId, r, ms));
    },
  );

  registerFamilyReads(app, {
    object: 'nfce', family: NFCE_FAMILY, tags, record: NfceRecordSchema, listTitle: 'NfceList', present,
    summaries: { get: 'Retrieve an NFC-e', list: 'List NFC-e, newest first', history: "The note's history" },
  });

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
      const { id } = request.params;
      const { event } = request.query;
      const { xml, fileName } = await distributableXml(ctx, NFCE_FAMILY, request.auth.accountId, id, event);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );

  registerFamilyCancel(app, { object: 'nfce', family: NFCE_FAMILY, tags, record: NfceRecordSchema, present }, {
    summary: 'Cancel an authorized NFC-e',
    description:
      'Sends the cancellation event (110111). A reason under 15 characters is refused here and never sent; a note that ' +
      "is not authorized is 409; past the state's window (30 minutes after authorization) is 422 cancel_window_expired. " +
      'Answers 200 with status canceled when the authority confirms within a few seconds, otherwise 202 with ' +
      'cancellation_pending true while the cancellation finishes in the background.',
    body: CancelBody,
    request: (accountId, id, body) => requestCancellation(ctx, NFCE_FAMILY, accountId, id, body.reason),
  });

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
        // Sent as bytes: documented as a binary string, typed as the Buffer the handler sends.
        response: { 200: Type.Unsafe<Buffer>(Type.String({ description: 'application/pdf', format: 'binary' })), ...errorResponses(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { width } = request.query;
      const row = await findNote(ctx, NFCE_FAMILY, request.auth.accountId, id, { full: true });
      const { pdf, warning } = await renderNoteDanfe(ctx, row, { model: 65, width: width ?? 80 });
      if (warning) {
        request.log.warn({ nfce_id: row.id, issuer_id: row.issuer_id, warning }, 'DANFE printed without the issuer logo');
        reply.header('X-Danfe-Warning', warning);
      }
      return sendDocument(request, reply, { type: 'application/pdf', fileName: `danfe-${row.access_key}.pdf`, body: pdf });
    },
  );

  const RollWidthQuery = Type.Object({ width: Type.Optional(Type.Union([Type.Literal(80), Type.Literal(58)], { default: 80 })) }, { additionalProperties: false });
  const printable =
    'The same content as the PDF, for notes authorized, canceled, or issued in offline contingency (tpEmis 9, before the ' +
    'authority sees it: "EMITIDA EM CONTINGÊNCIA", "Pendente de autorização" and two copies, "Via consumidor" and "Via estabelecimento"). ';

  app.get(
    '/v1/nfce/:id/danfe.escpos',
    {
      config: { scope: 'nfce:read' },
      schema: {
        tags,
        summary: 'The DANFE NFC-e as ESC/POS bytes for a thermal printer',
        description:
          printable +
          'Send the bytes to the printer as they are. 80 mm rolls (48 columns of font A) by default, `?width=58` for 58 mm (32 columns). ' +
          'ESC @, code page PC860 Portuguese (ESC t 3), the QR code as the printer\'s own symbol (GS ( k, model 2, error correction M), a cut (GS V) after each copy. ' +
          'Served as application/octet-stream: raw printer bytes that no client or proxy may re-encode.',
        params: IdParams,
        querystring: RollWidthQuery,
        response: { 200: Type.Unsafe<Buffer>(Type.String({ description: 'application/octet-stream (ESC/POS)', format: 'binary' })), ...errorResponses(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const row = await findNote(ctx, NFCE_FAMILY, request.auth.accountId, request.params.id, { full: true });
      const body = await renderNoteEscpos(ctx, row, request.query.width ?? 80);
      return sendDocument(request, reply, { type: 'application/octet-stream', fileName: `danfe-${row.access_key}.escpos`, body });
    },
  );

  app.get(
    '/v1/nfce/:id/danfe.html',
    {
      config: { scope: 'nfce:read' },
      schema: {
        tags,
        summary: 'The DANFE NFC-e as a self-contained HTML page for browser printing',
        description:
          printable +
          'One page with inline CSS (`@page` as wide as the roll, 80 mm by default or `?width=58`) and the QR code as inline SVG; ' +
          'it loads nothing and runs no script (Content-Security-Policy).',
        params: IdParams,
        querystring: RollWidthQuery,
        response: { 200: Type.String({ description: 'text/html' }), ...errorResponses(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const row = await findNote(ctx, NFCE_FAMILY, request.auth.accountId, request.params.id, { full: true });
      const body = await renderNoteHtml(ctx, row, request.query.width ?? 80);
      return sendReceiptPage(reply, { csp: RECEIPT_CSP, fileName: `danfe-${row.access_key}.html`, body });
    },
  );
};
