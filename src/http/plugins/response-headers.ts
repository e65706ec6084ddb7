import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { deprecationHeaders } from '../deprecation.js';

/**
 * Headers every answer gets, decided in one place rather than route by route:
 *
 * - `X-Content-Type-Options: nosniff`: a browser takes the Content-Type as sent. An XML, PDF or error
 *   body is never guessed into HTML or script.
 * - `Cache-Control: no-store` on every authenticated answer and on every answer of the API (`/v1/`):
 *   sign-in, refresh and passkey answers carry tokens before the request is authenticated; key
 *   creation, TOTP setup and recovery codes carry secrets; documents and lists carry personal data.
 *   None of it may stay in a browser's or a proxy's cache. A route that decides its own caching says
 *   so with `config.cacheable` (the dashboard: its hashed files cached a year, its page revalidated).
 * - `Deprecation`, `Sunset` and `Link` on every answer of an operation with `config.deprecation`.
 */
export const responseHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      reply.header('X-Content-Type-Options', 'nosniff');
      if (!request.routeOptions.config?.cacheable && (request.auth || request.url.startsWith('/v1/'))) reply.header('Cache-Control', 'no-store');
      // A deprecated operation says so on every answer, errors included (src/http/deprecation.ts).
      const deprecation = request.routeOptions.config?.deprecation;
      if (deprecation) reply.headers(deprecationHeaders(deprecation));
      return payload;
    });
  },
  { name: 'response-headers' },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route sets its own Cache-Control; otherwise authenticated and /v1/ answers are no-store. */
    cacheable?: boolean;
  }
}
