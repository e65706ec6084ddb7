import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../kernel/errors.js';
import { diagnoseIssuer } from '../../../platform/issuers/issuer-diagnostics.js';
import { secretBoxFor } from '../../../infra/security/secret-box-registry.js';
import { preferredLanguage } from '../../accept-language.js';
import { IdParams } from '../../schemas/common.js';
import { IssuerDiagnostics } from '../../schemas/diagnostics.js';

/** The doctor: GET /v1/issuers/:id/diagnostics. */
export const issuerDiagnosticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/issuers/:id/diagnostics',
    {
      config: { scope: 'issuers:read' },
      schema: {
        tags: ['issuers'],
        summary: 'Check what usually goes wrong in production',
        description:
          'The certificate (validity, CNPJ base, version 3 and key usages, ICP-Brasil issuer), the CSC, DNS of the state\'s services, ' +
          'the NF-e and NFC-e status services asked with the issuer\'s own certificate (NfeStatusServico4: nothing is issued), and this ' +
          'gateway\'s clock against the authority\'s (dhRecbto). Each check has a verdict and, when something is to be done, what. ' +
          '`message` and `action` follow `Accept-Language` (`pt-BR` or `en`); `id`, `verdict` and `rule` are stable.',
        params: IdParams,
        response: { 200: IssuerDiagnostics, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const lang = preferredLanguage(request.headers['accept-language']);
      const deps = { db: app.ctx.db, clock: app.ctx.clock, authority: app.ctx.authority, secrets: secretBoxFor(app.ctx.config), sandbox: app.ctx.config.env === 'sandbox' };
      const report = await diagnoseIssuer(deps, request.auth.accountId, request.params.id, lang);
      return reply.header('content-language', lang).header('vary', 'Accept-Language').send(report);
    },
  );
};
