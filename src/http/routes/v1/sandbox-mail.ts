import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listMailPage } from '../../../platform/mail/sandbox-mailbox.js';
import { errorResponses } from '../../../kernel/errors.js';
import { SandboxMail } from '../../schemas/audit.js';
import { ListOf, ListQuery } from '../../schemas/common.js';

/** Sandbox only: the e-mails the gateway sent or would have sent (certificate alerts, disabled webhooks). */
export const sandboxMailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/sandbox/mail',
    {
      config: { scope: 'notifications:read', allowUnverified: true },
      schema: {
        tags: ['sandbox'],
        summary: 'E-mails sent or captured for this account (sandbox)',
        description: 'Without SMTP_URL the sandbox stores e-mails instead of sending them; this lists them, newest first. Set the address with PATCH /v1/account `notification_email`.',
        querystring: ListQuery,
        response: { 200: ListOf(SandboxMail, 'SandboxMailList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      return listMailPage(app.ctx, request.auth.accountId, q.limit ?? 20, q.starting_after);
    },
  );
};
