import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from 'typebox';
import { findNote, listNotesPage, noteHistory, noteWhenCancellationSettled, noteWhenSettled } from '../../../documents/notes/services/find-note.js';
import { preferWait } from './prefer-wait.js';
import type { NoteFamily } from '../../../documents/notes/services/note-family.js';
import type { Note } from '../../../documents/notes/domain/note.js';
import { errorResponses } from '../../../kernel/errors.js';
import { preferredLanguage } from '../../accept-language.js';
import { HISTORY_CATALOG_PT_BR } from '../../i18n/history-pt-br.js';
import { IdParams, ListOf } from '../../schemas/common.js';
import { NfceHistoryEntrySchema, NfceListQuery, type CancelBody } from '../../schemas/nfce.js';
import type { NfseCancelBody } from '../../schemas/nfse.js';
import { SandboxScenarioHeader, sandboxScenarioValidator } from './sandbox-scenario-header.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** What the three document families (NFC-e, NF-e, NFS-e) say alike about their notes. */
export interface FamilyRoutes {
  /** The path segment and the scope prefix: nfce, nfe, nfse. */
  object: 'nfce' | 'nfe' | 'nfse';
  family: NoteFamily;
  tags: string[];
  record: TSchema;
  /** The list schema's title (NfceList, NfeList, NfseList). */
  listTitle: string;
  present: (row: Note) => unknown;
  summaries: { get: string; list: string; history: string };
  descriptions?: { get?: string; history?: string };
}

/**
 * GET /v1/{object}/:id, GET /v1/{object} (newest first, filtered) and GET /v1/{object}/:id/events:
 * the same three reads for every family, registered here once.
 */
export function registerFamilyReads(app: App, f: FamilyRoutes): void {
  const { ctx } = app;
  const base = `/v1/${f.object}`;
  app.get(
    `${base}/:id`,
    {
      config: { scope: `${f.object}:read` },
      schema: {
        tags: f.tags, summary: f.summaries.get, ...(f.descriptions?.get ? { description: f.descriptions.get } : {}), params: IdParams,
        response: { 200: f.record, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => f.present(await findNote(ctx, f.family, request.auth.accountId, request.params.id)),
  );

  app.get(
    base,
    {
      config: { scope: `${f.object}:read` },
      schema: {
        tags: f.tags,
        summary: f.summaries.list,
        description: 'Filters: issuer_id, status, external_ref, created_at[gte] and created_at[lt] (ISO 8601).',
        querystring: NfceListQuery,
        response: { 200: ListOf(f.record, f.listTitle), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const p = await listNotesPage(ctx, f.family, request.auth.accountId, request.query);
      return { data: p.data.map(f.present), has_more: p.has_more };
    },
  );

  app.get(
    `${base}/:id/events`,
    {
      config: { scope: `${f.object}:read` },
      schema: {
        tags: f.tags, summary: f.summaries.history, ...(f.descriptions?.history ? { description: f.descriptions.history } : {}), params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(NfceHistoryEntrySchema), has_more: Type.Boolean() }), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const lines = await noteHistory(ctx, f.family, request.auth.accountId, request.params.id);
      const vary = reply.getHeader('vary');
      reply.header('Vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
      if (preferredLanguage(request.headers['accept-language']) !== 'pt-BR') return { data: lines, has_more: false };
      // The lines the gateway wrote in English, said in pt-BR (history-pt-br.ts); the authority's own stay as written.
      reply.header('Content-Language', 'pt-BR');
      return { data: lines.map((l) => (l.message ? { ...l, message: HISTORY_CATALOG_PT_BR.translate(l.message) ?? l.message } : l)), has_more: false };
    },
  );
}

/** The headers every family's POST of a new document takes: the wait, the idempotency key and, in the sandbox, the failure to produce. */
export const IssueHeaders = Type.Object({
  prefer: Type.Optional(Type.String({ description: 'wait=N: wait up to N seconds (max 10) for the final state' })),
  'idempotency-key': Type.Optional(Type.String({ description: '8-256 characters; the same key and body within 24 h replays the first answer' })),
  'x-sandbox-scenario': SandboxScenarioHeader,
});

/**
 * The route options of POST /v1/{object}, alike for every family but the body and the words: the scope, the sandbox
 * scenario's validator, the issue headers and the answers (201 final, 202 processing). Generic over the body so the
 * route's handler gets the family's request type.
 */
export function issueRouteOptions<B extends TSchema, R extends TSchema>(
  app: App,
  f: { object: FamilyRoutes['object']; tags: string[]; record: R },
  c: { summary: string; description: string; body: B },
) {
  return {
    config: { scope: `${f.object}:write` },
    validatorCompiler: sandboxScenarioValidator(app.ctx.config.env),
    schema: {
      tags: f.tags,
      summary: c.summary,
      description: c.description,
      body: c.body,
      headers: IssueHeaders,
      response: { 201: f.record, 202: f.record, ...errorResponses(400, 401, 402, 403, 409, 413, 415, 422, 429) },
    },
  };
}

/** What those headers ask of the use case; an empty scenario is none. */
export function issueOptions(headers: { 'idempotency-key'?: string | string[] | undefined; 'x-sandbox-scenario'?: string | undefined }): { scenario: string | undefined; idempotencyKey: string | undefined } {
  const key = headers['idempotency-key'];
  return { scenario: headers['x-sandbox-scenario'] || undefined, idempotencyKey: typeof key === 'string' ? key : undefined };
}

/**
 * POST /v1/{object}/:id/cancel: each family has its own body and use case (the NFS-e's event carries a reason
 * code) and says its own window, but asks the same scope and answers alike (answerCancellation).
 */
export function registerFamilyCancel(
  app: App,
  f: Pick<FamilyRoutes, 'object' | 'family' | 'tags' | 'record' | 'present'>,
  c: {
    summary: string;
    description: string;
    body: typeof CancelBody | typeof NfseCancelBody;
    /** The NF-e and NFC-e body (a reason) is the NFS-e's without its optional reason code. */
    request: (accountId: string, id: string, body: Static<typeof NfseCancelBody>) => Promise<Note>;
  },
): void {
  app.post(
    `/v1/${f.object}/:id/cancel`,
    {
      config: { scope: `${f.object}:write` },
      schema: {
        tags: f.tags, summary: c.summary, description: c.description, params: IdParams, body: c.body,
        response: { 200: f.record, 202: f.record, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const requested = await c.request(request.auth.accountId, request.params.id, request.body);
      return answerCancellation(app, reply, f, request.auth.accountId, requested);
    },
  );
}

/**
 * The answer to a cancellation request, alike for every family: wait a few seconds for the authority,
 * then 200 with the canceled (or refused: still authorized) note, or 202 with cancellation_pending.
 */
export async function answerCancellation(app: App, reply: FastifyReply, f: Pick<FamilyRoutes, 'family' | 'present'>, accountId: string, requested: Note): Promise<FastifyReply> {
  const row = requested.status === 'canceled' ? requested : await noteWhenCancellationSettled(app.ctx, f.family, accountId, requested.id, 5_000);
  const pending = row.cancellation !== null && !('protocolo' in row.cancellation);
  return reply.code(row.status === 'canceled' || !pending ? 200 : 202).send(f.present(row));
}

/**
 * The answer to a new document, alike for every family: with `Prefer: wait=N` (N <= 10) wait up to N
 * seconds for the final state (the NFC-e passes its own wait, which turns to offline contingency past
 * the bound), then 201 with the final record or 202 while it is processing, `Location` naming it.
 */
export async function answerIssued(
  app: App,
  reply: FastifyReply,
  f: Pick<FamilyRoutes, 'object' | 'family' | 'present'>,
  request: { headers: { prefer?: string | undefined }; auth: { accountId: string } },
  issued: Note,
  waitFor: (row: Note, ms: number) => Promise<Note> = (row, ms) => noteWhenSettled(app.ctx, f.family, request.auth.accountId, row.id, ms),
): Promise<FastifyReply> {
  let row = issued;
  const wait = preferWait(request.headers.prefer);
  if (wait !== null) {
    reply.header('Preference-Applied', `wait=${wait}`);
    if (wait > 0) row = await waitFor(row, wait * 1000);
  }
  reply.header('Location', `/v1/${f.object}/${row.id}`);
  return reply.code(row.status === 'processing' ? 202 : 201).send(f.present(row));
}
