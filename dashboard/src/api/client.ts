import { createClient, FiscalGatewayError } from '../../../sdk/src/index.js';

export { FiscalGatewayError, idempotencyKey, orThrow } from '../../../sdk/src/index.js';
export type { components, paths } from '../../../sdk/src/index.js';

const REFRESH = '/v1/auth/refresh';

/**
 * The dashboard speaks Brazilian Portuguese, and so does the gateway when asked:
 * every call says Accept-Language: pt-BR, so error messages, field details and rejection hints
 * arrive in Portuguese; codes and field paths stay the same.
 */
export const DASHBOARD_LANGUAGE = 'pt-BR';

function inDashboardLanguage(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set('Accept-Language', DASHBOARD_LANGUAGE);
  return new Request(request, { headers });
}

/**
 * Trades the `__Host-refresh` cookie for a new session once when a call answers 401, then repeats
 * the call. One refresh at a time: parallel 401s share it (a refresh token works once).
 */
let refreshing: Promise<boolean> | undefined;
function refreshOnce(): Promise<boolean> {
  refreshing ??= fetch(REFRESH, { method: 'POST', credentials: 'same-origin', headers: { 'Accept-Language': DASHBOARD_LANGUAGE } })
    .then((r) => r.ok)
    .catch(() => false)
    .finally(() => {
      setTimeout(() => (refreshing = undefined), 0);
    });
  return refreshing;
}

/** Called when the session is gone for good (refresh refused): the app shows the sign-in page. */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

async function sessionFetch(asked: Request): Promise<Response> {
  const request = inDashboardLanguage(asked);
  const spare = request.url.includes('/v1/auth/') ? undefined : request.clone();
  const first = await fetch(request);
  if (first.status !== 401 || !spare) return first;
  if (!(await refreshOnce())) {
    onSignedOut();
    return first;
  }
  return fetch(spare);
}

/**
 * Network errors and short waits are retried quietly; a 429 or 503 whose Retry-After is longer than
 * 2 s is shown at once (with the wait, components/api-error.tsx) rather than behind a spinner.
 */
const RETRIES = { retries: 2, maxDelayMs: 2_000 };

/**
 * The dashboard's only way to the gateway: the SDK (the dashboard's contract is the SDK's), with
 * no API key, so the browser's session cookie authenticates; every POST/PATCH carries a fresh
 * Idempotency-Key unless the screen passes its own.
 */
export const api = createClient({ baseUrl: window.location.origin, fetch: sessionFetch, retries: RETRIES });

/** The message a screen shows for a failed call: the gateway's own words. */
export function errorText(error: unknown): string {
  if (error instanceof FiscalGatewayError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
