import type { Clock } from '../../kernel/clock.js';
import { breakerEndpointFor, svcOfBreakerAuthorizer, type BreakerEndpoint, type BreakerTarget } from './breaker-key.js';
import { breakerFailureOf, type BreakerOutcome } from './breaker-outcome.js';
import { afterFailure, afterSuccess, claimProbe, isOpenAt, type BreakerRow, type BreakerSettings, type BreakerStateName } from './breaker-transitions.js';
import type { EndpointOverride } from './endpoints.js';
import type { SefazClient } from './sefaz-client.js';
import type { StatusOutcome } from './outcomes.js';
import { stateFacts } from '../states/states.js';

/**
 * Where the breakers live, shared by every process (PostgreSQL: infra/storage/repositories/
 * breaker-repository.ts, handed in by runtime.ts).
 */
export interface BreakerStore {
  list(): Promise<BreakerRow[]>;
  /** The endpoint's row, inserted closed when it is new. */
  ensure(row: BreakerRow): Promise<BreakerRow>;
  /** Locks the row, asks `change` for its next value and stores it; null when absent or unchanged. */
  update(endpoint: string, change: (row: BreakerRow) => BreakerRow | null): Promise<{ before: BreakerRow; after: BreakerRow } | null>;
}

/** A breaker as /healthz/deep and the lead's code see it. */
export interface BreakerState {
  endpoint: string;
  authorizer: string;
  service: string;
  state: BreakerStateName;
  failures: number;
  opened_at: string | null;
  next_probe_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

/** A target plus the fingerprint of the certificate the call went with (the probe reuses it). */
export type RecordTarget = BreakerTarget & { certificate?: string | null };

export interface AuthorityBreakerOptions {
  store: BreakerStore;
  clock: Clock;
  settings: BreakerSettings;
  /** The sandbox's simulator: every service's URL is the simulator's. */
  endpointOverride?: EndpointOverride | undefined;
  /** A client for the probe, with the certificate of this fingerprint (null: none can be had). */
  probeClient(certificate: string | null): Promise<SefazClient | null>;
  /** The probe's own answer bound (a probe that waits 30 s delays nothing but is pointless). */
  probeTimeoutMs: number;
  /** How stale the per-process copy of the states may be (default 1 s). */
  refreshMs?: number;
  /** false: nothing is recorded, nothing is ever open (AUTHORITY_BREAKER_FAILURES=0). */
  enabled?: boolean;
  /** Storage errors: the breaker never fails a call, it only loses a count. */
  onError?: (err: unknown) => void;
}

export interface ProbeReport {
  endpoint: string;
  /** Another process had it, or it was not due anymore. */
  claimed: boolean;
  closed?: boolean;
  error?: string;
  /** The SVC's 113 heard while the state's authorization is down (svcNotice). */
  notice?: string;
}

/**
 * Circuit breakers of the authority endpoints, shared across gateway processes through
 * the store. The hot path costs nothing while all is well: isOpen reads this process's copy of the
 * states (refreshed at most every refreshMs) and an answered call writes only when it ends a run of
 * failures. Failures are counted in the store (each one is already slow). Across processes a run
 * is as exact as that copy: a success seen within the last second resets another process's count.
 */
export class AuthorityBreaker {
  private readonly cache = new Map<string, BreakerRow>();
  private readonly known = new Set<string>();
  private readonly endpoints = new Map<string, BreakerEndpoint>();
  private readonly closedListeners = new Set<(endpoint: string) => void>();
  private readonly probing = new Map<string, Promise<ProbeReport>>();
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly enabled: boolean;

  constructor(private readonly o: AuthorityBreakerOptions) {
    this.enabled = o.enabled ?? true;
  }

  /** The endpoint of a state's service, or undefined when the table has none (the call fails anyway). */
  endpointOf(target: BreakerTarget): BreakerEndpoint | undefined {
    const scope = this.o.endpointOverride && target.certificate ? `:${target.certificate}` : '';
    const id = `${target.authorizer ?? target.uf}:${target.uf}:${target.model}:${target.tpAmb}:${target.service}${scope}`;
    let ep = this.endpoints.get(id);
    if (!ep) {
      try {
        ep = breakerEndpointFor(target, this.o.endpointOverride);
      } catch {
        return undefined;
      }
      if (this.endpoints.size >= 2_000) this.endpoints.clear();
      this.endpoints.set(id, ep);
    }
    return ep;
  }

  /** Open and not yet due for a probe: a sale should go to contingency at once. */
  async isOpen(keyOrTarget: string | BreakerTarget): Promise<boolean> {
    if (!this.enabled) return false;
    await this.refreshIfStale();
    return this.isOpenCached(keyOrTarget);
  }

  /** Same as isOpen from this process's copy, without waiting for a refresh. */
  isOpenCached(keyOrTarget: string | BreakerTarget): boolean {
    const key = typeof keyOrTarget === 'string' ? keyOrTarget : this.endpointOf(keyOrTarget)?.key;
    return this.enabled && key !== undefined && isOpenAt(this.cache.get(key), this.o.clock.now());
  }

  /**
   * The endpoint answers as far as the breaker knows: closed with no failure since its last success (a call
   * answered, or the probe that closed it). Never called: true. An endpoint that failed once and was not
   * heard of since is not serving (docs/fiscal/svc.md#when-the-svc-is-down-too); nor is any while the breakers
   * are off (nothing is known, and a note must not go back and forth between two authorizers that are down).
   */
  async serving(target: BreakerTarget): Promise<boolean> {
    if (!this.enabled) return false;
    await this.refreshIfStale();
    const key = this.endpointOf(target)?.key;
    const row = key === undefined ? undefined : this.cache.get(key);
    return !row || (row.state === 'closed' && row.failures === 0);
  }

  /** When the endpoint's breaker opened, while it is open or half-open (this process's copy); else null. */
  openedAt(keyOrTarget: string | BreakerTarget): Date | null {
    const key = typeof keyOrTarget === 'string' ? keyOrTarget : this.endpointOf(keyOrTarget)?.key;
    const row = key === undefined ? undefined : this.cache.get(key);
    return row && row.state !== 'closed' ? row.opened_at : null;
  }

  /** Counts one call's outcome; never throws. */
  async record(target: RecordTarget, outcome: BreakerOutcome): Promise<void> {
    if (!this.enabled) return;
    const ep = this.endpointOf(target);
    if (!ep) return;
    const failure = breakerFailureOf(outcome);
    try {
      void this.refreshIfStale().catch((err: unknown) => this.o.onError?.(err));
      await this.ensureKnown(ep, target.certificate ?? null);
      if (failure === null) {
        const row = this.cache.get(ep.key);
        if (row && row.state === 'closed' && row.failures === 0) return;
        await this.change(ep.key, (r) => afterSuccess(r, this.o.clock.now()));
      } else {
        await this.change(ep.key, (r) => ({
          ...afterFailure(r, this.o.clock.now(), failure, this.o.settings),
          probe_uf: ep.uf,
          probe_model: ep.model,
          probe_tp_amb: ep.tpAmb,
          probe_certificate: target.certificate ?? r.probe_certificate,
        }));
      }
    } catch (err) {
      this.o.onError?.(err);
    }
  }

  /** Every endpoint any process has called, from the store. */
  async states(): Promise<BreakerState[]> {
    if (!this.enabled) return [];
    await this.refresh();
    return [...this.cache.values()].sort((a, b) => a.endpoint.localeCompare(b.endpoint)).map(publicState);
  }

  /** Called with the endpoint's key when a breaker closes (here, or seen closed at a refresh). */
  onClosed(listener: (endpoint: string) => void): () => void {
    this.closedListeners.add(listener);
    return () => this.closedListeners.delete(listener);
  }

  /**
   * Runs the probes that are due: each claimed by one process only (the row is locked, half-open
   * with a lease), a NFeStatusServico4 sent with the certificate of a failed call; cStat 107 closes
   * the breaker, anything else opens it again for twice the cool-down (at most maxCooldownMs).
   */
  async probeDueNow(): Promise<ProbeReport[]> {
    if (!this.enabled) return [];
    await this.refresh();
    const now = this.o.clock.now().getTime();
    const due = [...this.cache.values()].filter((r) => r.state !== 'closed' && r.next_probe_at !== null && r.next_probe_at.getTime() <= now);
    return Promise.all(due.map((r) => {
      let running = this.probing.get(r.endpoint);
      if (!running) {
        running = this.probe(r.endpoint).finally(() => this.probing.delete(r.endpoint));
        this.probing.set(r.endpoint, running);
      }
      return running;
    }));
  }

  /** Probes every tickMs in the background (worker processes). */
  start(tickMs = 1_000): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => void this.probeDueNow().catch((err: unknown) => this.o.onError?.(err)), tickMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads every state from the store now (the copy isOpen uses). */
  async refresh(): Promise<void> {
    this.refreshing ??= this.o.store
      .list()
      .then((rows) => {
        const seen = new Set<string>();
        for (const row of rows) {
          seen.add(row.endpoint);
          this.keep(this.cache.get(row.endpoint), row);
        }
        for (const key of this.cache.keys()) {
          if (seen.has(key)) continue;
          // Deleted (by hand): the next call inserts it again.
          this.cache.delete(key);
          this.known.delete(key);
        }
        this.refreshedAt = performance.now();
      })
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refreshIfStale(): Promise<void> {
    if (performance.now() - this.refreshedAt >= (this.o.refreshMs ?? 1_000)) await this.refresh();
  }

  private async ensureKnown(ep: BreakerEndpoint, certificate: string | null): Promise<void> {
    if (this.known.has(ep.key)) return;
    const row = this.cache.get(ep.key) ?? (await this.o.store.ensure(newRow(ep, certificate, this.o.clock.now())));
    if (!this.cache.has(ep.key)) this.cache.set(ep.key, row);
    this.known.add(ep.key);
  }

  private async probe(endpoint: string): Promise<ProbeReport> {
    const claimed = await this.change(endpoint, (r) => claimProbe(r, this.o.clock.now(), this.o.settings));
    if (!claimed) return { endpoint, claimed: false };
    const row = claimed.after;
    let error: string | null;
    let notice: string | null = null;
    try {
      const client = await this.o.probeClient(row.probe_certificate);
      if (!client) error = 'no certificate to send the status probe with';
      else {
        // An SVC's breaker asks that SVC's status service, for the state of the call that failed.
        const svc = svcOfBreakerAuthorizer(row.authorizer);
        const out = await client.status({ uf: row.probe_uf, model: row.probe_model, tpAmb: row.probe_tp_amb, responseTimeoutMs: this.o.probeTimeoutMs, ...(svc ? { authorizer: svc } : {}) });
        // NFeStatusServico4: 107 = service running (docs/fiscal/cstat.md); 108/109, an SVC's 114 (not activated for the
        // state, docs/fiscal/svc.md#activation) or no answer = still down - but see svcStatusServes.
        if (out.kind === 'in-operation' || (svc && svcStatusServes(out, row.service))) error = null;
        else error = breakerFailureOf(out) ?? (out.kind === 'stopped' ? `cStat ${out.cStat}: ${out.xMotivo}` : out.kind);
        if (error !== null && !svc) notice = await this.svcNotice(client, row);
      }
    } catch (err) {
      error = `probe failed: ${(err as Error).message}`;
    }
    const now = this.o.clock.now();
    const failed = (r: BreakerRow) => {
      const after = afterFailure(r, now, `probe: ${error}${notice ? `; ${notice}` : ''}`, this.o.settings, true);
      // The SVC announced the state's return within 15 minutes (113): the state is asked again after the base cool-down, not a doubled one.
      return notice ? { ...after, cooldown_ms: this.o.settings.cooldownMs, next_probe_at: new Date(now.getTime() + this.o.settings.cooldownMs) } : after;
    };
    const done = await this.change(endpoint, (r) => (error === null ? afterSuccess(r, now) : failed(r)));
    return { endpoint, claimed: true, closed: done?.after.state === 'closed', ...(error ? { error } : {}), ...(notice ? { notice } : {}) };
  }

  /**
   * NT 2013.007 v1.03 04.7 (docs/fiscal/svc.md#deactivation-notice): while the state's NF-e authorization does not
   * answer, the issuer's application consults its SVC's status. 113 there says the state's own authorizer is due back
   * within 15 minutes (K05.3): the text is kept with the state's breaker and its probes stay frequent, so new NF-e go
   * back to the state as soon as it answers. null for any other answer, or when the state has no SVC.
   */
  private async svcNotice(client: SefazClient, row: BreakerRow): Promise<string | null> {
    const svc = stateFacts(row.probe_uf)?.svc;
    if (!svc || row.service !== 'NFeAutorizacao4' || row.probe_model !== 55) return null;
    const out = await client.status({ uf: row.probe_uf, model: 55, tpAmb: row.probe_tp_amb, responseTimeoutMs: this.o.probeTimeoutMs, authorizer: svc }).catch(() => null);
    return out && 'cStat' in out && out.cStat === SVC_DEACTIVATING ? `${svc} ${out.cStat}: ${out.xMotivo}` : null;
  }

  private async change(endpoint: string, fn: (row: BreakerRow) => BreakerRow | null): Promise<{ before: BreakerRow; after: BreakerRow } | null> {
    const out = await this.o.store.update(endpoint, fn);
    if (out) this.keep(out.before, out.after);
    return out;
  }

  /** Takes a newer row into the copy; a breaker seen going from open to closed wakes the listeners. */
  private keep(before: BreakerRow | undefined, after: BreakerRow): void {
    const held = this.cache.get(after.endpoint);
    // A list read before a change of this process may come back after it: the version orders them.
    if (held && held.version > after.version) return;
    this.cache.set(after.endpoint, after);
    const was = before ?? held;
    if (!was || was.state === 'closed' || after.state !== 'closed') return;
    for (const listener of this.closedListeners) {
      try {
        listener(after.endpoint);
      } catch (err) {
        this.o.onError?.(err);
      }
    }
  }
}

function newRow(ep: BreakerEndpoint, certificate: string | null, now: Date): BreakerRow {
  return {
    endpoint: ep.key,
    authorizer: ep.authorizer,
    service: ep.service,
    state: 'closed',
    failures: 0,
    first_failure_at: null,
    opened_at: null,
    next_probe_at: null,
    cooldown_ms: 0,
    last_error: null,
    last_error_at: null,
    probe_uf: ep.uf,
    probe_model: ep.model,
    probe_tp_amb: ep.tpAmb,
    probe_certificate: certificate,
    updated_at: now,
    version: 0,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function publicState(r: BreakerRow): BreakerState {
  return {
    endpoint: r.endpoint,
    authorizer: r.authorizer,
    service: r.service,
    state: r.state,
    failures: r.failures,
    opened_at: iso(r.opened_at),
    next_probe_at: iso(r.next_probe_at),
    last_error: r.last_error,
    last_error_at: iso(r.last_error_at),
  };
}

/** NT 2013.007 v1.03 04.7 K05.3: an SVC in its last 15 minutes answers its status 113 and still authorizes (item 03). */
const SVC_DEACTIVATING = 113;

/**
 * An SVC's status that is not 107 may still mean the service of this breaker answers (docs/fiscal/svc.md#activation):
 * 113, the 15 minutes before a deactivation, during which it still authorizes (NT 2013.007 item 03); and for every
 * service but the reception of lots, 114 too: its return of lots, consultation and cancellation of the notes it
 * authorized "sempre estará disponível" (04.2, 04.3, 04.6), activated or not.
 */
function svcStatusServes(out: StatusOutcome, service: string): boolean {
  if (!('cStat' in out)) return false;
  return out.cStat === SVC_DEACTIVATING || (out.cStat === 114 && service !== 'NFeAutorizacao4');
}
