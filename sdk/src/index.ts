import createFetchClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod } from 'openapi-typescript-helpers';
import { FiscalGatewayError } from './errors.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import type { paths } from './schema.js';

export { FiscalGatewayError, parseRetryAfter, type ErrorDetail, type ErrorEnvelope } from './errors.js';
export { mayRepeat, retryingFetch, type RetryOptions } from './retry.js';
export type { components, paths } from './schema.js';

export interface ClientOptions {
  /** The gateway's root, e.g. `http://127.0.0.1:8080` or `https://api.example.com` (no `/v1`). */
  baseUrl: string;
  /**
   * `sk_live_...`, `sk_test_...` or, in the sandbox, `sk_sandbox_public`. Sent as `Authorization: Bearer`.
   * Omit it in a page served by the gateway (the dashboard): the browser's `__Host-session` cookie
   * then authenticates, and the browser's Origin header satisfies the gateway's CSRF check.
   */
  apiKey?: string;
  /** The fetch to use (default: the global one). Tests and proxies hand their own. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries of network errors, 429 and 503: a number of further attempts (0 = none) or the full options. */
  retries?: number | RetryOptions;
  /** Extra headers on every request (e.g. `User-Agent`). */
  headers?: Record<string, string>;
}

/** What this SDK adds to openapi-fetch's per-call options. */
export interface RequestExtras {
  /**
   * The Idempotency-Key of a POST or PATCH. Default: a fresh UUID per call, so a retry of the call
   * repeats it and the gateway does the work once. Pass your own (e.g. the order id) to make a repeat
   * of the whole call safe across processes; `false` sends none, and the call is then never retried.
   */
  idempotencyKey?: string | false;
  /** RFC 7240 `Prefer: wait=N`: the gateway holds the answer up to N seconds (at most 10) for the authority. */
  prefer?: { wait: number };
}

type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & RequestExtras)?] : [Init & RequestExtras];

/** openapi-fetch's answer with `error` as a FiscalGatewayError built from the error envelope. */
export type Result<Operation extends Record<string | number, unknown>, Init> =
  | { data: NonNullable<FetchResponse<Operation, Init, 'application/json'>['data']>; error?: never; response: Response }
  | { data?: never; error: FiscalGatewayError; response: Response };

type Method<M extends HttpMethod> = <P extends PathsWithMethod<paths, M>, I extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<I>
) => Promise<Result<paths[P][M] & Record<string | number, unknown>, I>>;

export interface FiscalGatewayClient {
  GET: Method<'get'>;
  POST: Method<'post'>;
  PUT: Method<'put'>;
  PATCH: Method<'patch'>;
  DELETE: Method<'delete'>;
  /**
   * POST /v1/issuers/{id}/certificate as multipart/form-data: the A1 certificate (.pfx/.p12 bytes)
   * and its password (used once by the gateway to open it, never stored).
   */
  uploadCertificate(
    issuerId: string,
    certificate: { pfx: Uint8Array | Blob; password: string; filename?: string },
    extras?: RequestExtras,
  ): Promise<Result<paths['/v1/issuers/{id}/certificate']['post'] & Record<string | number, unknown>, object>>;
  /** The underlying openapi-fetch client (no automatic Idempotency-Key, no FiscalGatewayError). */
  raw: Client<paths, 'application/json'>;
}

/** A new Idempotency-Key (a random UUID). */
export function idempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** The `Prefer` header asking the gateway to wait up to `seconds` (an integer, 0 to 10) for the authority. */
export function preferWait(seconds: number): { Prefer: string } {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 10) throw new RangeError(`prefer.wait must be an integer from 0 to 10 seconds, got ${seconds}`);
  return { Prefer: `wait=${seconds}` };
}

/** Data or throw: `const note = await orThrow(client.GET(...))`. */
export async function orThrow<T>(call: Promise<{ data?: T; error?: FiscalGatewayError }>): Promise<T> {
  const { data, error } = await call;
  if (error) throw error;
  return data as T;
}

const KEYED = new Set(['POST', 'PATCH']);

/**
 * A typed client of the fiscal gateway (paths and bodies from its OpenAPI document): bearer auth,
 * an Idempotency-Key on every POST and PATCH, `prefer: { wait }`, retries that never repeat a POST
 * without its key, and errors as FiscalGatewayError.
 */
export function createClient(options: ClientOptions): FiscalGatewayClient {
  const retry: RetryOptions = typeof options.retries === 'number' ? { retries: options.retries } : (options.retries ?? {});
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw = createFetchClient<paths, 'application/json'>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}) },
    fetch: retryingFetch(baseFetch, retry),
  });

  async function call(method: string, url: string, init: Record<string, unknown> = {}) {
    const { idempotencyKey: key, prefer, headers, ...rest } = init as RequestExtras & { headers?: Record<string, string> } & Record<string, unknown>;
    const added: Record<string, string> = {};
    if (KEYED.has(method) && key !== false) added['Idempotency-Key'] = key ?? idempotencyKey();
    if (prefer) Object.assign(added, preferWait(prefer.wait));
    let res: { data?: unknown; error?: unknown; response: Response };
    try {
      // openapi-fetch's request() checks the path and init types; this wrapper's are checked above.
      res = await (raw.request as (m: string, u: string, i: object) => Promise<typeof res>)(method.toLowerCase(), url, {
        ...rest,
        headers: { ...added, ...headers },
      });
    } catch (err) {
      throw err instanceof FiscalGatewayError ? err : FiscalGatewayError.network(err);
    }
    if (res.response.ok) return { data: res.data, response: res.response };
    return { error: FiscalGatewayError.fromResponse(res.response, res.error), response: res.response };
  }

  const method = (m: string) => ((url: string, init?: Record<string, unknown>) => call(m, url, init)) as never;
  return {
    GET: method('GET'),
    POST: method('POST'),
    PUT: method('PUT'),
    PATCH: method('PATCH'),
    DELETE: method('DELETE'),
    uploadCertificate(issuerId, certificate, extras = {}) {
      const form = new FormData();
      // A copy on a plain ArrayBuffer: Blob takes no view of a SharedArrayBuffer (DOM typings).
      const blob = certificate.pfx instanceof Blob ? certificate.pfx : new Blob([new Uint8Array(certificate.pfx)], { type: 'application/x-pkcs12' });
      form.append('password', certificate.password);
      form.append('pfx', blob, certificate.filename ?? 'certificate.pfx');
      return call('POST', '/v1/issuers/{id}/certificate', { ...extras, params: { path: { id: issuerId } }, body: form, bodySerializer: (b: unknown) => b }) as never;
    },
    raw,
  };
}
