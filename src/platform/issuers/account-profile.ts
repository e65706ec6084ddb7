// Private adapter (the accounts table belongs to the core migration; no account repository exists
// yet): reads and updates the account fields the API exposes. Move to an account repository when one lands.
import { notFound } from '../../kernel/errors.js';
import type { Queryable } from '../storage/db.js';

export type TaxRegime = 'legacy' | 'reform_2026';

export interface AccountProfile {
  id: string;
  object: 'account';
  name: string;
  taxRegime: TaxRegime;
  environment: string;
  /** Where certificate alerts and webhook-disabled e-mails go (issue 6); null: in-app only. */
  notification_email: string | null;
  created_at: string;
}

interface AccountRow {
  id: string;
  name: string;
  tax_regime: TaxRegime;
  environment: string;
  notification_email: string | null;
  created_at: Date;
}

const present = (r: AccountRow): AccountProfile => ({
  id: r.id,
  object: 'account',
  name: r.name,
  taxRegime: r.tax_regime,
  environment: r.environment,
  notification_email: r.notification_email,
  created_at: r.created_at.toISOString(),
});

export async function getAccountProfile(db: Queryable, accountId: string): Promise<AccountProfile> {
  const r = await db.query<AccountRow>('SELECT id, name, tax_regime, environment, notification_email, created_at FROM accounts WHERE id = $1', [accountId]);
  if (!r.rows[0]) throw notFound('Account');
  return present(r.rows[0]);
}

export async function updateAccountProfile(
  db: Queryable,
  accountId: string,
  patch: { name?: string; taxRegime?: TaxRegime; notification_email?: string | null },
  now: Date,
): Promise<AccountProfile> {
  const r = await db.query<AccountRow>(
    `UPDATE accounts SET name = COALESCE($2, name), tax_regime = COALESCE($3, tax_regime), updated_at = $4,
        notification_email = CASE WHEN $5 THEN $6 ELSE notification_email END
      WHERE id = $1 RETURNING id, name, tax_regime, environment, notification_email, created_at`,
    [accountId, patch.name?.trim() ?? null, patch.taxRegime ?? null, now, patch.notification_email !== undefined, patch.notification_email?.trim() || null],
  );
  if (!r.rows[0]) throw notFound('Account');
  return present(r.rows[0]);
}
