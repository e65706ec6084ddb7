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
        summary: 'E-mails sent or captured: your own, and the account\'s with their links redacted (sandbox)',
        description: 'Without SMTP_URL the sandbox stores e-mails instead of sending them; this lists them, newest first. A member reads the mail addressed to them, links intact (once their e-mail is confirmed, also what other accounts sent to it: an invite). Before it is confirmed a session reads only that, filed under its account, whatever its role: a new sign-up finds its verification link here; with SMTP_URL set its tokens are redacted until then (the e-mail really left: the inbox is the proof). Owners and admins also read the rest of the account\'s mail, and an API key all of it, with every token (password reset, invite, verification) replaced by `<prefix>_[redacted]` (`redacted: true`). Set the account\'s address with PATCH /v1/account `notification_email`.',
        querystring: ListQuery,
        response: { 200: ListOf(SandboxMail, 'SandboxMailList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query;
      return listMailPage(app.ctx, request.auth, q.limit ?? 20, q.starting_after);
    },
  );
};
