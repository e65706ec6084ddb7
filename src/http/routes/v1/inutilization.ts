import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { findInutilization, inutilizationXml } from '../../../documents/nfce/services/find-inutilization.js';
import { inutilizeNumbers, type InutilizationModel } from '../../../documents/nfce/services/inutilize-numbers.js';
import { errorResponses } from '../../../kernel/errors.js';
import { requireScope } from '../../plugins/auth.js';
import { sendDocument } from '../../document-reply.js';
import { IdParams, Timestamp } from '../../schemas/common.js';
import { RejectionSchema } from '../../schemas/nfce.js';

const InutilizationBody = Type.Object(
  {
    serie: Type.Integer({ minimum: 0, maximum: 999, examples: [1] }),
    numero_inicial: Type.Integer({ minimum: 1, maximum: 999_999_999, examples: [15] }),
    numero_final: Type.Integer({ minimum: 1, maximum: 999_999_999, examples: [17] }),
    justification: Type.String({ minLength: 15, maxLength: 255, description: 'xJust, 15 to 255 characters', examples: ['Falha no sistema de PDV pulou a numeracao'] }),
  },
  { additionalProperties: false },
);

const InutilizationRecord = Type.Object(
  {
    id: Type.String({ examples: ['inu_5Tq8rS1mKp2WzX9cLb4N'] }),
    object: Type.Literal('inutilization'),
    issuer_id: Type.String(),
    model: Type.Integer({ description: '65 NFC-e (POST /v1/issuers/:id/inutilization) or 55 NF-e (POST /v1/issuers/:id/nfe-inutilization)' }),
    serie: Type.Integer(),
    numero_inicial: Type.Integer(),
    numero_final: Type.Integer(),
    justification: Type.String(),
    status: Type.Union([Type.Literal('voided'), Type.Literal('rejected')]),
    protocolo: Type.Union([Type.String(), Type.Null()]),
    rejection: Type.Union([RejectionSchema, Type.Null()]),
    created_at: Timestamp,
  },
  { title: 'Inutilization' },
);

/** One route per family, as the notes have theirs: the family's own scope, the same body and record. */
const FAMILIES: { path: string; model: InutilizationModel; scope: string; label: string }[] = [
  { path: '/v1/issuers/:id/inutilization', model: 65, scope: 'nfce:write', label: 'NFC-e (model 65)' },
  { path: '/v1/issuers/:id/nfe-inutilization', model: 55, scope: 'nfe:write', label: 'NF-e (model 55)' },
];

/** An inutilization is read with its model's read scope: nfe:read for NF-e (55), nfce:read for NFC-e (65). */
const readScope = (model: number) => FAMILIES.find((f) => f.model === model)?.scope.replace(':write', ':read') ?? 'nfce:read';
const READ_SCOPES = FAMILIES.map((f) => f.scope.replace(':write', ':read'));

export const inutilizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const family of FAMILIES) {
    app.post(
      family.path,
      {
        config: { scope: family.scope },
        schema: {
          tags: ['issuers'],
          summary: `Void a range of ${family.label} numbers that were never used (inutilização)`,
          description:
            `Voids numbers of the issuer's ${family.label} series \`serie\`. ` +
            'Refuses ranges that contain numbers of notes issued through this gateway (422, listing them) and justifications ' +
            "under 15 characters; otherwise sends inutNFe and records the authority's answer: status voided with its protocol, " +
            'or rejected with the reason. Voided numbers are never issued afterwards: a range reaching the next number moves it past the range, ' +
            'a range ahead of it leaves it where it is and is stepped over when reached (GET /v1/issuers/:id/series shows it in voided_ahead). ' +
            'The proof is `GET /v1/inutilizations/:id/xml`.',
          params: IdParams,
          body: InutilizationBody,
          response: { 201: InutilizationRecord, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429, 503) },
        },
      },
      async (request, reply) => {
        const record = await inutilizeNumbers(app.ctx, request.auth.accountId, request.params.id, request.body, family.model);
        return reply.code(201).send(record);
      },
    );
  }
  app.get(
    '/v1/inutilizations/:id',
    {
      config: { scope: READ_SCOPES },
      schema: {
        tags: ['issuers'],
        summary: 'An inutilization: the voided range and the authority\'s answer',
        description: 'The record `POST /v1/issuers/:id/inutilization` answered (status voided with its protocol, or rejected with the reason); search results of type `inutilization` point here.',
        params: IdParams,
        response: { 200: InutilizationRecord, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const record = await findInutilization(app.ctx, request.auth.accountId, request.params.id);
      requireScope(request, readScope(record.model));
      return record;
    },
  );

  app.get(
    '/v1/inutilizations/:id/xml',
    {
      config: { scope: READ_SCOPES },
      schema: {
        tags: ['issuers'],
        summary: 'The proof of a voided range: ProcInutNFe XML',
        description:
          'The ProcInutNFe (procInutNFe_v4.00.xsd) of a voided range, NF-e or NFC-e: the signed inutNFe as sent plus the ' +
          "authority's signed retInutNFe with the protocol: the proof that the range was voided. 409 for a rejected inutilization.",
        params: IdParams,
        response: { 200: Type.String({ description: 'application/xml' }), ...errorResponses(401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      requireScope(request, readScope((await findInutilization(app.ctx, request.auth.accountId, request.params.id)).model));
      const { xml, fileName } = await inutilizationXml(app.ctx, request.auth.accountId, request.params.id);
      return sendDocument(request, reply, { type: 'application/xml; charset=utf-8', fileName, body: xml });
    },
  );
};
