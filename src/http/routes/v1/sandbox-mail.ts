import type { FastifyPluginAsync } from 'fastify';
import type { Static } from 'typebox';
import { listMail, type MailRow } from '../../../platform/storage/repositories/mail-repository.js';
import { errorResponses } from '../../../kernel/errors.js';
import { SandboxMail } from '../../schemas/audit.js';
import { ListOf, ListQuery } from '../../schemas/common.js';
import { page } from '../../../kernel/page.js';

const present = (m: MailRow) => ({
  id: m.id,
  object: 'mail' as const,
  to: m.to_address,
  subject: m.subject,
  text: m.body_text,
  state: m.state,
  created_at: m.created_at.toISOString(),
  sent_at: m.sent_at?.toISOString() ?? null,
});

/** Sandbox only: the e-mails the gateway sent or would have sent (certificate alerts, disabled webhooks). */
export const sandboxMailRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/v1/sandbox/mail',
    {
      config: { scope: 'notifications:read' },
      schema: {
        tags: ['sandbox'],
        summary: 'E-mails sent or captured for this account (sandbox)',
        description: 'Without SMTP_URL the sandbox stores e-mails instead of sending them; this lists them, newest first. Set the address with PATCH /v1/account `notification_email`.',
        querystring: ListQuery,
        response: { 200: ListOf(SandboxMail, 'SandboxMailList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ListQuery>;
      const limit = q.limit ?? 20;
      const p = page(await listMail(app.ctx.db, request.auth.accountId, limit + 1, q.starting_after), limit);
      return { data: p.data.map(present), has_more: p.has_more };
    },
  );
};
