import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './storage/db.js';

/** What every route and plugin reaches through `app.ctx`: built once in main.ts (or by a test). */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
}

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
