import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { SCOPES } from '../../../infra/identity/scopes.js';
import { presentApplication } from '../../../platform/applications/application-view.js';
import {
  createApplication,
  listApplicationPage,
  revokeApplicationKeys,
  rotateApplication,
} from '../../../platform/applications/manage-applications.js';
import { errorResponses } from '../../../kernel/errors.js';
import { IdParams, ListOf, ListQuery, StringLiterals, Timestamp } from '../../schemas/common.js';

const ScopeSchema = StringLiterals(
  SCOPES,
  { description: '`<resource>:write` includes `<resource>:read`; `*` is every scope' },
);

const Application = Type.Object(
  {
    id: Type.String({ examples: ['app_2Yb8kQ1xRz7tLm4NcP0v'] }),
    object: Type.Literal('application'),
    name: Type.String(),
    scopes: Type.Array(Type.String()),
    key_prefix: Type.String({ description: 'First characters of the current key, to recognise it' }),
    created_at: Timestamp,
    rotated_at: Type.Union([Timestamp, Type.Null()]),
    previous_key_expires_at: Type.Union([Timestamp, Type.Null()], {
      description: 'Until when the key replaced by the last rotation keeps working',
    }),
  },
  { title: 'Application' },
);

const ApplicationWithKey = Type.Intersect([
  Application,
  Type.Object({ key: Type.String({ description: 'The API key. Shown only in this answer: store it now.' }) }),
], { title: 'ApplicationWithKey' });

const CreateApplication = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, examples: ['Checkout POS'] }),
    scopes: Type.Array(ScopeSchema, { minItems: 1, uniqueItems: true, examples: [['nfce:write', 'issuers:read']] }),
  },
  { additionalProperties: false },
);

export const applicationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['applications'];

  app.get(
    '/v1/applications',
    {
      config: { scope: 'applications:read' },
      schema: { tags, summary: 'List applications (API keys)', querystring: ListQuery, response: { 200: ListOf(Application, 'ApplicationList'), ...errorResponses(401, 403, 422, 429) } },
    },
    async (request) => {
      const q = request.query;
      const p = await listApplicationPage(app.ctx, request.auth.accountId, q.limit ?? 20, q.starting_after);
      return { data: p.data.map(presentApplication), has_more: p.has_more };
    },
  );

  app.post(
    '/v1/applications',
    {
      // A new key outlives the session that made it: a session needs a recent proof.
      config: { scope: 'applications:write', stepUp: true },
      schema: {
        tags,
        summary: 'Create an application and its API key',
        description: 'The key is returned once. Nobody gives a key scopes they do not hold: a key is bounded by the calling key\'s scopes, a session by its role\'s (403 `exceeds_own_rights`, naming the excess).',
        body: CreateApplication,
        response: { 201: ApplicationWithKey, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const { row, key } = await createApplication(app.ctx, request.auth, request.body);
      return reply.code(201).send({ ...presentApplication(row), key });
    },
  );

  app.delete(
    '/v1/applications/:id',
    {
      config: { scope: 'applications:write' },
      schema: {
        tags,
        summary: 'Revoke an application: its keys stop working at once',
        description: 'The calling key must cover every scope of the revoked one (403 otherwise).',
        params: IdParams,
        response: { 200: Type.Object({ id: Type.String(), object: Type.Literal('application'), deleted: Type.Literal(true) }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await revokeApplicationKeys(app.ctx, request.auth, id);
      app.forgetApiKeys();
      return { id, object: 'application' as const, deleted: true as const };
    },
  );

  app.post(
    '/v1/applications/:id/rotate',
    {
      config: { scope: 'applications:write', stepUp: true },
      schema: {
        tags,
        summary: 'Rotate an application key',
        description:
          'Issues a new key (shown once). The previous key keeps working for a grace period ' +
          '(KEY_ROTATION_GRACE_SECONDS, default 24 hours; see previous_key_expires_at) so deployments can switch without downtime.',
        params: IdParams,
        response: { 200: ApplicationWithKey, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { row, key } = await rotateApplication(app.ctx, request.auth, id);
      app.forgetApiKeys();
      return { ...presentApplication(row), key };
    },
  );
};
