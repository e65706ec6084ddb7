import { parseRetryAfter } from './errors.js';

export interface RetryOptions {
  /** Further attempts after the first (0 turns retries off). Default 2. */
  retries?: number;
  /** First backoff delay when the answer has no Retry-After; doubles per attempt, with jitter. Default 250 ms. */
  baseDelayMs?: number;
  /** No wait is longer than this; a Retry-After asking for more ends the retries (the answer is returned). Default 10 s. */
  maxDelayMs?: number;
}

type Fetch = (request: Request) => Promise<Response>;

/** Methods that may be repeated as they are (RFC 9110 9.2.2). POST and PATCH only with an Idempotency-Key. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Whether a request may be sent again. A POST or PATCH without an Idempotency-Key is never repeated:
 * if the first attempt reached the gateway, a second would be a second sale. With the key, the
 * gateway answers a repeat with the first answer (Idempotency-Replay: true) and does the work once.
 */
export function mayRepeat(request: Request): boolean {
  return IDEMPOTENT.has(request.method.toUpperCase()) || request.headers.has('idempotency-key');
}

/**
 * 429 (rate limit) and 503 (authority, key custody or the gateway unavailable) say "try later";
 * 409 idempotency_in_progress says the first attempt with this key is still running (a repeat after
 * a lost answer). Anything else is the answer.
 */
async function retryable(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status === 503) return true;
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown } | null;
  return body?.error === 'idempotency_in_progress';
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A fetch that retries network errors, 429 and 503 (honouring Retry-After) and 409
 * idempotency_in_progress, for the requests `mayRepeat` allows. Every attempt sends a clone of the
 * original request, so the body is sent whole each time with the same headers (the same key).
 */
export function retryingFetch(base: Fetch, opts: RetryOptions = {}): Fetch {
  const retries = Math.max(0, Math.floor(opts.retries ?? 2));
  const baseDelayMs = opts.baseDelayMs ?? 250;
  const maxDelayMs = opts.maxDelayMs ?? 10_000;
  return async (request) => {
    const repeatable = retries > 0 && mayRepeat(request);
    if (!repeatable) return base(request);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (err) {
        // An abort is the caller's decision, not a failure to retry.
        if (last || request.signal.aborted) throw err;
        await sleep(backoff(attempt, baseDelayMs, maxDelayMs), request.signal);
        continue;
      }
      if (last || !(await retryable(response))) return response;
      const asked = parseRetryAfter(response.headers.get('retry-after'), Date.now());
      if (asked !== null && asked > maxDelayMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(asked ?? backoff(attempt, baseDelayMs, maxDelayMs), request.signal);
    }
  };
}

/** Exponential backoff with full jitter (so many clients do not retry in step). */
function backoff(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
}
