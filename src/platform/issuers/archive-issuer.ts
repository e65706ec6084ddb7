import { ApiError, notFound } from '../../kernel/errors.js';
import { assertPlanAllows } from '../billing/plan-limits.js';
import { findIssuer, setIssuerArchived } from '../../infra/storage/repositories/issuer-repository.js';
import type { RegisteredIssuer } from '../../kernel/issuer.js';
import type { IssuerServiceDeps } from './issuer-deps.js';

type Deps = Pick<IssuerServiceDeps, 'db' | 'clock'>;

/**
 * An issuer cannot be deleted (its documents are kept 5 years), so an account
 * past a smaller plan's issuer limit archives the excess. Archived, it emits nothing new and
 * changes no setting, but every document stays readable and the events the law still allows on
 * them (cancellation in its window, CC-e, manifestation) keep working. The plan does not count it.
 */
export function assertIssuerActive(issuer: Pick<RegisteredIssuer, 'id' | 'archived_at'>): void {
  if (!issuer.archived_at) return;
  throw new ApiError(
    'issuer_archived',
    `Issuer ${issuer.id} is archived (read-only): its documents stay readable, but nothing new is issued and its settings do not change; unarchive it first (POST /v1/issuers/${issuer.id}/unarchive)`,
    [{ field: 'issuer_id', message: `archived at ${issuer.archived_at.toISOString()}` }],
  );
}

/** Idempotent: archiving an archived issuer keeps its first date. */
export async function archiveIssuer(deps: Deps, accountId: string, id: string): Promise<RegisteredIssuer> {
  const row = await findIssuer(deps.db, accountId, id);
  if (!row) throw notFound('Issuer');
  if (!row.archived_at) await setIssuerArchived(deps.db, accountId, id, deps.clock.now(), deps.clock.now());
  return (await findIssuer(deps.db, accountId, id))!;
}

/** Idempotent. An issuer that comes back counts again: a full plan refuses it, 409 plan_limits_exceeded. */
export async function unarchiveIssuer(deps: Deps, accountId: string, id: string): Promise<RegisteredIssuer> {
  const row = await findIssuer(deps.db, accountId, id);
  if (!row) throw notFound('Issuer');
  if (!row.archived_at) return row;
  try {
    await assertPlanAllows(deps.db, accountId, 'issuers', deps.clock.now());
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'plan_limit_reached') throw err;
    throw new ApiError('plan_limits_exceeded', `${err.message.replace(/ to add more$/, '')} or archive another issuer (POST /v1/issuers/:id/archive) before unarchiving this one`, err.details);
  }
  await setIssuerArchived(deps.db, accountId, id, null, deps.clock.now());
  return (await findIssuer(deps.db, accountId, id))!;
}
