import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { keyCustodyStatus } from '../../../platform/issuers/key-custody-status.js';
import { migrateAccountCustody, migrateCertificateCustody } from '../../../platform/issuers/migrate-certificate-custody.js';
import { secretBoxFor } from '../../../infra/security/secret-box-registry.js';
import { errorResponse, errorResponses } from '../../../kernel/errors.js';
import { IdParams } from '../../schemas/common.js';
import { BulkCustody, BulkCustodyQuery, CertificateCustody, HsmStatus } from '../../schemas/key-custody.js';

const NOT_CONFIGURED = errorResponse(
  '`key_provider_not_configured`: KEY_PROVIDER is envelope, there is no HSM/KMS to move to; `invalid_state`: no certificate, or it was replaced meanwhile; ' +
    '`idempotency_in_progress`: a request with this Idempotency-Key is still running',
);

export const hsmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = () => ({ db: app.ctx.db, clock: app.ctx.clock, secrets: secretBoxFor(app.ctx.config) });

  app.get(
    '/v1/hsm/status',
    {
      config: { scope: 'account:read' },
      schema: {
        tags: ['hsm'],
        summary: 'Status of the key storage that protects certificates and CSCs',
        description: 'The provider (KEY_PROVIDER), a live wrap/unwrap probe with its latency, and how many of the account\'s certificates and CSCs each mode holds.',
        response: { 200: HsmStatus, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => keyCustodyStatus(deps(), request.auth.accountId),
  );

  app.post(
    '/v1/issuers/:id/migrate-cert-to-kms',
    {
      config: { scope: 'issuers:write', stepUp: true },
      schema: {
        tags: ['hsm'],
        summary: "Move the issuer's certificate key and CSC to the HSM/KMS",
        description:
          'Re-wraps the certificate key, the certificate and the CSC under the configured provider (KEY_PROVIDER pkcs11 or aws-kms), opens them again through the provider ' +
          'and signs a test value with the key before the local copies are replaced, all three in one transaction: an interrupted call leaves the old copies working. ' +
          'Repeating it changes nothing (`changed: false`). Send an Idempotency-Key.',
        params: IdParams,
        response: { 200: CertificateCustody, ...errorResponses(400, 401, 403, 404, 429, 503), 409: NOT_CONFIGURED },
      },
    },
    async (request) => migrateCertificateCustody(deps(), request.auth.accountId, request.params.id),
  );

  app.post(
    '/v1/issuers/migrate-cert-to-kms',
    {
      config: { scope: 'issuers:write', stepUp: true },
      schema: {
        tags: ['hsm'],
        summary: 'Move the certificates of all the account\'s issuers to the HSM/KMS',
        description: 'Up to `limit` issuers still under the local master key, each in its own transaction (a failure is reported and stops nothing else). Call again while `has_more`.',
        querystring: BulkCustodyQuery,
        response: { 200: BulkCustody, ...errorResponses(400, 401, 403, 422, 429, 503), 409: NOT_CONFIGURED },
      },
    },
    async (request) => migrateAccountCustody(deps(), request.auth.accountId, request.query.limit ?? 20),
  );
};
