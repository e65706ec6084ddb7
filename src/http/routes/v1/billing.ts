import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError, errorResponses } from '../../../kernel/errors.js';
import { isPeriodId, periodOf } from '../../../platform/billing/period.js';
import { renderInvoicePdf } from '../../../platform/billing/invoice-pdf.js';
import { getAccountInvoice, invoiceAccountName, listAccountInvoices, presentInvoice } from '../../../platform/billing/invoices.js';
import { changePlan, getSubscriptionView, updateSubscription } from '../../../platform/billing/subscription.js';
import { readUsage } from '../../../platform/billing/usage.js';
import { applyAsaasWebhook, asaasTokenValid } from '../../../platform/billing/payment-events.js';
import { IdParams, ListOf, ListQuery } from '../../schemas/common.js';
import {
  AsaasWebhookAnswer, AsaasWebhookBody, InvoiceSchema, PatchSubscriptionBody, PlanChangeSchema, SubscriptionSchema, UpgradeBody, UsageQuery, UsageSchema,
} from '../../schemas/billing.js';
import { sendDocument } from '../../document-reply.js';

/**
 * docs/guides/api.md#contract-idempotency Billing: subscription, usage, invoices and plan changes. Reading needs
 * `billing:read` (owner, admin, billing); changing needs `billing:write` (owner and billing roles,
 * infra/identity/roles.ts) and, from a dashboard session, a recent sign-in (step-up).
 */
export const billingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['billing'];
  const { ctx } = app;

  app.get(
    '/v1/billing/subscription',
    {
      config: { scope: 'billing:read' },
      schema: {
        tags,
        summary: 'The subscription: plan, status, current period, usage, overage and the next invoice\'s estimate',
        description: 'A sandbox account shows its plan with `sandbox: true`: the sandbox is never billed (no invoices, no overage charged).',
        response: { 200: SubscriptionSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => getSubscriptionView(ctx, request.auth.accountId),
  );

  app.patch(
    '/v1/billing/subscription',
    {
      config: { scope: 'billing:write', stepUp: true },
      schema: {
        tags,
        summary: 'Set or clear the hard cap',
        description:
          'With `hard_cap: true`, a document past the plan\'s included ones of its type this month is refused with 402 `quota_exceeded` before ' +
          'anything is numbered or sent to the authority. Without it (the default) nothing is ever refused for billing: documents past the ' +
          'quota are issued and billed as overage. Audited (`billing.subscription.update`).',
        body: PatchSubscriptionBody,
        response: { 200: SubscriptionSchema, ...errorResponses(400, 401, 403, 415, 422, 429) },
      },
    },
    async (request) => updateSubscription(ctx, request.auth.accountId, request.body),
  );

  app.get(
    '/v1/billing/usage',
    {
      config: { scope: 'billing:read' },
      schema: {
        tags,
        summary: 'Metered documents of a period, by type and by issuer',
        description: 'Authorized NFC-e, NF-e and NFS-e and registered CC-e (`events`), each counted once, in the period (calendar month, Brasília time) it was authorized.',
        querystring: UsageQuery,
        response: { 200: UsageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const period = request.query.period ?? periodOf(ctx.clock.now());
      if (!isPeriodId(period)) throw new ApiError('validation_error', 'period must be YYYY-MM', [{ field: 'period', message: 'must be YYYY-MM, e.g. 2026-11' }]);
      return readUsage(ctx.db, request.auth.accountId, period);
    },
  );

  app.get(
    '/v1/billing/invoices',
    {
      config: { scope: 'billing:read' },
      schema: {
        tags,
        summary: 'Monthly invoices, newest first',
        description: 'Made by the monthly job when a period closes: the plan, upgrades\' proration and overage per type. Sandbox accounts have none.',
        querystring: ListQuery,
        response: { 200: ListOf(InvoiceSchema, 'BillingInvoiceList'), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => listAccountInvoices(ctx, request.auth.accountId, request.query),
  );

  app.get(
    '/v1/billing/invoices/:id',
    {
      config: { scope: 'billing:read' },
      schema: { tags, summary: 'One invoice', params: IdParams, response: { 200: InvoiceSchema, ...errorResponses(401, 403, 404, 429) } },
    },
    async (request) => presentInvoice(await getAccountInvoice(ctx, request.auth.accountId, request.params.id), ctx.config.publicBaseUrl),
  );

  app.get(
    '/v1/billing/invoices/:id/pdf',
    {
      config: { scope: 'billing:read' },
      schema: {
        tags,
        summary: 'The invoice as a PDF',
        params: IdParams,
        response: { 200: Type.Unsafe<Buffer>(Type.String({ description: 'application/pdf', format: 'binary' })), ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const invoice = await getAccountInvoice(ctx, request.auth.accountId, request.params.id);
      const pdf = await renderInvoicePdf(invoice, await invoiceAccountName(ctx, request.auth.accountId));
      return sendDocument(request, reply, { type: 'application/pdf', fileName: `${invoice.id}.pdf`, body: pdf });
    },
  );

  app.post(
    '/v1/billing/upgrade',
    {
      config: { scope: 'billing:write', stepUp: true },
      schema: {
        tags,
        summary: 'Change the plan (upgrade at once and prorated, downgrade at the period end); `preview: true` shows the math only',
        description:
          'An upgrade (a dearer plan) takes effect at once and adds round(price difference x time left / period length) to this period\'s invoice; ' +
          'a downgrade takes effect when the period ends, nothing refunded; a downgrade (or its preview) to a plan whose issuer or team limits the account exceeds is 409 `plan_limits_exceeded`, `details` naming what to remove, and while a downgrade is pending its smaller limits bind. Choosing the plan in force drops a pending downgrade. ' +
          'Owner and billing roles (scope `billing:write`), with a recent sign-in from a dashboard session. `Idempotency-Key` is required ' +
          '(400 `idempotency_key_invalid` without it) unless `preview` is true. Audited (`billing.upgrade.create`).',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ description: 'Required (8-256 characters) unless previewing' })) }),
        body: UpgradeBody,
        response: { 200: PlanChangeSchema, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    },
    async (request) => {
      if (!request.body.preview && request.headers['idempotency-key'] === undefined) {
        throw new ApiError('idempotency_key_invalid', 'A plan change needs an Idempotency-Key header (8-256 characters, e.g. a UUID): a retry must not change the plan twice', [
          { field: 'header.Idempotency-Key', message: 'required' },
        ]);
      }
      return changePlan(ctx, request.auth.accountId, request.body);
    },
  );

  app.post(
    '/v1/billing/webhooks/asaas',
    {
      config: { public: true, limitPerIp: true },
      schema: {
        tags,
        security: [],
        summary: 'Payment events from Asaas (its webhook)',
        description:
          'Asaas calls this with the `asaas-access-token` header set to the token configured there and here (ASAAS_WEBHOOK_TOKEN); ' +
          'any other is refused 401 and logged. Each event id is applied once: a redelivery answers 200 and changes nothing.',
        body: AsaasWebhookBody,
        response: { 200: AsaasWebhookAnswer, ...errorResponses(400, 401, 415, 422, 429) },
      },
    },
    async (request) => {
      if (!asaasTokenValid(ctx.config.billing.asaasWebhookToken, request.headers['asaas-access-token'])) {
        // Never the token itself: only that one came, and from where.
        request.log.warn({ ip: request.ip, token_present: request.headers['asaas-access-token'] !== undefined }, 'Asaas webhook refused: invalid asaas-access-token');
        throw new ApiError('unauthorized', 'Invalid asaas-access-token');
      }
      return { received: true as const, ...(await applyAsaasWebhook(ctx, request.body)) };
    },
  );
};
