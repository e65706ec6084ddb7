import { SANDBOX_ACCOUNT_ID } from '../identity/api-key.js';
import type { Queryable } from '../storage/db.js';

/** The shared account behind `sk_sandbox_public` (SPEC 1): made on start and again after each daily reset. */
export async function ensureSandboxAccount(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO accounts (id, name, environment) VALUES ($1, 'Sandbox', 'sandbox') ON CONFLICT (id) DO NOTHING`,
    [SANDBOX_ACCOUNT_ID],
  );
}
