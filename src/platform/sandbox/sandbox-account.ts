import { SANDBOX_ACCOUNT_ID } from '../../infra/identity/api-key.js';
import type { Queryable } from '../../infra/storage/db.js';

/**
 * The shared account behind `sk_sandbox_public` (docs/guides/api.md#contract-sandbox-and-secrets): made on start and again after each daily reset.
 * It comes with a technical responsible (infRespTec), so a sale of an issuer in a state that requires
 * one (MOC ZD01-10: AM, MS, PE, PR, SC, TO) works out of the box; PUT /v1/account/technical-responsible
 * replaces it. The CNPJ is a fictitious one with valid check digits (11.222.333/0001-81), no CSRT.
 */
export async function ensureSandboxAccount(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO accounts (id, name, environment) VALUES ($1, 'Sandbox', 'sandbox') ON CONFLICT (id) DO NOTHING`,
    [SANDBOX_ACCOUNT_ID],
  );
  await db.query(
    `INSERT INTO technical_responsibles (owner_id, account_id, cnpj, contact, email, phone, updated_at)
     VALUES ($1, $1, '11222333000181', 'Suporte Sandbox', 'sandbox@example.com', '1130000000', now())
     ON CONFLICT (owner_id) DO NOTHING`,
    [SANDBOX_ACCOUNT_ID],
  );
}
