import { resolve } from 'node:path';
import { defaultDashboardUrl } from './kernel/dashboard-url.js';
import { ConfigError, int, oneOf, range, url } from './kernel/env-values.js';

export type GatewayEnv = 'sandbox' | 'production';

export interface Config {
  env: GatewayEnv;
  host: string;
  port: number;
  /** Base URL the API advertises in links (danfe_url, xml_url); defaults to http://host:port. */
  publicBaseUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  rateLimitPerMinute: number;
  /** Production: requests per minute per client IP that fail authentication (src/http/plugins/rate-limit.ts). */
  rateLimitUnauthenticatedPerMinute: number;
  /** HTTP server limits (src/http/server-limits.ts). */
  http: HttpLimits;
  /**
   * HEALTH_TOKEN: the operator credential that shows /healthz/deep's details (checks, errors, authority
   * endpoints, breakers); without it the answer says only ok or degraded. Unset: the
   * details are shown to nobody.
   */
  healthToken?: string | undefined;
  /** Behind a load balancer: the client IP (rate limits, audit) comes from X-Forwarded-For. */
  trustProxy: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  /** How long a rotated API key keeps working beside its replacement. */
  keyRotationGraceSeconds: number;
  idempotencyTtlSeconds: number;
  /** After this long a request still "in progress" is presumed dead (its process crashed) and may be retried. */
  idempotencyLockSeconds: number;
  masterKey: string | undefined;
  masterKeyFile: string | undefined;
  /** Where certificate keys and CSCs are wrapped (infra/security/key-providers.ts). */
  keyStorage: KeyStorageConfig;
  dbPoolSize: number;
  /** Sandbox: port of the in-process SEFAZ simulator (0 = any free port). */
  simulatorPort: number;
  /** Sandbox: the simulator's answer delay range in ms (docs/guides/api.md#contract-sandbox-and-secrets: about 1 to 3 s). */
  simulatorLatencyMs: [number, number];
  /**
   * Sandbox: a simulator running in another process (`npm run authority-sim`), which outlives this
   * one (crash tests, several gateway processes); unset = start one in-process.
   */
  simulatorUrl: string | undefined;
  /** PEM file with that simulator's CA (the CLI writes it); unset = Node's bundled roots. */
  simulatorCaFile: string | undefined;
  /** Bearer token of the simulator's admin API (certificate and CSC registration); required with SIM_URL. */
  simulatorAdminToken: string | undefined;
  /** Production: PEM file with the CA chains of the authorities' servers (default: Node's roots). */
  authorityCaFile: string | undefined;
  authorityConnectTimeoutMs: number;
  authorityResponseTimeoutMs: number;
  /** Circuit breaker per authority endpoint (fiscal/sefaz/authority-breaker.ts); failures 0 = off. */
  authorityBreaker: { failures: number; windowMs: number; cooldownMs: number; maxCooldownMs: number };
  /** Jobs one worker process runs at once. */
  workerConcurrency: number;
  /** smtp(s)://user:pass@host:port for alerts; absent: mail is captured and listed (GET /v1/sandbox/mail). */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Webhook hosts exempt from the SSRF guard (private/loopback allowed): WEBHOOK_ALLOWED_HOSTS, plus 127.0.0.1 and localhost with WEBHOOKS_ALLOW_LOOPBACK=true (sandbox only). */
  webhookAllowedHosts: string[];
  /** Whole-request limit of one webhook attempt (10 s). */
  webhookTimeoutMs: number;
  /** Dashboard people: sessions, links in e-mails, CSRF. */
  people: PeopleConfig;
  /** Download NF-e addressed to the issuers from the national environment on the hourly sweep (NFE_RECEIVED_SYNC, default true). */
  nfeReceivedSync: boolean;
  /** Daily wipe of the sandbox's data (SANDBOX_RESET_AT, UTC "HH:MM", default 04:00; "off"); always null in production. */
  sandboxResetAt: ResetTime | null;
  /** Single sign-on slots; a slot without a client id is off. */
  sso: SsoConfig;
  /** Payments of billing (docs/guides/billing.md "Payments (Asaas)"): ASAAS_API_URL + ASAAS_API_KEY (none: off), ASAAS_WEBHOOK_TOKEN, BILLING_GRACE_DAYS, BILLING_TRIAL_DAYS (docs/guides/billing.md "Trial"). */
  billing: { asaas: { baseUrl: string; apiKey: string } | null; asaasWebhookToken: string | undefined; graceDays: number; trialDays: number };
}

export type SsoProviderName = 'google' | 'microsoft';
export const SSO_PROVIDERS: readonly SsoProviderName[] = ['google', 'microsoft'];

export interface SsoProviderConfig {
  /** The OpenID issuer identifier; its discovery document is `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface SsoConfig {
  providers: Partial<Record<SsoProviderName, SsoProviderConfig>>;
  /** SSO_STATE_SECRET: HMAC key of the `state`; unset = derived from the master key (HKDF). */
  stateSecret: string | undefined;
}

export interface PeopleConfig {
  /** A session unused for this long ends (SESSION_IDLE_SECONDS, default 1 hour). */
  sessionIdleSeconds: number;
  /** A session (and its refresh family) ends this long after sign-in, whatever its use (SESSION_ABSOLUTE_SECONDS, default 12 hours). */
  sessionAbsoluteSeconds: number;
  /** A refresh token already used is tolerated this long (two tabs refreshing at once); later it revokes its family. */
  refreshReuseGraceSeconds: number;
  /** Sensitive actions need a password, TOTP or passkey within this (10 minutes). */
  stepUpSeconds: number;
  /** Origins whose cookie-authenticated mutating requests are accepted (CSRF); default: PUBLIC_BASE_URL's origin. */
  dashboardOrigins: string[];
  /** Where the dashboard is and the base of the links in e-mails (verify, reset, invite); default: PUBLIC_BASE_URL/dashboard. */
  dashboardUrl: string;
  /** Requests per minute per client IP to the public sign-in routes (AUTH_RATE_LIMIT_PER_MINUTE, default 30). */
  authRateLimitPerMinute: number;
  /** Requests per minute per dashboard session, apart from any address's or key's budget (SESSION_RATE_LIMIT_PER_MINUTE, default 300). */
  sessionRateLimitPerMinute: number;
  /** Failed sign-ins from one address before each further try waits (LOGIN_IP_FREE_FAILURES, default 20). */
  loginIpFreeFailures: number;
  /** Passkeys: the relying party the browser binds each credential to. */
  webauthn: WebauthnConfig;
}

export interface WebauthnConfig {
  /** WEBAUTHN_RP_ID: a domain (browsers refuse an IP address, WebAuthn L3 §5.1.3); default: DASHBOARD_URL's hostname. */
  rpId: string;
  /** WEBAUTHN_RP_NAME: the name an authenticator shows beside the passkey (default "Fiscal gateway"). */
  rpName: string;
  /** WEBAUTHN_ORIGINS: origins a ceremony may come from (clientDataJSON.origin); default: the dashboard origins. */
  origins: string[];
}

export interface HttpLimits {
  /** The whole request, headers and body, must arrive within this (slow-body clients get 408). */
  requestTimeoutMs: number;
  /** The headers must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; must exceed a load balancer's idle timeout. */
  keepAliveTimeoutMs: number;
  /** Open connections per socket peer address (0: no cap); behind a proxy the peer is the proxy. */
  maxConnectionsPerIp: number;
}

export { ConfigError };

/** Reads the environment once at start-up and fails fast, naming the variable at fault. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const gatewayEnv = oneOf(env, 'GATEWAY_ENV', ['sandbox', 'production'] as const, 'sandbox');
  const host = env.HOST?.trim() || '127.0.0.1';
  const port = int(env, 'PORT', 8080, 0, 65535);
  const dataDir = resolve(env.DATA_DIR?.trim() || './data');
  const rateLimitPerMinute = int(env, 'RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000);
  const publicBaseUrl = (env.PUBLIC_BASE_URL?.trim() || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  return {
    env: gatewayEnv,
    host,
    port,
    publicBaseUrl,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    rateLimitPerMinute,
    rateLimitUnauthenticatedPerMinute: int(env, 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', rateLimitPerMinute, 1, 1_000_000),
    http: httpLimits(env),
    healthToken: secretToken(env, 'HEALTH_TOKEN'),
    trustProxy: oneOf(env, 'TRUST_PROXY', ['true', 'false'] as const, 'false') === 'true',
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    keyRotationGraceSeconds: int(env, 'KEY_ROTATION_GRACE_SECONDS', 24 * 3600, 0, 30 * 24 * 3600),
    idempotencyTtlSeconds: 24 * 3600, // docs/guides/api.md#contract-idempotency: keys expire after 24 hours
    idempotencyLockSeconds: int(env, 'IDEMPOTENCY_LOCK_SECONDS', 60, 1, 3600),
    masterKey: env.MASTER_KEY?.trim() || undefined,
    masterKeyFile: env.MASTER_KEY_FILE?.trim() || undefined,
    keyStorage: keyStorageConfig(env),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 10, 1, 200),
    simulatorPort: int(env, 'SIM_PORT', 0, 0, 65535),
    simulatorLatencyMs: range(env, 'SIM_LATENCY_MS', [1000, 3000]),
    ...simulatorLink(env),
    authorityCaFile: env.AUTHORITY_CA_FILE?.trim() || undefined,
    authorityConnectTimeoutMs: int(env, 'AUTHORITY_CONNECT_TIMEOUT_MS', 5_000, 100, 120_000),
    authorityResponseTimeoutMs: int(env, 'AUTHORITY_RESPONSE_TIMEOUT_MS', 30_000, 100, 300_000),
    authorityBreaker: breakerConfig(env),
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 32, 1, 1024),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM?.trim() || 'Fiscal gateway <no-reply@fiscal-gateway.local>',
    webhookAllowedHosts: webhookAllowedHosts(env, gatewayEnv),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    people: peopleConfig(env, publicBaseUrl),
    nfeReceivedSync: oneOf(env, 'NFE_RECEIVED_SYNC', ['true', 'false'] as const, 'true') === 'true',
    sso: ssoConfig(env, gatewayEnv),
    sandboxResetAt: sandboxResetAt(env, gatewayEnv),
    billing: {
      asaas: env.ASAAS_API_KEY?.trim() ? { baseUrl: (url(env, 'ASAAS_API_URL', ['https:', 'http:']) ?? 'https://api-sandbox.asaas.com/v3').replace(/\/+$/, ''), apiKey: env.ASAAS_API_KEY.trim() } : null,
      asaasWebhookToken: env.ASAAS_WEBHOOK_TOKEN?.trim() || undefined,
      graceDays: int(env, 'BILLING_GRACE_DAYS', 15, 0, 90),
      trialDays: int(env, 'BILLING_TRIAL_DAYS', 14, 0, 90),
    },
  };
}

export interface KeyStorageConfig {
  /** KEY_PROVIDER: `envelope` (local master key, default), `pkcs11` (an HSM token) or `aws-kms`. */
  provider: 'envelope' | 'pkcs11' | 'aws-kms';
  /** KEY_CACHE_SECONDS: how long this process keeps a data key it had the token or KMS open (0: never). */
  cacheSeconds: number;
  /** PKCS11_LIBRARY, PKCS11_TOKEN_LABEL, PKCS11_PIN, PKCS11_KEY_LABEL. */
  pkcs11: { library: string; tokenLabel: string; pin: string | undefined; keyLabel: string };
  /** AWS_KMS_KEY_ID, AWS_REGION (or AWS_DEFAULT_REGION), AWS_KMS_ENDPOINT; credentials from the SDK's usual chain. */
  kms: { keyId: string | undefined; region: string | undefined; endpoint: string | undefined };
}

function keyStorageConfig(env: NodeJS.ProcessEnv): KeyStorageConfig {
  const provider = oneOf(env, 'KEY_PROVIDER', ['envelope', 'pkcs11', 'aws-kms'] as const, 'envelope');
  const pkcs11 = {
    library: env.PKCS11_LIBRARY?.trim() || '/usr/lib/softhsm/libsofthsm2.so',
    tokenLabel: env.PKCS11_TOKEN_LABEL?.trim() || 'fiscal-gateway',
    pin: env.PKCS11_PIN?.trim() || undefined,
    keyLabel: env.PKCS11_KEY_LABEL?.trim() || 'fiscal-gateway-master',
  };
  const kms = {
    keyId: env.AWS_KMS_KEY_ID?.trim() || undefined,
    region: env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || undefined,
    endpoint: url(env, 'AWS_KMS_ENDPOINT', ['https:', 'http:']),
  };
  if (provider === 'pkcs11' && !pkcs11.pin) throw new ConfigError('PKCS11_PIN is required with KEY_PROVIDER=pkcs11 (the user PIN of the token)');
  if (provider === 'aws-kms' && (!kms.keyId || !kms.region)) throw new ConfigError('AWS_KMS_KEY_ID and AWS_REGION are required with KEY_PROVIDER=aws-kms');
  // Every blob records which key wrapped it (a hash of this value): an alias can be moved to another
  // key, after which the blobs it names would no longer open. The key id or key ARN never moves.
  if (kms.keyId && /(^|:)alias\//.test(kms.keyId)) throw new ConfigError('AWS_KMS_KEY_ID must be the key id or key ARN, not an alias (blobs record the key that wrapped them)');
  return { provider, cacheSeconds: int(env, 'KEY_CACHE_SECONDS', 300, 0, 86_400), pkcs11, kms };
}

/** The sandbox's daily reset time, UTC (platform/sandbox/reset-schedule.ts computes the instants). */
export interface ResetTime {
  hour: number;
  minute: number;
}

/** "HH:MM" (UTC) or "off"; null for off, undefined when the text is neither. */
export function parseResetTime(raw: string): ResetTime | null | undefined {
  if (raw === 'off') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw);
  return m ? { hour: Number(m[1]), minute: Number(m[2]) } : undefined;
}

// docs/guides/api.md#contract-sandbox-and-secrets: "The sandbox database is reset every day at 04:00 UTC". Never in production, whatever is set.
function sandboxResetAt(env: NodeJS.ProcessEnv, gatewayEnv: GatewayEnv): ResetTime | null {
  const raw = env.SANDBOX_RESET_AT?.trim() || '04:00';
  const parsed = parseResetTime(raw);
  if (parsed === undefined) throw new ConfigError(`SANDBOX_RESET_AT must be a UTC time HH:MM (e.g. 04:00) or "off"; got "${raw}"`);
  return gatewayEnv === 'production' ? null : parsed;
}

const SSO_DEFAULT_ISSUERS: Record<SsoProviderName, string> = {
  google: 'https://accounts.google.com',
  // Microsoft's multi-tenant ("common") endpoint: its discovery document names the issuer
  // `https://login.microsoftonline.com/{tenantid}/v2.0`, a template. openid-client accepts that
  // document for this URL only and then checks each ID token's `iss` against the template with the
  // token's own `tid` claim filled in (OIDC Core 3.1.3.7 item 2). A single-tenant issuer
  // (`.../<tenant id>/v2.0`) is compared as is.
  microsoft: 'https://login.microsoftonline.com/common/v2.0',
};

function ssoConfig(env: NodeJS.ProcessEnv, gatewayEnv: GatewayEnv): SsoConfig {
  const providers: SsoConfig['providers'] = {};
  for (const name of SSO_PROVIDERS) {
    const prefix = `SSO_${name.toUpperCase()}`;
    const clientId = env[`${prefix}_CLIENT_ID`]?.trim();
    if (!clientId) continue;
    const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim();
    if (!clientSecret) throw new ConfigError(`${prefix}_CLIENT_SECRET is required with ${prefix}_CLIENT_ID (the gateway is a confidential client)`);
    const issuer = url(env, `${prefix}_ISSUER`, ['https:', 'http:']) ?? SSO_DEFAULT_ISSUERS[name];
    const at = new URL(issuer);
    // Plain http only for an issuer on this machine in the sandbox (a local test provider); anywhere
    // else the ID token's integrity rests on TLS (OIDC Core 3.1.3.7 item 6).
    if (at.protocol === 'http:' && !(gatewayEnv === 'sandbox' && ['127.0.0.1', 'localhost', '[::1]'].includes(at.hostname))) {
      throw new ConfigError(`${prefix}_ISSUER must be https:// (plain http only on loopback in the sandbox)`);
    }
    providers[name] = { issuer, clientId, clientSecret };
  }
  const stateSecret = env.SSO_STATE_SECRET?.trim() || undefined;
  if (stateSecret && stateSecret.length < 32) throw new ConfigError('SSO_STATE_SECRET must have at least 32 characters');
  return { providers, stateSecret };
}

function peopleConfig(env: NodeJS.ProcessEnv, publicBaseUrl: string): PeopleConfig {
  const dashboardUrl = (url(env, 'DASHBOARD_URL', ['http:', 'https:']) ?? defaultDashboardUrl(env, publicBaseUrl)).replace(/\/+$/, '');
  const origins = (env.DASHBOARD_ORIGINS?.trim() ? env.DASHBOARD_ORIGINS.split(',') : [dashboardUrl, publicBaseUrl]).map((o) => o.trim()).filter(Boolean);
  const dashboardOrigins = [...new Set(origins.map((o) => {
    try {
      return new URL(o).origin;
    } catch {
      throw new ConfigError(`DASHBOARD_ORIGINS must be a comma-separated list of origins (https://dashboard.example.com); got "${o}"`);
    }
  }))];
  const sessionIdleSeconds = int(env, 'SESSION_IDLE_SECONDS', 3600, 60, 30 * 24 * 3600);
  return {
    sessionIdleSeconds,
    sessionAbsoluteSeconds: int(env, 'SESSION_ABSOLUTE_SECONDS', 12 * 3600, sessionIdleSeconds, 90 * 24 * 3600),
    refreshReuseGraceSeconds: int(env, 'REFRESH_REUSE_GRACE_SECONDS', 30, 0, 300),
    stepUpSeconds: 600,
    dashboardOrigins,
    dashboardUrl,
    authRateLimitPerMinute: int(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 30, 1, 1_000_000),
    sessionRateLimitPerMinute: int(env, 'SESSION_RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
    loginIpFreeFailures: int(env, 'LOGIN_IP_FREE_FAILURES', 20, 1, 1_000_000),
    webauthn: webauthnConfig(env, dashboardUrl, dashboardOrigins),
  };
}

function webauthnConfig(env: NodeJS.ProcessEnv, dashboardUrl: string, dashboardOrigins: string[]): WebauthnConfig {
  const rpId = (env.WEBAUTHN_RP_ID?.trim() || new URL(dashboardUrl).hostname).toLowerCase();
  if (!/^[a-z0-9.:[\]-]{1,253}$/.test(rpId)) throw new ConfigError(`WEBAUTHN_RP_ID must be a domain name (dashboard.example.com); got "${rpId}"`);
  const rpName = env.WEBAUTHN_RP_NAME?.trim() || 'Fiscal gateway';
  if (rpName.length > 64) throw new ConfigError('WEBAUTHN_RP_NAME must have at most 64 characters');
  if (!env.WEBAUTHN_ORIGINS?.trim()) return { rpId, rpName, origins: dashboardOrigins };
  const origins = [...new Set(env.WEBAUTHN_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean).map((o) => {
    let parsed: URL;
    try {
      parsed = new URL(o);
    } catch {
      throw new ConfigError(`WEBAUTHN_ORIGINS must be a comma-separated list of origins (https://dashboard.example.com); got "${o}"`);
    }
    // WebAuthn L3 §5.1.3: the RP ID must be the origin's host or a registrable suffix of it.
    if (parsed.hostname !== rpId && !parsed.hostname.endsWith(`.${rpId}`)) {
      throw new ConfigError(`WEBAUTHN_ORIGINS: "${o}" is not on the RP ID "${rpId}" (WEBAUTHN_RP_ID) or one of its subdomains`);
    }
    return parsed.origin;
  }))];
  return { rpId, rpName, origins };
}

function simulatorLink(env: NodeJS.ProcessEnv): Pick<Config, 'simulatorUrl' | 'simulatorCaFile' | 'simulatorAdminToken'> {
  const simulatorUrl = url(env, 'SIM_URL', ['https:']);
  const simulatorAdminToken = env.SIM_ADMIN_TOKEN?.trim() || undefined;
  if (simulatorUrl && !simulatorAdminToken) throw new ConfigError('SIM_ADMIN_TOKEN is required with SIM_URL (the simulator refuses unauthenticated registrations)');
  if (simulatorAdminToken && simulatorAdminToken.length < 16) throw new ConfigError('SIM_ADMIN_TOKEN must have at least 16 characters');
  return { simulatorUrl, simulatorCaFile: env.SIM_CA_FILE?.trim() || undefined, simulatorAdminToken };
}

/** The names a sandbox on one's own machine may deliver webhooks to (WEBHOOKS_ALLOW_LOOPBACK=true). */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

/**
 * Webhook hosts exempt from the SSRF guard: WEBHOOK_ALLOWED_HOSTS, plus the loopback names when
 * WEBHOOKS_ALLOW_LOOPBACK=true. That is off by default, also in the sandbox: on a
 * sandbox others can reach, a loopback webhook and its delivery log (the first 1 KB of each answer)
 * would read the host's own services. Only a sandbox on one's own machine turns it on.
 */
function webhookAllowedHosts(env: NodeJS.ProcessEnv, gatewayEnv: GatewayEnv): string[] {
  const loopback = oneOf(env, 'WEBHOOKS_ALLOW_LOOPBACK', ['true', 'false'] as const, 'false') === 'true';
  if (loopback && gatewayEnv === 'production') {
    throw new ConfigError('WEBHOOKS_ALLOW_LOOPBACK is for a sandbox on your own machine; in production name the hosts in WEBHOOK_ALLOWED_HOSTS');
  }
  const listed = (env.WEBHOOK_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, '')).filter(Boolean);
  return [...new Set([...listed, ...(loopback ? LOOPBACK_HOSTS : [])])];
}

/** An operator's token: unset, or at least 16 characters (a short one could be guessed). */
function secretToken(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim() || undefined;
  if (value && value.length < 16) throw new ConfigError(`${name} must have at least 16 characters`);
  return value;
}

function httpLimits(env: NodeJS.ProcessEnv): HttpLimits {
  const requestTimeoutMs = int(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  const headersTimeoutMs = int(env, 'HTTP_HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), 100, 600_000);
  // Node refuses a headers timeout longer than the request timeout.
  if (headersTimeoutMs > requestTimeoutMs) throw new ConfigError(`HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs}); got "${headersTimeoutMs}"`);
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 75_000, 100, 600_000),
    maxConnectionsPerIp: int(env, 'MAX_CONNECTIONS_PER_IP', 256, 0, 1_000_000),
  };
}

function breakerConfig(env: NodeJS.ProcessEnv): Config['authorityBreaker'] {
  const cooldownMs = int(env, 'AUTHORITY_BREAKER_COOLDOWN_MS', 15_000, 100, 3_600_000);
  const maxCooldownMs = int(env, 'AUTHORITY_BREAKER_MAX_COOLDOWN_MS', Math.max(120_000, cooldownMs), cooldownMs, 24 * 3_600_000);
  return {
    failures: int(env, 'AUTHORITY_BREAKER_FAILURES', 3, 0, 1000),
    windowMs: int(env, 'AUTHORITY_BREAKER_WINDOW_MS', 30_000, 100, 3_600_000),
    cooldownMs,
    maxCooldownMs,
  };
}
