import type { FastifyRequest } from 'fastify';
import { ApiError } from '../kernel/errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF guard for cookie-authenticated requests (OWASP CSRF Cheat Sheet, "verifying origin with
 * standard headers"): a mutating request must name one of the dashboard's origins in Origin (every
 * browser sends it on POST/PUT/PATCH/DELETE), or, without Origin, in Referer. Neither: refused.
 * Requests with `Authorization: Bearer` never reach here: a browser does not add that header by itself.
 */
export function checkOrigin(request: FastifyRequest, allowed: readonly string[]): void {
  if (SAFE.has(request.method)) return;
  const origin = request.headers.origin;
  let seen: string | undefined = typeof origin === 'string' && origin !== 'null' ? origin : undefined;
  if (!seen && typeof request.headers.referer === 'string') {
    try {
      seen = new URL(request.headers.referer).origin;
    } catch {
      seen = undefined;
    }
  }
  if (!seen || !allowed.includes(seen)) {
    throw new ApiError('forbidden', seen
      ? `Cross-site request refused: origin ${seen.slice(0, 100)} is not the dashboard's`
      : 'Cross-site request refused: a request authenticated by cookie must carry an Origin header');
  }
}
