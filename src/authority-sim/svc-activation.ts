// Whether a state has activated its SVC (docs/fiscal/svc.md#activation): NT 2013.007 v1.03 item 03, the SVC takes a
// state's NF-e only while that state has activated it; its homologation environment stays active for every state
// (item 02.2), so every state starts active here and the sandbox deactivates one on demand, to rehearse production.
import { TENANT_ID } from './tenant.js';

export interface SvcActivationRequest {
  /** UF abbreviation (SP, PR ...). */
  uf: string;
  active: boolean;
  /** Only this tenant's requests; absent or null: every tenant (the operator's). */
  tenant?: string | null;
}

const UF = /^[A-Z]{2}$/;

/** Why a request cannot change an activation (a message naming the field), or null. */
export function svcActivationProblem(r: { uf?: unknown; active?: unknown; tenant?: unknown }): string | null {
  if (typeof r.uf !== 'string' || !UF.test(r.uf)) return 'uf must be a state abbreviation (two capital letters)';
  if (typeof r.active !== 'boolean') return 'active must be true or false';
  if (r.tenant !== undefined && r.tenant !== null && (typeof r.tenant !== 'string' || (r.tenant !== '' && !TENANT_ID.test(r.tenant)))) {
    return 'tenant must be 1-64 letters, digits, _ or -';
  }
  return null;
}

export class SvcActivationBoard {
  /** `tenant|UF` (tenant '*' for every tenant) of the states whose SVC is deactivated. */
  private readonly off = new Set<string>();

  set(r: SvcActivationRequest): void {
    const problem = svcActivationProblem(r);
    if (problem) throw new RangeError(problem);
    const key = `${r.tenant ?? '*'}|${r.uf}`;
    if (r.active) this.off.delete(key);
    else this.off.add(key);
  }

  /** The SVC takes this state's notes for this tenant: neither the operator nor the tenant deactivated it. */
  isActive(tenant: string, uf: string): boolean {
    return !this.off.has(`*|${uf}`) && !this.off.has(`${tenant}|${uf}`);
  }

  /** The deactivated states, as the admin API lists them. */
  list(): Array<{ uf: string; tenant: string | null; active: false }> {
    return [...this.off].map((k) => {
      const [tenant, uf] = k.split('|') as [string, string];
      return { uf, tenant: tenant === '*' ? null : tenant, active: false as const };
    });
  }

  clear(): void {
    this.off.clear();
  }
}
