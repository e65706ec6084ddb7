import type { components } from './schema.js';

/** The gateway's error envelope (src/kernel/errors.ts ErrorSchema): every 4xx and 5xx answer has it. */
export type ErrorEnvelope = components['schemas']['Error'];
export type ErrorDetail = NonNullable<ErrorEnvelope['details']>[number];

/**
 * A failed call, built from the error envelope. `code` is the stable machine-readable code
 * (`validation_error`, `issuer_not_ready`, ...), `details` name each offending field, `requestId`
 * is what support asks for. It carries the envelope's own fields too (`error`, `request_id`), so it
 * is also what openapi-fetch's `error` is typed as.
 *
 * Codes the gateway never answers, for failures that never reached it or came from something else:
 * `network_error` (status 0: no answer at all) and `http_<status>` (an answer without the envelope,
 * e.g. from a proxy in front of the gateway).
 */
export class FiscalGatewayError extends Error implements ErrorEnvelope {
  override readonly name = 'FiscalGatewayError';
  /** The envelope's `error` field: the same as `code`. */
  readonly error: string;
  readonly request_id: string;
  readonly details: ErrorDetail[];

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    details: ErrorDetail[] = [],
    requestId = '',
    /** Seconds from Retry-After on 429/503, when the gateway sent it. */
    readonly retryAfter: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.error = code;
    this.details = details;
    this.request_id = requestId;
  }

  get requestId(): string {
    return this.request_id;
  }

  /** The message of the detail about `field` (e.g. `items[0].ncm`), if the gateway named it. */
  detailFor(field: string): string | undefined {
    return this.details.find((d) => d.field === field)?.message;
  }

  /** From a non-2xx answer: the envelope when the body is one, else `http_<status>` with the body's start. */
  static fromResponse(response: Response, body: unknown): FiscalGatewayError {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), Date.now());
    const requestId = response.headers.get('x-request-id') ?? '';
    if (isEnvelope(body)) {
      return new FiscalGatewayError(response.status, body.error, body.message, body.details ?? [], body.request_id || requestId, retryAfter !== null ? retryAfter / 1000 : null);
    }
    const text = typeof body === 'string' ? body.slice(0, 200) : '';
    return new FiscalGatewayError(response.status, `http_${response.status}`, text || response.statusText || `HTTP ${response.status}`, [], requestId, retryAfter !== null ? retryAfter / 1000 : null);
  }

  /** A call that got no answer (connection refused or reset, DNS, abort) after the retries allowed. */
  static network(cause: unknown): FiscalGatewayError {
    const why = cause instanceof Error ? (cause.cause instanceof Error ? `${cause.message}: ${cause.cause.message}` : cause.message) : String(cause);
    return new FiscalGatewayError(0, 'network_error', `no answer from the gateway (${why})`, [], '', null, { cause });
  }
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return typeof b.error === 'string' && typeof b.message === 'string';
}

/** RFC 9110 Retry-After: delay-seconds or an HTTP-date; milliseconds from `now`, null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
