import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../platform/people/people-deps.js';
import type { SessionActor } from '../platform/people/session-auth.js';
import { ApiError } from '../kernel/errors.js';
import { presentedDevice } from './device-cookie.js';

export function requestMeta(request: FastifyRequest): RequestMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 300) : null, requestId: request.id, deviceToken: presentedDevice(request) ?? null };
}

/** The session of a `sessionOnly` route (the scope plugin refused API keys before the handler). */
export function sessionOf(request: FastifyRequest): SessionActor {
  const s = request.auth.session;
  if (!s) throw new ApiError('forbidden', 'This operation needs a dashboard session');
  return s;
}
