import type { Clock } from './kernel/clock.js';
import type { Config } from './config.js';
import type { SecretBox } from './platform/security/secret-box.js';
import type { AuthorityAccess } from './fiscal/sefaz/authority-access.js';
import type { Db } from './platform/storage/db.js';
import type { NotificationBus } from './platform/notifications/notification-bus.js';

/** What every route and plugin reaches through `app.ctx`: built once in main.ts (or by a test). */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  /** Envelope encryption of certificates and CSCs. */
  secrets: SecretBox;
  /** SOAP clients to the authority (or the simulator in the sandbox). */
  authority: AuthorityAccess;
  /** Wakes this process's job runner when work was just queued (no-op in API-only processes). */
  wakeWorker: () => void;
  /** Wakes notification streams in every process (Redis, PostgreSQL LISTEN/NOTIFY or in-process). */
  notifications: NotificationBus;
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
