import { ApiError, notFound } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { page } from '../../kernel/page.js';
import type { Ports } from '../ports/ports.js';
import { generateApiKey, hashApiKey, keyPrefix } from '../../infra/identity/api-key.js';
import { requireWithinOwnRights } from '../../infra/identity/grants.js';
import { missingScopes } from '../../infra/identity/scopes.js';
import {
  getApplication,
  insertApplication,
  listApplications,
  revokeApplication as storeRevocation,
  rotateApplicationKey as storeRotatedKey,
  type ApplicationRow,
} from '../../infra/storage/repositories/application-repository.js';

/** The key making the call: its account, and the scopes bounding what it may do to other keys. */
export interface Caller {
  accountId: string;
  scopes: readonly string[];
}

/** An application with its new key, which is shown in this answer only. */
export interface ApplicationWithKey {
  row: ApplicationRow;
  key: string;
}

/**
 * Every operation on a key (create, rotate, revoke) needs the caller to cover the key's scopes
 * Otherwise a narrow key could take a broader one away or obtain its successor.
 */
function requireCovers(granted: readonly string[], target: readonly string[], action: string): void {
  const missing = missingScopes(granted, target);
  if (missing.length === 0) return;
  throw new ApiError(
    'forbidden',
    `A key can only ${action} keys within its own scopes; this key lacks ${missing.map((s) => `"${s}"`).join(', ')}`,
  );
}

/** The application of this account, once the caller is known to cover its scopes. */
async function coveredApplication(deps: Pick<Ports, 'db'>, caller: Caller, id: string, action: string): Promise<ApplicationRow> {
  const existing = await getApplication(deps.db, caller.accountId, id);
  if (!existing) throw notFound('Application');
  requireCovers(caller.scopes, existing.scopes, action);
  return existing;
}

export async function listApplicationPage(deps: Pick<Ports, 'db'>, accountId: string, limit: number, startingAfter?: string) {
  return page(await listApplications(deps.db, accountId, limit + 1, startingAfter), limit);
}

export async function createApplication(
  deps: Pick<Ports, 'db' | 'config'>,
  caller: Caller,
  input: { name: string; scopes: string[] },
): Promise<ApplicationWithKey> {
  // A new key gives rights: the rule, the same as for an invite or a role (grants.ts).
  requireWithinOwnRights(caller.scopes, input.scopes, 'create this key');
  const key = generateApiKey(deps.config.env);
  const row = await insertApplication(deps.db, {
    id: newId('app'),
    accountId: caller.accountId,
    name: input.name,
    scopes: input.scopes,
    keyHash: hashApiKey(key),
    keyPrefix: keyPrefix(key),
  });
  return { row, key };
}

/** Revokes every key of the application at once (the caller then drops its cached key lookups). */
export async function revokeApplicationKeys(deps: Pick<Ports, 'db' | 'clock'>, caller: Caller, id: string): Promise<void> {
  // Scopes never change after creation, so checking them before the revoke leaves no race.
  await coveredApplication(deps, caller, id, 'revoke');
  if (!(await storeRevocation(deps.db, caller.accountId, id, deps.clock.now()))) throw notFound('Application');
}

/**
 * Issues a new key; the previous one keeps working for KEY_ROTATION_GRACE_SECONDS so deployments
 * can switch without downtime.
 */
export async function rotateApplication(deps: Pick<Ports, 'db' | 'clock' | 'config'>, caller: Caller, id: string): Promise<ApplicationWithKey> {
  await coveredApplication(deps, caller, id, 'rotate');
  const key = generateApiKey(deps.config.env);
  const now = deps.clock.now();
  const graceEnds = new Date(now.getTime() + deps.config.keyRotationGraceSeconds * 1000);
  const row = await storeRotatedKey(deps.db, caller.accountId, id, hashApiKey(key), keyPrefix(key), now, graceEnds);
  if (!row) throw notFound('Application');
  return { row, key };
}
