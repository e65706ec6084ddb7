import type { GatewayEnv } from '../../../config.js';
import type { IssuerForEmission, RegisteredIssuer } from '../../../kernel/issuer.js';
import type { IssueDeps, IssueOptions } from '../../notes/services/issue-note.js';
import { NFCE_MODEL } from './nfce-deps.js';

/** How long a sale waits for the authority before contingency when the issuer says nothing ("a few seconds"). */
export const DEFAULT_CONTINGENCY_WAIT_SECONDS = 3;

// docs/fiscal/offline-contingency.md: the deadline to transmit is UF dependent ("until the first business day after issue" in MG,
// "24 hours from issue" in PE, Ajuste SINIEF 11); the gateway holds itself to the shorter, 24 hours.
export const CONTINGENCY_DEADLINE_MS = 24 * 3600_000;

/**
 * The issuer's contingency choice (issuers.contingency; null: the environment's default). Contingency
 * is the taxpayer's decision (docs/fiscal/offline-contingency.md), so production issues in contingency only when the issuer opted in;
 * the sandbox does by default, so the autopilot can be watched.
 */
export function contingencyOf(issuer: Pick<RegisteredIssuer, 'contingency'>, env: GatewayEnv): { mode: 'off' | 'offline' | 'epec'; waitSeconds: number } {
  const c = issuer.contingency;
  return { mode: c?.mode ?? (env === 'sandbox' ? 'offline' : 'off'), waitSeconds: c?.wait_seconds ?? DEFAULT_CONTINGENCY_WAIT_SECONDS };
}

/** xJust of the contingency (15-256 characters, docs/fiscal/offline-contingency.md): why the authority could not be used. */
export function contingencyReason(detail: string): string {
  const text = `SEFAZ sem resposta na autorizacao: ${detail}`.replace(/\s+/g, ' ').trim();
  return text.length > 256 ? text.slice(0, 256) : text;
}

/**
 * The authority is KNOWN to be down (its authorization endpoint's breaker is open, so
 * several calls in a row went unanswered, from any process): a sale of an issuer that allows
 * contingency goes straight to offline contingency, without a first attempt to settle later.
 */
export async function contingencyAtOnce(deps: IssueDeps, issuer: IssuerForEmission, caller: string): Promise<IssueOptions['contingency']> {
  const mode = contingencyOf(issuer, deps.config.env).mode;
  if (!deps.breaker || mode === 'off') return undefined;
  const tpAmb = issuer.ambiente === 'producao' ? 1 : 2;
  // The caller (certificate and account) scopes the breaker in the sandbox only (breaker-key.ts).
  if (!(await deps.breaker.isOpen({ uf: issuer.uf, model: NFCE_MODEL, tpAmb, service: 'autorizacao', certificate: caller }))) return undefined;
  return { reason: contingencyReason('servico de autorizacao indisponivel (falhas seguidas)'), deadlineMs: CONTINGENCY_DEADLINE_MS, ...(mode === 'epec' ? { kind: 'epec' as const } : {}) };
}
