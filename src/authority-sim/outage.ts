// Outages on demand: the simulated SEFAZ stops serving for a while, for every issuer or for one
// CNPJ, as the authorities do (docs/fiscal/offline-contingency.md, docs/fiscal/offline-contingency.md#autopilot: 108 "Serviço Paralisado Momentaneamente", 109
// "Serviço Paralisado sem Previsão", or no answer at all), so the gateway's contingency can be
// watched and tested. The duration runs on the simulator's clock (setClock): a test ends an outage
// by moving that clock, without sleeping. A wall-clock timer ends it too and releases the
// connections a `no-answer` outage holds; every timer is unref'd and cleared by clear().
import type { Socket } from 'node:net';
import { TENANT_ID } from './tenant.js';

export const OUTAGE_MODES = ['unavailable', 'unavailable:109', 'no-answer'] as const;
export type OutageMode = (typeof OUTAGE_MODES)[number];
export const MAX_OUTAGE_SECONDS = 86_400;
/**
 * Whose server goes down: the state's authorizer (default), or the NF-e contingency authorizers (SVC-AN and
 * SVC-RS, docs/fiscal/svc.md), which are other authorities' servers and fail on their own.
 */
export const OUTAGE_AUTHORIZERS = ['state', 'svc'] as const;
export type OutageAuthorizer = (typeof OUTAGE_AUTHORIZERS)[number];

export interface OutageRequest {
  mode: OutageMode;
  /** 1..86400 */
  seconds: number;
  /** Only this issuer (CNPJ, or CPF of an individual issuer); absent or null: every issuer. */
  cnpj?: string | null;
  /**
   * Only this tenant's requests (tenant.ts: an `outage:` scenario stops its own account only);
   * absent or null: every tenant (the operator's outage).
   */
  tenant?: string | null;
  /** The state's authorizer (absent: default) or the SVCs. */
  authorizer?: OutageAuthorizer;
}

export interface Outage {
  mode: OutageMode;
  cnpj: string | null;
  tenant: string | null;
  authorizer: OutageAuthorizer;
  startedAt: Date;
  endsAt: Date;
}

/** The outage as the admin API shows it. */
export function outageJson(o: Outage): { mode: OutageMode; cnpj: string | null; tenant: string | null; authorizer: OutageAuthorizer; started_at: string; ends_at: string } {
  return { mode: o.mode, cnpj: o.cnpj, tenant: o.tenant, authorizer: o.authorizer, started_at: o.startedAt.toISOString(), ends_at: o.endsAt.toISOString() };
}

/** 14-character CNPJ (alphanumeric root, IN RFB 2229/2024) or an 11-digit CPF. */
export const ISSUER_ID = /^(?:[0-9A-Z]{12}[0-9]{2}|[0-9]{11})$/;

/** Why a request cannot start an outage (a RangeError message naming the field), or null. */
export function outageRequestProblem(r: { mode?: unknown; seconds?: unknown; cnpj?: unknown; tenant?: unknown; authorizer?: unknown }): string | null {
  if (typeof r.mode !== 'string' || !(OUTAGE_MODES as readonly string[]).includes(r.mode)) return `mode must be ${OUTAGE_MODES.join(', ')}`;
  if (typeof r.seconds !== 'number' || !Number.isInteger(r.seconds) || r.seconds < 1 || r.seconds > MAX_OUTAGE_SECONDS) {
    return `seconds must be an integer from 1 to ${MAX_OUTAGE_SECONDS}`;
  }
  if (r.cnpj !== undefined && r.cnpj !== null && (typeof r.cnpj !== 'string' || !ISSUER_ID.test(r.cnpj))) {
    return 'cnpj must be a 14-character CNPJ (or an 11-digit CPF)';
  }
  // '' is the tenant of requests without one (direct clients: tenant.ts).
  if (r.tenant !== undefined && r.tenant !== null && (typeof r.tenant !== 'string' || (r.tenant !== '' && !TENANT_ID.test(r.tenant)))) {
    return 'tenant must be 1-64 letters, digits, _ or -';
  }
  if (r.authorizer !== undefined && r.authorizer !== null && !(OUTAGE_AUTHORIZERS as readonly unknown[]).includes(r.authorizer)) {
    return `authorizer must be ${OUTAGE_AUTHORIZERS.join(' or ')}`;
  }
  return null;
}

interface Live {
  outage: Outage;
  timer: NodeJS.Timeout;
  /** Connections a no-answer outage holds: destroyed when it ends. */
  held: Set<Socket>;
}

const ALL = '*';
// A tenant name never holds '*' or '|' (TENANT_ID), nor does a CNPJ.
const scopeOf = (tenant: string | null, cnpj: string | null, authorizer: OutageAuthorizer) => `${tenant ?? ALL}|${cnpj ?? ALL}|${authorizer}`;

export class OutageBoard {
  /** One outage per scope (tenant or ALL, CNPJ or ALL, authorizer); a new one for the same scope replaces it. */
  private readonly live = new Map<string, Live>();

  constructor(private readonly now: () => Date) {}

  start(r: OutageRequest): Outage {
    const problem = outageRequestProblem(r);
    if (problem) throw new RangeError(problem);
    const startedAt = this.now();
    const outage: Outage = {
      mode: r.mode, cnpj: r.cnpj ?? null, tenant: r.tenant ?? null, authorizer: r.authorizer ?? 'state', startedAt, endsAt: new Date(startedAt.getTime() + r.seconds * 1000),
    };
    const scope = scopeOf(outage.tenant, outage.cnpj, outage.authorizer);
    const before = this.live.get(scope);
    if (before) clearTimeout(before.timer);
    // Connections held by the outage replaced stay held: the authority is still down for them.
    this.live.set(scope, { outage, timer: this.arm(r.seconds * 1000), held: before?.held ?? new Set() });
    return { ...outage };
  }

  /** Ends the outages of `cnpj` (every outage when absent), in every tenant or `tenant`'s only, of every authorizer or `authorizer`'s; how many ended. */
  end(cnpj?: string, tenant?: string, authorizer?: OutageAuthorizer): number {
    let ended = 0;
    for (const [scope, l] of this.live) {
      if (cnpj !== undefined && l.outage.cnpj !== cnpj) continue;
      if (tenant !== undefined && l.outage.tenant !== tenant) continue;
      if (authorizer !== undefined && l.outage.authorizer !== authorizer) continue;
      this.drop(scope, l);
      ended += 1;
    }
    return ended;
  }

  list(): Outage[] {
    this.prune();
    return [...this.live.values()].map((l) => ({ ...l.outage }));
  }

  /**
   * The outage a request of this tenant for these issuers meets: the operator's or the tenant's,
   * for every issuer or one of them (the latest started when several are on); null when the
   * authority serves them. Another tenant's outage is never met, nor one of another authorizer.
   */
  meeting(tenant: string, parties: readonly string[], authorizer: OutageAuthorizer = 'state'): Outage | null {
    if (this.live.size === 0) return null;
    this.prune();
    let found: Live | undefined;
    const scopes = [null, ...parties].flatMap((cnpj) => [scopeOf(null, cnpj, authorizer), scopeOf(tenant, cnpj, authorizer)]);
    for (const scope of scopes) {
      const l = this.live.get(scope);
      if (l && (!found || l.outage.startedAt >= found.outage.startedAt)) found = l;
    }
    return found ? found.outage : null;
  }

  /** Holds a connection unanswered until the client drops it or `outage` ends (then it is destroyed). */
  hold(outage: Outage, socket: Socket): void {
    const l = this.live.get(scopeOf(outage.tenant, outage.cnpj, outage.authorizer));
    if (!l || l.outage !== outage) {
      socket.destroy();
      return;
    }
    l.held.add(socket);
    socket.once('close', () => l.held.delete(socket));
  }

  /** Ends everything (the simulator closes): no timer or socket outlives it. */
  clear(): void {
    this.end();
  }

  private drop(scope: string, l: Live): void {
    clearTimeout(l.timer);
    this.live.delete(scope);
    for (const s of l.held) s.destroy();
    l.held.clear();
  }

  private prune(): void {
    const at = this.now().getTime();
    for (const [scope, l] of this.live) if (l.outage.endsAt.getTime() <= at) this.drop(scope, l);
  }

  // Wall time as a fallback: a frozen test clock leaves the outage on until the clock moves or
  // end() is called; the timer then only looks again (at most every second).
  private arm(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.prune();
      for (const l of this.live.values()) {
        if (l.timer === timer) l.timer = this.arm(Math.max(1000, l.outage.endsAt.getTime() - this.now().getTime()));
      }
    }, ms);
    timer.unref();
    return timer;
  }
}
