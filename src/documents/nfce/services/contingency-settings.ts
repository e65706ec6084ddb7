import type { GatewayEnv } from '../../../config.js';
import type { IssuerRow } from '../../../platform/storage/repositories/issuer-repository.js';

/** How long a sale waits for the authority before contingency when the issuer says nothing (issue 17: "a few seconds"). */
export const DEFAULT_CONTINGENCY_WAIT_SECONDS = 3;

// FACTS 10: the deadline to transmit is UF dependent ("until the first business day after issue" in MG,
// "24 hours from issue" in PE, Ajuste SINIEF 11); the gateway holds itself to the shorter, 24 hours.
export const CONTINGENCY_DEADLINE_MS = 24 * 3600_000;

/**
 * The issuer's contingency choice (issuers.contingency; null: the environment's default). Contingency
 * is the taxpayer's decision (FACTS 10), so production issues in contingency only when the issuer opted in;
 * the sandbox does by default, so the autopilot can be watched.
 */
export function contingencyOf(issuer: Pick<IssuerRow, 'contingency'>, env: GatewayEnv): { mode: 'off' | 'offline'; waitSeconds: number } {
  const c = issuer.contingency;
  return { mode: c?.mode ?? (env === 'sandbox' ? 'offline' : 'off'), waitSeconds: c?.wait_seconds ?? DEFAULT_CONTINGENCY_WAIT_SECONDS };
}
