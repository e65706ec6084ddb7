import type { Model, TpAmb } from './endpoints.js';

export type BreakerStateName = 'closed' | 'open' | 'half_open';

/** One endpoint's breaker as stored (table authority_breakers, migration 19). */
export interface BreakerRow {
  endpoint: string;
  authorizer: string;
  service: string;
  state: BreakerStateName;
  /** Failures in the current run (reset by any answer). */
  failures: number;
  first_failure_at: Date | null;
  opened_at: Date | null;
  /** Open: when the probe is due. Half-open: when the claimed probe's lease runs out. */
  next_probe_at: Date | null;
  /** The cool-down that led to next_probe_at (doubles while probes fail). */
  cooldown_ms: number;
  last_error: string | null;
  last_error_at: Date | null;
  probe_uf: string;
  probe_model: Model;
  probe_tp_amb: TpAmb;
  /** SHA-256 fingerprint of the certificate of the last failing call: the probe is sent with it. */
  probe_certificate: string | null;
  updated_at: Date;
  /** Raised by every stored change (the store does it): orders a process's copies. */
  version: number;
}

export interface BreakerSettings {
  /** Failures in a row that open the breaker. */
  failures: number;
  /** ... within this long from the first of them. */
  windowMs: number;
  /** First cool-down before a probe; doubles after each failed probe up to maxCooldownMs. */
  cooldownMs: number;
  maxCooldownMs: number;
  /** A claimed probe not reported within this long (its process died) may be claimed again. */
  probeLeaseMs: number;
}

const at = (now: Date, ms: number) => new Date(now.getTime() + ms);

/** A call to the endpoint got no usable answer (`probe`: the status probe this process claimed). */
export function afterFailure(row: BreakerRow, now: Date, error: string, s: BreakerSettings, probe = false): BreakerRow {
  const base = { ...row, last_error: error, last_error_at: now, updated_at: now };
  if (row.state === 'closed') {
    // In a row and within the window: a failure older than the window starts a new run.
    const inRun = row.failures > 0 && row.first_failure_at !== null && now.getTime() - row.first_failure_at.getTime() <= s.windowMs;
    const failures = inRun ? row.failures + 1 : 1;
    const first = inRun ? row.first_failure_at : now;
    if (failures < s.failures) return { ...base, failures, first_failure_at: first };
    return { ...base, failures, first_failure_at: first, state: 'open', opened_at: now, cooldown_ms: s.cooldownMs, next_probe_at: at(now, s.cooldownMs) };
  }
  // Open: calls made anyway (consultations, a due endpoint nobody probed yet) keep it open. A failed
  // probe, or a failure once the probe was due, waits twice as long before the next one.
  const due = row.next_probe_at !== null && row.next_probe_at.getTime() <= now.getTime();
  if (!probe && !due) return { ...base, failures: row.failures + 1 };
  const cooldown = Math.min(Math.max(row.cooldown_ms * 2, s.cooldownMs), s.maxCooldownMs);
  return { ...base, failures: row.failures + 1, state: 'open', cooldown_ms: cooldown, next_probe_at: at(now, cooldown) };
}

/** Any answer closes the breaker; null when there is nothing to change (the hot path writes nothing). */
export function afterSuccess(row: BreakerRow, now: Date): BreakerRow | null {
  if (row.state === 'closed' && row.failures === 0) return null;
  return { ...row, state: 'closed', failures: 0, first_failure_at: null, opened_at: null, next_probe_at: null, cooldown_ms: 0, updated_at: now };
}

/**
 * The probe is due: this process takes it (half-open until it reports, or until the lease runs out
 * when it died meanwhile). Null when it is not due or not open.
 */
export function claimProbe(row: BreakerRow, now: Date, s: BreakerSettings): BreakerRow | null {
  if (row.state === 'closed' || row.next_probe_at === null || row.next_probe_at.getTime() > now.getTime()) return null;
  return { ...row, state: 'half_open', next_probe_at: at(now, s.probeLeaseMs), updated_at: now };
}

/** Open and not yet due for a probe: calls should not wait for this endpoint. */
export function isOpenAt(row: BreakerRow | undefined, now: Date): boolean {
  return row !== undefined && row.state !== 'closed' && row.next_probe_at !== null && row.next_probe_at.getTime() > now.getTime();
}
