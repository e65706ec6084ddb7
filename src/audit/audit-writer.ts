import type { Queryable } from '../storage/db.js';
import { appendAuditEntries, type AuditEntry } from '../storage/repositories/audit-repository.js';

// Bounded memory if the database is down for long: the oldest entries are dropped (and counted).
const MAX_BUFFER = 10_000;

/**
 * Batches audit entries off the request path: a request only pushes to memory; one INSERT at a time
 * carries everything queued meanwhile, so under load many entries share one round trip.
 */
export class AuditWriter {
  private buffer: AuditEntry[] = [];
  private flushing: Promise<void> | null = null;
  dropped = 0;

  constructor(private readonly db: Queryable, private readonly onError: (err: unknown) => void = () => undefined) {}

  push(entry: AuditEntry): void {
    if (this.buffer.length >= MAX_BUFFER) {
      this.buffer.shift();
      this.dropped++;
    }
    this.buffer.push(entry);
    if (!this.flushing) void this.flush();
  }

  /** Resolves when everything pushed so far is stored (or failed): readers call it to see their own writes. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer.splice(0, 500);
    this.flushing = appendAuditEntries(this.db, batch)
      .catch((err) => {
        this.buffer.unshift(...batch); // keep them for the next flush
        this.onError(err);
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
    if (this.buffer.length > 0 && !this.flushing) await this.flush();
  }
}
