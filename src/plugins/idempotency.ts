import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../http/errors.js';
import { canonicalJson, sha256Hex } from '../http/canonical-json.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  readIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyScope,
} from '../storage/repositories/idempotency-repository.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH']);
// SPEC 4 rule 4: 8 to 256 characters; visible ASCII so the key survives every HTTP stack unchanged.
const KEY_PATTERN = /^[\x21-\x7e]{8,256}$/;
const POLL_MS = 25;
// Headers worth replaying; the rate-limit and request-id headers describe the new request instead.
const REPLAYED_HEADERS = ['content-type', 'location', 'preference-applied'];

export interface IdempotencyOptions {
  /** How long a duplicate waits for the first request to finish before 409 idempotency_in_progress. */
  waitMs?: number;
}

/**
 * SPEC 4 / DESIGN 4 idempotency: scope = account + method + path + key; body hash = SHA-256 of the
 * canonical JSON; the first answer (status, body, headers that matter) is replayed for 24 hours with
 * `Idempotency-Replay: true`. Durable in PostgreSQL, so it holds across processes.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance, opts: IdempotencyOptions) => {
    const waitMs = opts.waitMs ?? 15_000;
    app.decorateRequest('idempotency', null);
    app.decorateRequest('idempotencyAnswer', null);

    // preValidation: SPEC 4 rule 3 holds even when the second body would also fail validation.
    app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!MUTATING.has(request.method) || !request.auth) return; // SPEC 4 rule 6: ignored on GET
      const raw = request.headers['idempotency-key'];
      if (raw === undefined) return;
      const key = Array.isArray(raw) ? raw[0]! : raw;
      if (!KEY_PATTERN.test(key)) {
        throw new ApiError(
          'idempotency_key_invalid',
          'Idempotency-Key must be 8 to 256 visible ASCII characters (a UUID works well)',
          [{ field: 'header.Idempotency-Key', message: `has ${key.length} characters or characters outside visible ASCII` }],
        );
      }
      const scope: IdempotencyScope = {
        accountId: request.auth.accountId,
        method: request.method,
        path: request.url.split('?')[0]!,
        key,
      };
      const bodyHash = sha256Hex(canonicalJson(request.body ?? null));
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
          return;
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
          return reply.code(rec.response_status).send(rec.response_body ?? '');
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
  interface FastifyRequest {
    idempotency: IdempotencyScope | null;
    /** The answer to record for the key once it has been sent; null: release the key instead. */
    idempotencyAnswer: { status: number; headers: Record<string, string>; body: string } | null;
  }
}
