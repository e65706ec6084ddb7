import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';
import { receiveOfflineNfce, type OfflineNfceBody as OfflineBody } from '../../../documents/nfce/services/receive-offline-nfce.js';
import { presentNfce } from '../../../documents/nfce/services/present-nfce.js';
import { errorResponses } from '../../../kernel/errors.js';
import { OfflineNfceBody, OfflineSaleBody, OfflineXmlBody } from '../../schemas/nfce-offline.js';
import { NfceRecordSchema } from '../../schemas/nfce.js';
import { validatorCompiler } from '../../validation.js';
import { SandboxScenarioHeader, sandboxScenarioValidator } from './sandbox-scenario-header.js';

const tags = ['nfce'];

/**
 * The body is one of two forms; ajv's anyOf would report every mismatch of both. The form is told by
 * its `xml` field and only that form's problems are answered, each naming its field.
 */
function offlineValidator(env: Parameters<typeof sandboxScenarioValidator>[0]): FastifySchemaCompiler<unknown> {
  const others = sandboxScenarioValidator(env);
  return (req) => {
    if (req.httpPart !== 'body') return others(req);
    const xmlForm = validatorCompiler({ ...req, schema: OfflineXmlBody });
    const saleForm = validatorCompiler({ ...req, schema: OfflineSaleBody });
    return (body: unknown) => (body !== null && typeof body === 'object' && 'xml' in body ? xmlForm(body) : saleForm(body));
  };
}

export const nfceOfflineRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  app.post(
    '/v1/nfce/offline',
    {
      config: { scope: 'nfce:write' },
      validatorCompiler: offlineValidator(ctx.config.env),
      schema: {
        tags,
        summary: 'Hand over an NFC-e the point of sale issued offline',
        description:
          'For a point of sale that lost its own internet and issued the NFC-e itself in offline contingency (tpEmis 9, ' +
          'dhCont/xJust, its own series, number and cNF, the offline QR code) and printed it. Send either `{xml}` - the NFe as ' +
          'signed with the issuer certificate and printed (kept byte for byte after its signature verifies; an absent ' +
          'infNFeSupl is computed), or unsigned (the gateway signs it with the issuer certificate; a QR code already in it ' +
          'must be the one that signature gives) - or the sale JSON of POST /v1/nfce plus `offline` {serie, number, cnf, issued_at, ' +
          'contingency_at, reason}: the gateway builds and signs the document with exactly those values, so its access key ' +
          'is the one printed. The XML is the one NFe element (an XML declaration aside): a comment, processing instruction, ' +
          'DOCTYPE or anything beside NFe is 422 on xml; every fact is read from the signed tree. ' +
          'Everything is checked first (422 naming the field); the note is stored in status contingency ' +
          'and transmitted in the background (then authorized or rejected; webhooks nfce.contingency_authorized / ' +
          'nfce.contingency_failed). The same access key sent again answers 200 with the same note; another key for a ' +
          'number already held is 409. The series must be the point of sale\'s own, not the gateway\'s series 1. ' +
          'Past the 24-hour deadline the note is still accepted (`contingency.late`): the authority may answer 150.',
        body: OfflineNfceBody,
        headers: Type.Object({
          'idempotency-key': Type.Optional(Type.String({ description: '8-256 characters; the same key answers the note it made' })),
          'x-sandbox-scenario': SandboxScenarioHeader,
        }),
        response: {
          200: NfceRecordSchema,
          201: NfceRecordSchema,
          ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'];
      const { row, created } = await receiveOfflineNfce(ctx, request.auth.accountId, request.body as OfflineBody, {
        idempotencyKey: typeof key === 'string' ? key : undefined,
        scenario: request.headers['x-sandbox-scenario'] || undefined,
      });
      reply.header('Location', `/v1/nfce/${row.id}`);
      return reply.code(created ? 201 : 200).send(presentNfce(row, ctx.config.publicBaseUrl));
    },
  );
};
