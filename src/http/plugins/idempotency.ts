import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../kernel/errors.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { canonicalRoutePath } from '../route-path.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  readIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyScope,
} from '../../infra/storage/repositories/idempotency-repository.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH']);
// docs/guides/api.md#contract-idempotency: 8 to 256 characters; visible ASCII so the key survives every HTTP stack unchanged.
const KEY_PATTERN = /^[\x21-\x7e]{8,256}$/;
const POLL_MS = 25;
// Headers worth replaying; the rate-limit and request-id headers describe the new request instead.
const REPLAYED_HEADERS = ['content-type', 'location', 'preference-applied'];

export interface IdempotencyOptions {
  /** How long a duplicate waits for the first request to finish before 409 idempotency_in_progress. */
  waitMs?: number;
}

/**
 * docs/guides/api.md#contract-idempotency / docs/decisions.md#api-conventions idempotency: scope = account + method + route path (canonicalRoutePath) + key; body hash = SHA-256 of the
 * canonical JSON; the first answer (status, body, headers that matter) is replayed for 24 hours with
 * `Idempotency-Replay: true`. Durable in PostgreSQL, so it holds across processes.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, opts: IdempotencyOptions) => {
    const waitMs = opts.waitMs ?? 15_000;
    app.decorateRequest('idempotency', null);
    app.decorateRequest('idempotencyAnswer', null);

    /**
     * Claims the request's Idempotency-Key for a body hash, or answers for it: replay of the first
     * answer, 422 on another body, 409 while the first request is still running. True when the
     * handler may run; false when the reply was sent. No key: true.
     */
    async function claim(request: FastifyRequest, reply: FastifyReply, bodyHash: string): Promise<boolean> {
      if (!MUTATING.has(request.method)) return true; // docs/guides/api.md#contract-idempotency: ignored on GET
      const raw = request.headers['idempotency-key'];
      if (raw === undefined) return true;
      const key = Array.isArray(raw) ? raw[0]! : raw;
      // A malformed key is refused on every mutating route, the public ones (sign-up, sign-in) included.
      if (!KEY_PATTERN.test(key)) {
        throw new ApiError(
          'idempotency_key_invalid',
          'Idempotency-Key must be 8 to 256 visible ASCII characters (a UUID works well)',
          [{ field: 'header.Idempotency-Key', message: `has ${key.length} characters or characters outside visible ASCII` }],
        );
      }
      // A public route has no account to scope a key to. Only one whose answer is
      // the same for every caller and holds no secret (config.publicIdempotency: the password-reset
      // request) stores it, scoped by the body itself, so a key replays only to a caller who sends
      // that very body, and another body is a new request rather than a conflict (a 422 would tell a
      // stranger the key was used with another address). The others open a session or spend a
      // one-time token: a stored answer would keep live session tokens in clear for 24 hours (the
      // sessions table keeps only hashes) and a replay would hand them to whoever repeats the
      // request, past the refresh token's reuse detection. There the key is checked, not stored
      // (docs/guides/api.md, Idempotency).
      if (!request.auth && !request.routeOptions.config?.publicIdempotency) return true;
      const scope: IdempotencyScope = {
        accountId: request.auth ? request.auth.accountId : `public:${bodyHash}`,
        method: request.method,
        // The matched route with its decoded parameters, not the raw URL: every spelling of one route
        // shares the key. For the URLs clients send (plain ids, no percent-escapes)
        // this is the very string the raw URL gave, so keys claimed before this change still match;
        // a key first used on an escaped spelling stays under that spelling until it expires (24 h)
        // and cannot be replayed from the canonical path meanwhile.
        path: canonicalRoutePath(request.routeOptions.url, request.params, request.url),
        key,
      };
      const { db, clock, config } = app.ctx;
      const deadline = Date.now() + waitMs;
      for (;;) {
        const now = clock.now();
        const claimed = await claimIdempotencyKey(
          db,
          scope,
          bodyHash,
          now,
          new Date(now.getTime() + config.idempotencyTtlSeconds * 1000),
          // A claim older than this belongs to a process that died mid-request; another may take it over.
          new Date(now.getTime() + config.idempotencyLockSeconds * 1000),
        );
        if (claimed) {
          request.idempotency = scope;
          return true;
        }
        const rec = await readIdempotencyKey(db, scope);
        if (!rec) continue; // released between our two statements: claim again
        if (rec.body_hash !== bodyHash) {
          throw new ApiError(
            'idempotency_conflict',
            `Idempotency-Key "${key}" was already used on ${scope.method} ${scope.path} with a different body; ` +
              'send the identical body to get the original answer, or use a new key for a new request',
          );
        }
        if (rec.state === 'completed' && rec.response_status !== null) {
          reply.headers(rec.response_headers ?? {});
          reply.header('Idempotency-Replay', 'true');
          void reply.code(rec.response_status).send(rec.response_body ?? '');
          return false;
        }
        if (Date.now() >= deadline) {
          throw new ApiError(
            'idempotency_in_progress',
            `A request with Idempotency-Key "${key}" is still being processed; retry shortly to get its answer`,
            undefined,
            { 'Retry-After': '1' },
          );
        }
        await sleep(POLL_MS);
      }
    }
    app.decorateRequest('claimIdempotency', function (this: FastifyRequest, reply: FastifyReply, bodyHash: string) {
      return claim(this, reply, bodyHash);
    });

    // preValidation: docs/guides/api.md#contract-idempotency holds even when the second body would also fail validation.
    // A route whose body is a stream its handler reads (config.idempotencyInHandler) claims from the
    // handler instead, once it knows what the body holds.
    app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.routeOptions.config?.idempotencyInHandler) return;
      if (!(await claim(request, reply, sha256Hex(canonicalJson(request.body ?? null))))) return reply;
    });

    // The answer is captured as it leaves and recorded once it has left: the client does not wait
    // for the bookkeeping. A retry arriving in between finds the key in progress and waits for the
    // record (POLL_MS); a record lost to a crash in between is the same case as a crash right after
    // the handler's own writes (the claim's lock passes, the retry runs the handler again, and the
    // handler's writes say what was done: a note stored under the key is the answer).
    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const scope = request.idempotency;
      if (!scope) return payload;
      if (reply.statusCode >= 500 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
        request.idempotencyAnswer = null;
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const h of REPLAYED_HEADERS) {
        const v = reply.getHeader(h);
        if (v !== undefined) headers[h] = String(v);
      }
      request.idempotencyAnswer = { status: reply.statusCode, headers, body: payload.toString() };
      return payload;
    });

    app.addHook('onResponse', async (request: FastifyRequest) => {
      const scope = request.idempotency;
      if (!scope) return;
      request.idempotency = null;
      const answer = request.idempotencyAnswer;
      const { db } = app.ctx;
      if (!answer) await releaseIdempotencyKey(db, scope);
      else await completeIdempotencyKey(db, scope, answer.status, answer.headers, answer.body);
    });
  },
  { name: 'idempotency', dependencies: ['auth'] },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The handler reads the body as a stream and calls request.claimIdempotency itself. */
    idempotencyInHandler?: boolean;
    /** A public route whose answer holds no secret and is the same for everyone: its key is stored, scoped by the body. */
    publicIdempotency?: boolean;
  }
  interface FastifyRequest {
    idempotency: IdempotencyScope | null;
    /** See the idempotency plugin's claim(): for handlers that read a streamed body themselves. */
    claimIdempotency(reply: FastifyReply, bodyHash: string): Promise<boolean>;
    /** The answer to record for the key once it has been sent; null: release the key instead. */
    idempotencyAnswer: { status: number; headers: Record<string, string>; body: string } | null;
  }
}
