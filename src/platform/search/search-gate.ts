import { ApiError } from '../../kernel/errors.js';

/**
 * What one account's searches may take of a shared process: 20 phrase searches
 * sent at once by one account of the public sandbox (embedded PGlite, whose statements run on the
 * event loop's thread one after another) held /healthz for 1.9 s. An account runs at most
 * PER_ACCOUNT searches at once in a process; one more is answered 429 `rate_limited` with
 * Retry-After at once (it costs nothing), and the process as a whole runs at most PER_PROCESS, the
 * others waiting their turn in arrival order, so many accounts together cannot fill it either.
 */
export const SEARCH_LIMITS = { perAccount: 2, perProcess: 4 } as const;

export class SearchGate {
  private readonly running = new Map<string, number>();
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: { perAccount: number; perProcess: number } = SEARCH_LIMITS) {}

  async run<T>(accountId: string, search: () => Promise<T>): Promise<T> {
    const mine = this.running.get(accountId) ?? 0;
    if (mine >= this.limits.perAccount) {
      throw new ApiError('rate_limited', `At most ${this.limits.perAccount} searches of an account run at once; retry when one has answered`, undefined, { 'Retry-After': '1' });
    }
    this.running.set(accountId, mine + 1);
    try {
      if (this.inFlight >= this.limits.perProcess) await new Promise<void>((resolve) => this.waiting.push(resolve));
      else this.inFlight += 1;
      try {
        return await search();
      } finally {
        // The slot goes to the next one waiting (inFlight unchanged), else it is freed.
        const next = this.waiting.shift();
        if (next) next();
        else this.inFlight -= 1;
      }
    } finally {
      const left = (this.running.get(accountId) ?? 1) - 1;
      if (left > 0) this.running.set(accountId, left);
      else this.running.delete(accountId);
    }
  }
}
