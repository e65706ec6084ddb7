import { describe, expect, it } from 'vitest';
import { afterFailure, afterSuccess, claimProbe, isOpenAt, type BreakerRow, type BreakerSettings } from './breaker-transitions.js';

const S: BreakerSettings = { failures: 3, windowMs: 30_000, cooldownMs: 15_000, maxCooldownMs: 120_000, probeLeaseMs: 20_000 };
const t0 = Date.parse('2026-11-26T12:00:00Z');
const at = (ms: number) => new Date(t0 + ms);
const closed: BreakerRow = {
  endpoint: 'https://x/NFeAutorizacao4', authorizer: 'SVRS', service: 'NFeAutorizacao4', state: 'closed', failures: 0, first_failure_at: null,
  opened_at: null, next_probe_at: null, cooldown_ms: 0, last_error: null, last_error_at: null, probe_uf: 'BA', probe_model: 65, probe_tp_amb: 2,
  probe_certificate: null, updated_at: at(0), version: 0,
};
const fail = (r: BreakerRow, ms: number, probe = false) => afterFailure(r, at(ms), 'no answer', S, probe);

describe('breaker transitions', () => {
  it('three failures within the window open it with the first cool-down; a success in between starts over', () => {
    const two = fail(fail(closed, 0), 1_000);
    expect(two).toMatchObject({ state: 'closed', failures: 2 });
    expect(fail(afterSuccess(two, at(2_000))!, 3_000)).toMatchObject({ state: 'closed', failures: 1 });
    const open = fail(two, 29_000);
    expect(open).toMatchObject({ state: 'open', failures: 3, opened_at: at(29_000), next_probe_at: at(44_000), cooldown_ms: 15_000 });
    expect(isOpenAt(open, at(43_999))).toBe(true);
    expect(isOpenAt(open, at(44_000))).toBe(false);
  });

  it('a run older than the window starts again at one', () => {
    expect(fail(fail(fail(closed, 0), 1_000), 30_001)).toMatchObject({ state: 'closed', failures: 1, first_failure_at: at(30_001) });
  });

  it('the probe is claimed once when due; failed probes double the cool-down up to the maximum; a success closes', () => {
    let row = fail(fail(fail(closed, 0), 1), 2);
    expect(claimProbe(row, at(10_000), S)).toBeNull();
    const claimed = claimProbe(row, at(15_002), S)!;
    expect(claimed).toMatchObject({ state: 'half_open', next_probe_at: at(35_002) });
    expect(claimProbe(claimed, at(15_003), S)).toBeNull();
    // Its process died: once the lease is out another process claims it.
    expect(claimProbe(claimed, at(35_002), S)).toMatchObject({ state: 'half_open', next_probe_at: at(55_002) });
    expect(isOpenAt(claimed, at(15_003))).toBe(true);
    const cooldowns: number[] = [];
    row = claimed;
    for (let i = 0; i < 5; i++) {
      row = fail(row, 20_000, true);
      cooldowns.push(row.cooldown_ms);
    }
    expect(cooldowns).toEqual([30_000, 60_000, 120_000, 120_000, 120_000]);
    expect(afterSuccess(row, at(21_000))).toMatchObject({ state: 'closed', failures: 0, opened_at: null, next_probe_at: null });
    expect(afterSuccess(closed, at(1))).toBeNull();
  });

  it('a call failing while open waits for the probe, unless the probe was due', () => {
    const open = fail(fail(fail(closed, 0), 1), 2);
    expect(fail(open, 5_000)).toMatchObject({ state: 'open', next_probe_at: open.next_probe_at, failures: 4 });
    expect(fail(open, 15_002)).toMatchObject({ state: 'open', cooldown_ms: 30_000, next_probe_at: at(45_002) });
  });
});
