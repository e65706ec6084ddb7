import type { DeepHealthReport } from './deep-health.js';

/** How long one round of probes answers /healthz/deep. */
export const DEEP_HEALTH_TTL_MS = 10_000;

/**
 * One round of /healthz/deep probes shared by every caller for `ttlMs`: the key store's check is a
 * wrap and unwrap in the HSM or KMS (two KMS calls), and a flood of 765 calls a second multiplied
 * them. Callers arriving while a round runs wait for that round; none starts another.
 */
export class DeepHealthCache {
  private last: { report: DeepHealthReport; atMs: number } | undefined;
  private running: Promise<DeepHealthReport> | undefined;

  constructor(
    private readonly probe: () => Promise<DeepHealthReport>,
    private readonly nowMs: () => number,
    private readonly ttlMs = DEEP_HEALTH_TTL_MS,
  ) {}

  report(): Promise<DeepHealthReport> {
    const last = this.last;
    // A clock moved backwards (a test's, or NTP's) counts as stale too.
    if (last && this.nowMs() - last.atMs < this.ttlMs && this.nowMs() >= last.atMs) return Promise.resolve(last.report);
    this.running ??= this.probe()
      .then((report) => {
        this.last = { report, atMs: this.nowMs() };
        return report;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
