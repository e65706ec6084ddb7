import type { Db } from '../../src/infra/storage/db.js';
import { meterUsage } from '../../src/infra/storage/repositories/billing-repository.js';
import { forgetBillingState } from '../../src/platform/billing/quota.js';

/**
 * The test app runs a sandbox deployment, whose accounts are never billed; an account of a
 * production deployment carries `environment = 'production'` (cli/create-account.ts writes
 * config.env). Billing tests turn their own fresh account into one.
 */
export async function makeProduction(db: Db, accountId: string): Promise<void> {
  await db.query(`UPDATE accounts SET environment = 'production' WHERE id = $1`, [accountId]);
  forgetBillingState(accountId);
}

/**
 * `n` documents of `kind` metered for the account in `period` as the authorization statement meters
 * them (one usage row each, the total bumped): reaching a plan's quota without issuing 100 notes.
 */
export async function meterSynthetic(db: Db, a: { accountId: string; issuerId: string; kind: 'nfce' | 'nfe' | 'nfse' | 'events'; period: string; n: number; at: Date }): Promise<void> {
  for (let i = 0; i < a.n; i++) {
    await meterUsage(db, { subjectId: `synthetic_${a.accountId}_${a.kind}_${a.period}_${i}`, kind: a.kind, accountId: a.accountId, issuerId: a.issuerId, period: a.period, at: a.at });
  }
}
