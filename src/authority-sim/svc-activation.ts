// Whether a state has activated its SVC (docs/fiscal/svc.md#activation): NT 2013.007 v1.03 item 03, the SVC takes a
// state's NF-e only while that state has activated it; its homologation environment stays active for every state
// (item 02.2), so every state starts active here and the sandbox deactivates one on demand, to rehearse production.
import { TENANT_ID } from './tenant.js';

export interface SvcActivationRequest {
  /** UF abbreviation (SP, PR ...). */
  uf: string;
  active: boolean;
  /**
   * With `active: false`: when the deactivation takes effect (NT 2013.007 item 03: it is preceded by 15 minutes in
   * which both environments answer). Until then the SVC still authorizes, and its status answers 113 in the last 15
   * minutes (04.7 K05.3). Absent: at once.
   */
  at?: Date | null;
  /** Only this tenant's requests; absent or null: every tenant (the operator's). */
  tenant?: string | null;
}

const UF = /^[A-Z]{2}$/;

/** Why a request cannot change an activation (a message naming the field), or null. */
export function svcActivationProblem(r: { uf?: unknown; active?: unknown; tenant?: unknown; at?: unknown }): string | null {
  if (typeof r.uf !== 'string' || !UF.test(r.uf)) return 'uf must be a state abbreviation (two capital letters)';
  if (typeof r.active !== 'boolean') return 'active must be true or false';
  if (r.at !== undefined && r.at !== null && !(r.at instanceof Date && !Number.isNaN(r.at.getTime()))) return 'at must be a date-time';
  if (r.at && r.active) return 'at goes with active: false (when the deactivation takes effect)';
  if (r.tenant !== undefined && r.tenant !== null && (typeof r.tenant !== 'string' || (r.tenant !== '' && !TENANT_ID.test(r.tenant)))) {
    return 'tenant must be 1-64 letters, digits, _ or -';
  }
  return null;
}

/** NT 2013.007 item 03 and 04.7 K05.3: the 15 minutes before a deactivation, when the status answers 113. */
export const SVC_DEACTIVATION_NOTICE_MS = 15 * 60_000;

export class SvcActivationBoard {
  /** `tenant|UF` (tenant '*' for every tenant) of the states whose SVC is deactivated -> from when (0: at once). */
  private readonly off = new Map<string, number>();

  set(r: SvcActivationRequest): void {
    const problem = svcActivationProblem(r);
    if (problem) throw new RangeError(problem);
    const key = `${r.tenant ?? '*'}|${r.uf}`;
    if (r.active) this.off.delete(key);
    else this.off.set(key, r.at ? r.at.getTime() : 0);
  }

  /** When this state's SVC is (or was) deactivated for this tenant, the earliest of the operator's and the tenant's; null: never. */
  private offFrom(tenant: string, uf: string): number | null {
    const times = [this.off.get(`*|${uf}`), this.off.get(`${tenant}|${uf}`)].filter((t): t is number => t !== undefined);
    return times.length ? Math.min(...times) : null;
  }

  /** The SVC takes this state's notes for this tenant at `now`: nobody deactivated it, or not yet. */
  isActive(tenant: string, uf: string, now: Date = new Date()): boolean {
    const from = this.offFrom(tenant, uf);
    return from === null || now.getTime() < from;
  }

  /** The time of a deactivation that takes effect within the next 15 minutes (113, K05.3), else null. */
  deactivatingAt(tenant: string, uf: string, now: Date = new Date()): Date | null {
    const from = this.offFrom(tenant, uf);
    return from !== null && now.getTime() < from && from - now.getTime() <= SVC_DEACTIVATION_NOTICE_MS ? new Date(from) : null;
  }

  /** The deactivated states (or scheduled, with `at`), as the admin API lists them. */
  list(): Array<{ uf: string; tenant: string | null; active: false; at?: string }> {
    return [...this.off].map(([k, at]) => {
      const [tenant, uf] = k.split('|') as [string, string];
      return { uf, tenant: tenant === '*' ? null : tenant, active: false as const, ...(at ? { at: new Date(at).toISOString() } : {}) };
    });
  }

  clear(): void {
    this.off.clear();
  }
}
