import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from 'typebox';
import { generateApiKey, hashApiKey, keyPrefix } from '../../../platform/identity/api-key.js';
import { SCOPES, missingScopes } from '../../../platform/identity/scopes.js';
import { newId } from '../../../kernel/ids.js';
import {
  getApplication,
  insertApplication,
  listApplications,
  revokeApplication,
  rotateApplicationKey,
  type ApplicationRow,
} from '../../../platform/storage/repositories/application-repository.js';
import { ApiError, errorResponses, notFound } from '../../../kernel/errors.js';
import { IdParams, ListOf, ListQuery, Timestamp } from '../../schemas/common.js';
import { page } from '../../../kernel/page.js';

const ScopeSchema = Type.Union(
  SCOPES.map((s) => Type.Literal(s)),
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

/**
 * Every operation on a key (create, rotate, revoke) needs the caller to cover the key's scopes
 * (issue 12 item 7): otherwise a narrow key could take a broader one away or obtain its successor.
 */
function requireCovers(granted: readonly string[], target: readonly string[], action: string): void {
  const missing = missingScopes(granted, target);
  if (missing.length === 0) return;
  throw new ApiError(
    'forbidden',
    `A key can only ${action} keys within its own scopes; this key lacks ${missing.map((s) => `"${s}"`).join(', ')}`,
  );
}

function present(row: ApplicationRow): Static<typeof Application> {
  return {
    id: row.id,
    object: 'application',
    name: row.name,
    scopes: row.scopes,
    key_prefix: row.key_prefix,
    created_at: row.created_at.toISOString(),
    rotated_at: row.rotated_at?.toISOString() ?? null,
    previous_key_expires_at: row.previous_key_expires_at?.toISOString() ?? null,
  };
}

export const applicationRoutes: FastifyPluginAsync = async (app) => {
  const tags = ['applications'];

  app.get(
    '/v1/applications',
    {
      config: { scope: 'applications:read' },
      schema: { tags, summary: 'List applications (API keys)', querystring: ListQuery, response: { 200: ListOf(Application, 'ApplicationList'), ...errorResponses(401, 403, 422, 429) } },
    },
    async (request) => {
      const q = request.query as Static<typeof ListQuery>;
      const limit = q.limit ?? 20;
      const rows = await listApplications(app.ctx.db, request.auth.accountId, limit + 1, q.starting_after);
      const p = page(rows, limit);
      return { data: p.data.map(present), has_more: p.has_more };
    },
  );

  app.post(
    '/v1/applications',
    {
      config: { scope: 'applications:write' },
      schema: {
        tags,
        summary: 'Create an application and its API key',
        description: 'The key is returned once. A key cannot grant scopes beyond those of the key that creates it.',
        body: CreateApplication,
        response: { 201: ApplicationWithKey, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CreateApplication>;
      requireCovers(request.auth.scopes, body.scopes, 'create');
      const key = generateApiKey(app.ctx.config.env);
      const row = await insertApplication(app.ctx.db, {
        id: newId('app'),
        accountId: request.auth.accountId,
        name: body.name,
        scopes: body.scopes,
        keyHash: hashApiKey(key),
        keyPrefix: keyPrefix(key),
      });
      return reply.code(201).send({ ...present(row), key });
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
      const { id } = request.params as Static<typeof IdParams>;
      // Scopes never change after creation, so checking them before the revoke leaves no race.
      const existing = await getApplication(app.ctx.db, request.auth.accountId, id);
      if (!existing) throw notFound('Application');
      requireCovers(request.auth.scopes, existing.scopes, 'revoke');
      if (!(await revokeApplication(app.ctx.db, request.auth.accountId, id, app.ctx.clock.now()))) throw notFound('Application');
      app.forgetApiKeys();
      return { id, object: 'application' as const, deleted: true as const };
    },
  );

  app.post(
    '/v1/applications/:id/rotate',
    {
      config: { scope: 'applications:write' },
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
      const { id } = request.params as Static<typeof IdParams>;
      const { db, clock, config } = app.ctx;
      const existing = await getApplication(db, request.auth.accountId, id);
      if (!existing) throw notFound('Application');
      requireCovers(request.auth.scopes, existing.scopes, 'rotate');
      const key = generateApiKey(config.env);
      const now = clock.now();
      const row = await rotateApplicationKey(
        db, request.auth.accountId, id, hashApiKey(key), keyPrefix(key), now,
        new Date(now.getTime() + config.keyRotationGraceSeconds * 1000),
      );
      if (!row) throw notFound('Application');
      app.forgetApiKeys();
      return { ...present(row), key };
    },
  );
};
