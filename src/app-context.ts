import type { Ports } from './platform/ports/ports.js';

/** What every route and plugin reaches through `app.ctx`: every port, built once in runtime.ts (or by a test). */
export type AppContext = Ports;

export interface AuthInfo {
  accountId: string;
  /** null for the shared sandbox key. */
  applicationId: string | null;
  scopes: readonly string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    auth: AuthInfo;
  }
  interface FastifyContextConfig {
    /** Scope an API key needs for this route (auth plugin). */
    scope?: string;
    /** No API key needed (health, docs). */
    public?: boolean;
  }
}
