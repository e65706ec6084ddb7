import type { Ports } from './platform/ports/ports.js';
import type { SessionActor } from './platform/people/session-auth.js';

/** What every route and plugin reaches through `app.ctx`: every port, built once in runtime.ts (or by a test). */
export type AppContext = Ports;

export interface AuthInfo {
  accountId: string;
  /** null for the shared sandbox key. */
  applicationId: string | null;
  scopes: readonly string[];
  /** A dashboard session's member; absent for API keys. */
  session?: SessionActor | undefined;
  /** The account was closed (force-cancel): writes answer 403 account_closed, reads still work. */
  accountClosed?: boolean | undefined;
  /** The shared sandbox key (sk_sandbox_public): account-wide settings are read-only (SHARED_SANDBOX_READ_ONLY). */
  sharedSandbox?: boolean | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    auth: AuthInfo;
  }
  interface FastifyContextConfig {
    /**
     * Scope an API key needs for this route (auth plugin); a list: any one of them (the handler then
     * checks the one its record needs, e.g. an inutilization's model).
     */
    scope?: string | readonly string[];
    /** No API key needed (health, docs). */
    public?: boolean;
    /** Only a dashboard session may call it (an API key gets 403): it acts as a person. */
    sessionOnly?: boolean;
    /** A session must have proven its user within the last 10 minutes (403 reauthentication_required); API keys are not asked. */
    stepUp?: boolean;
    /** Reachable by a session whose e-mail is not confirmed yet. */
    allowUnverified?: boolean;
    /**
     * A public route still counted per client IP: `true` on the sign-in budget (sign-in, sign-up, links
     * from e-mails), `'health'` on a budget of its own of RATE_LIMIT_PER_MINUTE (/healthz/deep).
     */
    limitPerIp?: boolean | 'health';
  }
}
