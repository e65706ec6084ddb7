// Private adapter (the accounts table belongs to the core migration; no account repository exists
// yet): reads and updates the account fields the API exposes. Move to an account repository when one lands.
import { ApiError, notFound } from '../../kernel/errors.js';
import type { Queryable } from '../../infra/storage/db.js';

export type TaxRegime = 'legacy' | 'reform_2026';

export interface AccountProfile {
  id: string;
  object: 'account';
  name: string;
  taxRegime: TaxRegime;
  environment: string;
  /** Where certificate alerts and webhook-disabled e-mails go; null: in-app only. */
  notification_email: string | null;
  /** Members sign in through single sign-on only; password and passkey get 403 sso_required. */
  require_sso: boolean;
  created_at: string;
}

interface AccountRow {
  id: string;
  name: string;
  tax_regime: TaxRegime;
  environment: string;
  notification_email: string | null;
  require_sso: boolean;
  created_at: Date;
}

const COLUMNS = 'id, name, tax_regime, environment, notification_email, require_sso, created_at';

const present = (r: AccountRow): AccountProfile => ({
  id: r.id,
  object: 'account',
  name: r.name,
  taxRegime: r.tax_regime,
  environment: r.environment,
  notification_email: r.notification_email,
  require_sso: r.require_sso,
  created_at: r.created_at.toISOString(),
});

export async function getAccountProfile(db: Queryable, accountId: string): Promise<AccountProfile> {
  const r = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [accountId]);
  if (!r.rows[0]) throw notFound('Account');
  return present(r.rows[0]);
}

export async function updateAccountProfile(
  db: Queryable,
  accountId: string,
  patch: { name?: string; taxRegime?: TaxRegime; notification_email?: string | null; require_sso?: boolean },
  now: Date,
  opts: { ssoAvailable: boolean } = { ssoAvailable: false },
): Promise<AccountProfile> {
  // Requiring single sign-on with no provider configured would lock every member out.
  if (patch.require_sso === true && !opts.ssoAvailable) {
    throw new ApiError('validation_error', 'No single sign-on provider is configured on this gateway (SSO_GOOGLE_CLIENT_ID, SSO_MICROSOFT_CLIENT_ID)', [{ field: 'require_sso', message: 'needs a configured provider' }]);
  }
  const r = await db.query<AccountRow>(
    `UPDATE accounts SET name = COALESCE($2, name), tax_regime = COALESCE($3, tax_regime), updated_at = $4,
        notification_email = CASE WHEN $5 THEN $6 ELSE notification_email END,
        require_sso = COALESCE($7, require_sso)
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [accountId, patch.name?.trim() ?? null, patch.taxRegime ?? null, now, patch.notification_email !== undefined, patch.notification_email?.trim() || null, patch.require_sso ?? null],
  );
  if (!r.rows[0]) throw notFound('Account');
  return present(r.rows[0]);
}
