import type { Queryable } from '../../infra/storage/db.js';
import { appendAuditEntries, type AuditEntry } from '../../infra/storage/repositories/audit-repository.js';

// Bounded memory if the database is down for long: the oldest entries are dropped (and counted).
const MAX_BUFFER = 10_000;

// After a failed write, the next attempt waits this long.
const RETRY_MS = 1_000;

// Entries that make a write worth doing at once instead of waiting for the linger.
const FULL_BATCH = 100;

/**
 * Batches audit entries off the request path: a request only pushes to memory; one INSERT at a time
 * carries everything queued meanwhile, so under load many entries share one round trip. With a
 * linger, a lone entry waits that long for company: at a steady 100 calls per second that is a
 * write every 50 ms instead of one per call.
 */
export class AuditWriter {
  private buffer: AuditEntry[] = [];
  private flushing: Promise<void> | null = null;
  private lingering: NodeJS.Timeout | undefined;
  dropped = 0;

  constructor(
    private readonly db: Queryable,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly lingerMs = 0,
  ) {}

  push(entry: AuditEntry): void {
    if (this.buffer.length >= MAX_BUFFER) {
      this.buffer.shift();
      this.dropped++;
    }
    this.buffer.push(entry);
    if (this.flushing) return;
    if (this.lingerMs === 0 || this.buffer.length >= FULL_BATCH) void this.flush();
    else this.lingering ??= setTimeout(() => void this.flush(), this.lingerMs);
  }

  /** Resolves when everything pushed so far is stored (or failed): readers call it to see their own writes. */
  async flush(): Promise<void> {
    clearTimeout(this.lingering);
    this.lingering = undefined;
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, 500);
    let failed = false;
    this.flushing = appendAuditEntries(this.db, batch)
      .catch((err) => {
        failed = true;
        this.buffer.unshift(...batch); // keep them for the next flush
        this.onError(err);
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
    if (failed) {
      // Storage is down (or closed): try again later, never in a tight loop.
      this.lingering ??= setTimeout(() => void this.flush(), RETRY_MS).unref();
      return;
    }
    if (this.buffer.length > 0 && !this.flushing) await this.flush();
  }
}
