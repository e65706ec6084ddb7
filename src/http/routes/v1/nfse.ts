import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NfseRequestSchema } from '../../../documents/nfse/domain/nfse-request.js';
import { requestNfseCancellation } from '../../../documents/nfse/services/cancel-nfse.js';
import { issueNfse } from '../../../documents/nfse/services/issue-nfse.js';
import { NFSE_FAMILY } from '../../../documents/nfse/services/nfse-family.js';
import { nfseXml } from '../../../documents/nfse/services/nfse-files.js';
import { presentNfse } from '../../../documents/nfse/services/present-nfse.js';
import { findNote } from '../../../documents/notes/services/find-note.js';
import { renderNoteDanfe } from '../../../documents/notes/services/render-note-danfe.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { NfseCancelBody, NfseRecordSchema } from '../../schemas/nfse.js';
import { sendDocument } from '../../document-reply.js';
import { answerIssued, issueOptions, issueRouteOptions, registerFamilyCancel, registerFamilyReads } from './family-routes.js';

const tags = ['nfse'];

/** NFS-e (Padrão Nacional, DPS to Sefin Nacional): issue, read, list, history, XML, DANFSe, cancel. */
export const nfseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  const present = (row: Parameters<typeof presentNfse>[0]) => presentNfse(row, ctx.config.publicBaseUrl);

  app.post(
    '/v1/nfse',
    issueRouteOptions(app, { object: 'nfse', tags, record: NfseRecordSchema }, {
      summary: 'Issue an NFS-e (national standard)',
      description:
        'A second sale with the external_ref of a live note of the same issuer (processing, contingency or authorized) is refused with 409 `duplicate_external_ref`, `details[0].note_id` naming that note, unless `allow_duplicate_external_ref` is true. ' +
        'Validates the service invoice (provider from the issuer and its `nfse` settings, taker, intermediary, service codes, ' +
        'ISSQN, federal withholdings, IBS/CBS) against every Anexo I rule that needs no Sefin register, reserves the next DPS ' +
        "number of the issuer's series, builds and signs the DPS (its 45-character Id is the recovery handle), checks it against " +
        'the national XSD and queues it for Sefin Nacional. Answers 202 with status processing at once; with `Prefer: wait=N` ' +
        '(N <= 10) waits up to N seconds and answers 201 with the authorized NFS-e (50-digit key, number) when Sefin answers in ' +
        'time. `substitutes` replaces an authorized NFS-e: Sefin cancels it by substitution (105102). In the sandbox, ' +
        '`X-Sandbox-Scenario` (`reject:E0xxx`, `refuse-profile:rsa-sha1-c14n`, `throttle`, `timeout`, `lost-response`, `http-500`) ' +
        'makes the simulated Sefin fail on purpose.',
      body: NfseRequestSchema,
    }),
    async (request, reply) => {
      const row = await issueNfse(ctx, request.auth.accountId, request.body, issueOptions(request.headers));
      return answerIssued(app, reply, { object: 'nfse', family: NFSE_FAMILY, present }, request, row);
    },
  );

  registerFamilyReads(app, {
    object: 'nfse', family: NFSE_FAMILY, tags, record: NfseRecordSchema, listTitle: 'NfseList', present,
    summaries: { get: 'Retrieve an NFS-e', list: 'List NFS-e, newest first', history: "The NFS-e's history" },
    descriptions: { history: 'created, transmitted, consulted (DPS looked up by its Id), authority_throttled (429), authority_in_doubt, authorized, rejected, cancellation_requested, canceled ...' },
  });

  app.get(
    '/v1/nfse/:id/xml',
    {
      config: { scope: 'nfse:read' },
      schema: {
        tags,
        summary: 'The NFS-e XML',
        description: 'The NFS-e as Sefin authorized and signed it (the signed DPS inside); `?event=cancellation` gives the registered cancellation event (101101, or 105102 for a substitution).',
        params: IdParams,
        querystring: Type.Object({ event: Type.Optional(Type.Literal('cancellation')) }, { additionalProperties: false }),
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { xml, fileName } = await nfseXml(ctx, request.auth.accountId, request.params.id, request.query.event);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );

  registerFamilyCancel(app, { object: 'nfse', family: NFSE_FAMILY, tags, record: NfseRecordSchema, present }, {
    summary: 'Cancel an authorized NFS-e',
    description:
      'Sends the cancellation event e101101 (signed pedRegEvento, Id PRE + key + 101101) to Sefin Nacional. A reason outside ' +
      '15-255 characters is refused here; a note that is not authorized is 409. The deadline and value ceiling are the ' +
      "municipality's (E0822, E0823): Sefin's refusal is kept in the history and the note stays authorized. Answers 200 when " +
      'Sefin registers it within a few seconds, otherwise 202 with cancellation_pending true. To replace the NFS-e instead, ' +
      'issue a new one with `substitutes`.',
    body: NfseCancelBody,
    request: (accountId, id, body) => requestNfseCancellation(ctx, accountId, id, { reasonCode: body.reason_code ?? 1, reason: body.reason }),
  });

  app.get(
    '/v1/nfse/:id/danfse.pdf',
    {
      config: { scope: 'nfse:read' },
      schema: {
        tags,
        summary: 'The DANFSe (A4 PDF)',
        description:
          "The national DANFSe drawn by the gateway (Sefin's DANFSe service was shut down, FACTS 16.8): key, numbers, provider, " +
          'taker, intermediary, service, ISSQN, federal taxes, totals and a QR code with the public consultation link. Available ' +
          "once authorized; a canceled NFS-e is marked; the issuer's DANFE settings (logo, color) apply. Drawn in a worker " +
          'thread; 503 when every renderer is busy.',
        params: IdParams,
        response: { 200: Type.Unsafe<Buffer>(Type.String({ description: 'application/pdf', format: 'binary' })), ...errorResponses(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const row = await findNote(ctx, NFSE_FAMILY, request.auth.accountId, request.params.id, { full: true });
      const { pdf, warning } = await renderNoteDanfe(ctx, row, { model: 99 });
      if (warning) {
        request.log.warn({ nfse_id: row.id, issuer_id: row.issuer_id, warning }, 'DANFSe printed without the issuer logo');
        reply.header('X-Danfe-Warning', warning);
      }
      return sendDocument(request, reply, { type: 'application/pdf', fileName: `danfse-${row.nfse_key}.pdf`, body: pdf });
    },
  );
};
