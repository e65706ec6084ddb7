import { cachedSerializerFactory } from './http/serializer-cache.js';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from './app-context.js';
import { ErrorSchema } from './kernel/errors.js';
import { toOpenApi30 } from './http/openapi.js';
import { healthRoutes, type HealthCheck } from './http/routes/health.js';
import { dashboardRoutes } from './http/dashboard.js';
import { applicationRoutes } from './http/routes/v1/applications.js';
import { nfceRoutes } from './http/routes/v1/nfce.js';
import { nfceOfflineRoutes } from './http/routes/v1/nfce-offline.js';
import { contingencyRoutes } from './http/routes/v1/contingency.js';
import { nfeRoutes } from './http/routes/v1/nfe.js';
import { nfeReformEventRoutes } from './http/routes/v1/nfe-reform-events.js';
import { nfeDeliveryEventRoutes } from './http/routes/v1/nfe-delivery-events.js';
import { nfseRoutes } from './http/routes/v1/nfse.js';
import { nfeReceivedRoutes } from './http/routes/v1/nfe-received.js';
import { inutilizationRoutes } from './http/routes/v1/inutilization.js';
import { seriesRoutes } from './http/routes/v1/series.js';
import { exportRoutes } from './http/routes/v1/exports.js';
import { accountRoutes } from './http/routes/v1/account.js';
import { hsmRoutes } from './http/routes/v1/hsm.js';
import { issuerRoutes } from './http/routes/v1/issuers.js';
import { issuerDiagnosticsRoutes } from './http/routes/v1/issuer-diagnostics.js';
import { checkDeprecation, markDeprecated } from './http/deprecation.js';
import { changelogRoutes } from './http/routes/changelog.js';
import { metaRoutes } from './http/routes/v1/meta.js';
import { webhookRoutes } from './http/routes/v1/webhooks.js';
import { notificationRoutes } from './http/routes/v1/notifications.js';
import { auditLogRoutes } from './http/routes/v1/audit-log.js';
import { searchRoutes } from './http/routes/v1/search.js';
import { billingRoutes } from './http/routes/v1/billing.js';
import { overviewRoutes } from './http/routes/v1/overview.js';
import { sandboxMailRoutes } from './http/routes/v1/sandbox-mail.js';
import { buyerEmailRoutes } from './http/routes/v1/buyer-email.js';
import { authRoutes } from './http/routes/v1/auth.js';
import { twoFactorRoutes } from './http/routes/v1/auth-2fa.js';
import { factorRoutes } from './http/routes/v1/auth-factors.js';
import { webauthnRoutes } from './http/routes/v1/auth-webauthn.js';
import { teamRoutes } from './http/routes/v1/team.js';
import { ssoRoutes } from './http/routes/v1/auth-sso.js';
import { auditPlugin } from './http/plugins/audit.js';
import { responseHeadersPlugin } from './http/plugins/response-headers.js';
import { answerLanguagePlugin } from './http/plugins/answer-language.js';
import type { IssuerSecretHooks } from './platform/issuers/issuer-deps.js';
import { validatorCompiler } from './http/validation.js';
import { answerClientError } from './http/client-error.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { refuseNul } from './http/nul-guard.js';
import { newId } from './kernel/ids.js';
import { authPlugin, scopePlugin } from './http/plugins/auth.js';
import { errorHandlerPlugin, sendError } from './http/plugins/error-handler.js';
import { idempotencyPlugin } from './http/plugins/idempotency.js';
import { clientRateLimitPlugin, keyRateLimitPlugin } from './http/plugins/rate-limit.js';
import { capConnectionsPerIp, serverTimeouts } from './http/server-limits.js';
import { memoryRateLimitStore, type RateLimitStore } from './infra/storage/rate-limit-store.js';

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
  rateLimitStore?: RateLimitStore;
  healthChecks?: () => HealthCheck[];
  /** How long a duplicate idempotent request waits for the first one. */
  idempotencyWaitMs?: number;
  /** Sandbox: tells the simulated authority about certificates and CSCs as they are stored. */
  issuerHooks?: IssuerSecretHooks | undefined;
}

// Secrets never reach the logs (docs/decisions.md#no-secret-in-clear): headers and body fields that may carry them.
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  // Any other object carrying the request headers: @fastify/multipart logs its busboy options,
  // headers included, at trace level ("Providing options to busboy").
  '*.headers.authorization',
  '*.headers.cookie',
  '*.password',
  '*.csc',
  '*.pfx',
  '*.key',
  '*.privateKey',
  '*.secret',
  // What people send and receive while signing in.
  '*.session_token',
  '*.refresh_token',
  '*.challenge_token',
  '*.token',
  '*.code',
  '*.recovery_code',
  '*.recovery_codes',
  '*.headers["set-cookie"]',
];

const SESSION_SECURITY = [{ sessionToken: [] }, { sessionCookie: [] }];

// A caller's X-Request-Id is echoed when it is sane; otherwise we make one.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  // The TypeBox type provider types each route's request parts and answers from its schemas; it is
  // types only: validation stays with the app's own validatorCompiler (src/http/validation.ts).
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : newId('req');
    },
    ajv: { customOptions: { strict: false } },
    schemaController: { compilersFactory: { buildSerializer: cachedSerializerFactory() } },
    // What Node's HTTP parser refuses gets the error envelope too (src/http/client-error.ts).
    // (Fastify calls it bound to the instance; its types do not say so.)
    clientErrorHandler(err, socket) {
      answerClientError(err, socket, (this as unknown as FastifyInstance).log);
    },
    ...serverTimeouts(ctx.config.http),
    // A malformed URL (bad percent-encoding) or an overlong id never reaches a route: it still gets
    // the error envelope (docs/decisions.md#api-conventions), not Fastify's own body.
    frameworkErrors: (err, request, reply) => {
      if (err.code === 'FST_ERR_ASYNC_CONSTRAINT') return void sendError(request, reply, 'invalid_request', 'Malformed request');
      return void sendError(request, reply, 'not_found', err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'No record with this id' : 'Malformed URL');
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  capConnectionsPerIp(app.server, ctx.config.http.maxConnectionsPerIp);
  app.decorate('ctx', ctx);
  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ErrorSchema);
  // Only JSON bodies (and multipart where a route registers it): text/plain must be a 415, not a 422.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  // Before idempotency claims the key and before any handler queries with it (src/http/nul-guard.ts).
  app.addHook('preValidation', refuseNul);
  app.addHook('onRoute', (route) => {
    // The interactive reference and its JSON are public like the health checks.
    if (route.url.startsWith('/docs')) route.config = { ...(route.config ?? {}), public: true };
    // Every route documents the errors any route can answer (OpenAPI lists every response).
    const schema = (route.schema ??= {}) as { response?: Record<string, unknown>; deprecated?: boolean; description?: string };
    if (route.config?.deprecation) {
      checkDeprecation(`${String(route.method)} ${route.url}`, route.config.deprecation);
      markDeprecated(schema, route.config.deprecation);
    }
    const response = (schema.response ??= {});
    const add = (code: number) => {
      if (!(code in response)) response[code] = { $ref: 'Error', description: code === 500 ? 'Internal error' : 'Error' };
    };
    add(500);
    if (!route.config?.public) [401, 429].forEach(add);
    // Who may call it, in the document itself: an API key or a dashboard session, or a session only
    // (SDKs and the security sweeps read this).
    const doc = schema as { security?: unknown[] };
    if (!route.config?.public && !route.url.startsWith('/docs')) {
      doc.security = route.config?.sessionOnly ? SESSION_SECURITY : [{ bearerAuth: [] }, ...SESSION_SECURITY];
    }
  });

  await app.register(errorHandlerPlugin);
  // nosniff on every answer, no-store on authenticated and /v1/ answers (src/http/plugins/response-headers.ts).
  await app.register(responseHeadersPlugin);
  // A note's rejection hint in the language of Accept-Language (src/http/plugins/answer-language.ts).
  await app.register(answerLanguagePlugin);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Fiscal gateway API',
        version: '1.0.0',
        description:
          'Issues NFC-e (model 65) and NF-e (model 55) authorized by the state tax authority (SEFAZ), and NFS-e of the national standard authorized by Sefin Nacional. ' +
          'Deprecated operations are marked `deprecated` and answer `Deprecation` and `Sunset` headers (CHANGELOG.md). ' +
          'Authenticate with `Authorization: Bearer <key>`; the sandbox accepts `sk_sandbox_public`. ' +
          'Every mutating request accepts an `Idempotency-Key` header (8-256 characters, 24 hours).',
      },
      servers: [{ url: ctx.config.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key (sk_live_..., sk_test_... or sk_sandbox_public)' },
          sessionToken: { type: 'http', scheme: 'bearer', description: 'Dashboard session token (st_...) from POST /v1/auth/login; it acts with the member\'s role' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: '__Host-session', description: 'The same session as a browser cookie; mutating requests must come from the dashboard\'s origin' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transformObject: (documentObject) => toOpenApi30('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject),
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, uiHooks: {} });
  // Count per IP, authenticate, count per key, check the scope (src/http/plugins/rate-limit.ts).
  await app.register(clientRateLimitPlugin, { store: options.rateLimitStore ?? memoryRateLimitStore() });
  await app.register(authPlugin);
  await app.register(keyRateLimitPlugin);
  await app.register(scopePlugin);
  await app.register(idempotencyPlugin, { waitMs: options.idempotencyWaitMs });
  await app.register(auditPlugin);

  await app.register(healthRoutes(options.healthChecks ?? (() => [])));
  await app.register(changelogRoutes);
  await app.register(authRoutes);
  await app.register(twoFactorRoutes);
  await app.register(webauthnRoutes);
  await app.register(factorRoutes);
  await app.register(teamRoutes);
  await app.register(ssoRoutes);
  await app.register(applicationRoutes);
  await app.register(accountRoutes);
  await app.register(metaRoutes);
  await app.register(issuerRoutes, { hooks: options.issuerHooks });
  await app.register(issuerDiagnosticsRoutes);
  await app.register(hsmRoutes);
  await app.register(nfceRoutes);
  await app.register(nfceOfflineRoutes);
  await app.register(contingencyRoutes);
  await app.register(nfeRoutes);
  await app.register(nfeReformEventRoutes);
  await app.register(nfeDeliveryEventRoutes);
  await app.register(nfseRoutes);
  await app.register(nfeReceivedRoutes);
  await app.register(inutilizationRoutes);
  await app.register(seriesRoutes);
  await app.register(exportRoutes);
  await app.register(buyerEmailRoutes);
  await app.register(webhookRoutes);
  await app.register(notificationRoutes);
  await app.register(auditLogRoutes);
  await app.register(searchRoutes);
  await app.register(billingRoutes);
  await app.register(overviewRoutes);
  await app.register(async (scope) => dashboardRoutes(scope));
  if (ctx.config.env === 'sandbox') await app.register(sandboxMailRoutes);
  return app;
}
