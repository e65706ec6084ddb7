import { notFound } from '../../kernel/errors.js';
import type { Ports } from '../ports/ports.js';
import { findIssuer } from '../../infra/storage/repositories/issuer-repository.js';
import { findBuyerMailSettings, upsertBuyerMailSettings, type BuyerMailSettingsRow } from '../../infra/storage/repositories/buyer-mail-repository.js';

// The issuer's buyer e-mail settings (docs/guides/email.md): whether the buyer gets
// the DANFE and XML of each authorized note and the notice of its cancellation, the name the
// mail is sent under, and an accountant's address copied in Bcc.

export interface BuyerMailSettingsInput {
  enabled: boolean;
  /** Display name of the From header; null: the issuer's trade name, else its legal name. */
  sender_name?: string | null | undefined;
  /** Copied (Bcc) on every mail to a buyer; null: nobody. */
  accountant_email?: string | null | undefined;
}

export interface BuyerMailSettingsView {
  object: 'buyer_email_settings';
  issuer_id: string;
  enabled: boolean;
  sender_name: string | null;
  accountant_email: string | null;
  updated_at: string | null;
}

const present = (issuerId: string, row: BuyerMailSettingsRow | null): BuyerMailSettingsView => ({
  object: 'buyer_email_settings',
  issuer_id: issuerId,
  enabled: row?.enabled ?? false,
  sender_name: row?.sender_name ?? null,
  accountant_email: row?.accountant_email ?? null,
  updated_at: row?.updated_at.toISOString() ?? null,
});

export async function getBuyerMailSettings(deps: Pick<Ports, 'db'>, accountId: string, issuerId: string): Promise<BuyerMailSettingsView> {
  if (!(await findIssuer(deps.db, accountId, issuerId))) throw notFound('Issuer');
  return present(issuerId, await findBuyerMailSettings(deps.db, issuerId));
}

/** Replaces the settings; a field left out keeps its stored value. */
export async function setBuyerMailSettings(
  deps: Pick<Ports, 'db' | 'clock'>,
  accountId: string,
  issuerId: string,
  input: BuyerMailSettingsInput,
): Promise<BuyerMailSettingsView> {
  return deps.db.transaction(async (tx) => {
    if (!(await findIssuer(tx, accountId, issuerId, { forUpdate: true }))) throw notFound('Issuer');
    const current = await findBuyerMailSettings(tx, issuerId);
    const pick = (v: string | null | undefined, stored: string | null | undefined) => (v === undefined ? stored ?? null : v === null ? null : v.trim());
    const row = await upsertBuyerMailSettings(tx, {
      issuerId,
      accountId,
      enabled: input.enabled,
      senderName: pick(input.sender_name, current?.sender_name),
      accountantEmail: pick(input.accountant_email, current?.accountant_email),
      at: deps.clock.now(),
    });
    return present(issuerId, row);
  });
}
