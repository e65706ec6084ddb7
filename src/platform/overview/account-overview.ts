import type { Ports } from '../ports/ports.js';
import { scopeCovers } from '../../infra/identity/scopes.js';
import { accountPlanAt } from '../billing/account-plan.js';
import { PLANS } from '../billing/plans.js';
import { usageLines } from '../billing/usage.js';
import { billingAccount, getSubscription, usageTotals } from '../../infra/storage/repositories/billing-repository.js';
import {
  authorizationLatency, contingencyNotes, expiringCertificates, noteCountsByStatus, topRejectionCauses, type NoteWindow,
} from './storage/overview-repository.js';
import { localWindow, OVERVIEW_TIME_ZONE } from './local-day.js';

/** The document types of the shared notes table and their models (the platform knows them only as numbers). */
export const DOCUMENT_TYPES = [
  { type: 'nfce', model: 65 },
  { type: 'nfe', model: 55 },
  { type: 'nfse', model: 99 },
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number]['type'];

const typeOf = (model: number): DocumentType => DOCUMENT_TYPES.find((t) => t.model === model)?.type ?? 'nfce';

// Every list is bounded: an overview is a glance, the lists behind it are paged elsewhere.
export const TOP_REJECTION_CAUSES = 5;
export const CONTINGENCY_NOTES = 20;
export const EXPIRING_CERTIFICATES = 20;
/** Certificates expiring within this many days are listed (docs/guides/api.md#contract-certificate-alerts's first alert). */
export const EXPIRY_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

const iso = (d: Date) => d.toISOString();

async function documentSections(deps: Pick<Ports, 'db'>, w: NoteWindow, types: DocumentType[]) {
  const counts = await noteCountsByStatus(deps.db, w);
  const lines = (pick: 'today' | 'month') =>
    counts.filter((c) => c[pick] > 0).map((c) => ({ type: typeOf(c.model), status: c.status, count: c[pick] }));
  const latency = await authorizationLatency(deps.db, w);
  const causes = await topRejectionCauses(deps.db, w, TOP_REJECTION_CAUSES);
  const contingency = await contingencyNotes(deps.db, w.accountId, w.models, CONTINGENCY_NOTES);
  return {
    documents: { types, today: lines('today'), month: lines('month') },
    latency,
    rejections: {
      month_total: counts.filter((c) => c.status === 'rejected').reduce((s, c) => s + c.month, 0),
      top: causes.map((c) => ({ code: c.code, message: c.message, count: c.count, types: c.models.map(typeOf) })),
    },
    contingency: {
      outstanding: contingency.total,
      notes: contingency.notes.map((n) => ({ id: n.id, type: typeOf(n.model), issuer_id: n.issuer_id, serie: n.serie, number: n.number, entered_at: n.entered_at, deadline_at: n.deadline_at })),
      has_more: contingency.total > contingency.notes.length,
    },
  };
}

async function usageSection(deps: Pick<Ports, 'db'>, accountId: string, now: Date, period: string) {
  const account = await billingAccount(deps.db, accountId);
  const sandbox = account?.environment !== 'production';
  const plan = await accountPlanAt(deps.db, accountId, now);
  const sub = await getSubscription(deps.db, accountId);
  return {
    period,
    plan: { id: plan, name: PLANS[plan].name },
    sandbox,
    hard_cap: sub?.hard_cap ?? false,
    lines: usageLines(plan, await usageTotals(deps.db, accountId, period), !sandbox),
  };
}

/**
 * GET /v1/overview: the account at a glance, in São Paulo's calendar. Each section is
 * there when the caller's scopes read what it shows, null otherwise: documents, latency, rejections
 * and contingency need a document type's read scope (and count only the types the caller reads),
 * certificates need `issuers:read`, usage needs `billing:read`. A billing member gets usage alone.
 */
export async function accountOverview(deps: Pick<Ports, 'db' | 'clock'>, accountId: string, scopes: readonly string[]) {
  const now = deps.clock.now();
  const win = localWindow(now);
  const types = DOCUMENT_TYPES.filter((t) => scopeCovers(scopes, `${t.type}:read`));
  const w: NoteWindow = { accountId, models: types.map((t) => t.model), monthStart: win.monthStart, dayStart: win.dayStart, end: win.end };
  const docs = types.length ? await documentSections(deps, w, types.map((t) => t.type)) : null;
  const certificates = scopeCovers(scopes, 'issuers:read')
    ? (await expiringCertificates(deps.db, accountId, new Date(now.getTime() + EXPIRY_WINDOW_DAYS * DAY_MS), EXPIRING_CERTIFICATES)).map((c) => ({
        issuer_id: c.issuer_id,
        razao_social: c.razao_social,
        cnpj: c.cnpj,
        not_after: iso(c.not_after),
        expired: c.not_after.getTime() <= now.getTime(),
        days_left: Math.max(0, Math.floor((c.not_after.getTime() - now.getTime()) / DAY_MS)),
      }))
    : null;
  return {
    object: 'overview' as const,
    at: iso(now),
    time_zone: OVERVIEW_TIME_ZONE,
    today: { date: win.day, start: iso(win.dayStart), end: iso(win.end) },
    month: { period: win.month, start: iso(win.monthStart), end: iso(win.end) },
    documents: docs?.documents ?? null,
    latency: docs?.latency ?? null,
    rejections: docs?.rejections ?? null,
    contingency: docs?.contingency ?? null,
    certificates,
    usage: scopeCovers(scopes, 'billing:read') ? await usageSection(deps, accountId, now, win.month) : null,
  };
}
