import { Type, type TSchema } from 'typebox';

/** docs/decisions.md#api-conventions: every error code the API answers, with its HTTP status. One place, stable codes. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  idempotency_key_invalid: 400,
  // A link or token from an e-mail or a sign-in step that is unknown, expired or already used.
  invalid_token: 400,
  unauthorized: 401,
  // A plan's limit on issuers or team members: only new ones are refused.
  plan_limit_reached: 402,
  // Only when an account set a hard cap on its plan's quota; `details` names the limit.
  quota_exceeded: 402,
  forbidden: 403,
  // A sensitive action needs a password, TOTP or passkey within the last 10 minutes.
  reauthentication_required: 403,
  // A session of a user who has not confirmed their e-mail yet reaches only the auth routes.
  email_not_verified: 403,
  // The account requires its members to sign in through single sign-on.
  sso_required: 403,
  // The account was closed (force-cancel): its documents stay readable, nothing new is made.
  account_closed: 403,
  // An invite, a role change or a new key would give rights the caller does not hold.
  exceeds_own_rights: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  invalid_state: 409,
  idempotency_in_progress: 409,
  // A sale whose external_ref a live note of the same issuer and model already holds;
  // details[0].note_id names that note (allow_duplicate_external_ref: true issues another anyway).
  duplicate_external_ref: 409,
  // POST /v1/issuers/:id/series for a series the issuer already has.
  series_exists: 409,
  // A series' next_number at or below a number already used or voided (never issued twice).
  series_number_used: 409,
  // Creating what the account already has (an issuer with the same CNPJ and ambiente).
  issuer_exists: 409,
  // A downgrade to a plan whose limits the account exceeds; `details` names what to remove.
  plan_limits_exceeded: 409,
  // An archived issuer is read-only (no new document, settings, certificate or CSC).
  issuer_archived: 409,
  // Sign-up with an e-mail that already has a user.
  email_taken: 409,
  // The shared sandbox key (sk_sandbox_public) cannot change what every one of its users shares.
  shared_sandbox_read_only: 409,
  // migrate-cert-to-kms on a gateway whose KEY_PROVIDER is envelope (nothing to move to).
  key_provider_not_configured: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  // Node's HTTP parser: headers over its limit (src/http/client-error.ts).
  headers_too_large: 431,
  validation_error: 422,
  idempotency_conflict: 422,
  issuer_not_ready: 422,
  certificate_invalid: 422,
  cancel_window_expired: 422,
  rate_limited: 429,
  // Too many invitations from the account, or to one address, in 24 hours (Retry-After).
  invite_limit_reached: 429,
  internal_error: 500,
  authority_unavailable: 503,
  service_unavailable: 503,
  // The HSM or KMS that holds the certificate keys did not answer or refused to work; retryable.
  key_custody_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  field: string;
  message: string;
  /** The official rule behind the error (MOC rule id like "ZA01-10", NFS-e code like "E0330"). */
  rule?: string;
  /** The note the request conflicts with (duplicate_external_ref). */
  note_id?: string;
}

/** An expected failure the client can act on; anything else thrown becomes internal_error. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);

export const ErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'Stable machine-readable code', examples: ['validation_error'] }),
    message: Type.String({ description: 'What went wrong and what to do, in plain words, in the language of Accept-Language (pt-BR or en, the default; Content-Language says which)' }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ examples: ['items[0].ncm'] }),
          message: Type.String(),
          rule: Type.Optional(Type.String({ description: 'The official rule the field breaks: a MOC 7.0 Anexo I rule id (ZA01-10) or an NFS-e Anexo I code (E0330)', examples: ['ZA01-10'] })),
          note_id: Type.Optional(Type.String({ description: 'duplicate_external_ref: the live note that already holds this external_ref', examples: ['nfce_4Hc9sT2kQm1ZpW8vXy3B'] })),
        }),
      ),
    ),
    request_id: Type.String({ examples: ['req_4Hc9sT2kQm1ZpW8vXy3B'] }),
  },
  { $id: 'Error', title: 'Error', description: 'The error envelope of every 4xx and 5xx answer' },
);

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  request_id: string;
}

const DESCRIPTIONS: Partial<Record<number, string>> = {
  400: 'Malformed request (invalid JSON, bad Idempotency-Key)',
  401: 'Missing or invalid API key',
  402: 'The account set a hard cap and its plan\'s quota for this document type is used up this month (quota_exceeded), or a plan limit on issuers or members is reached (plan_limit_reached)',
  403: 'The API key lacks the scope this operation needs',
  404: 'Not found (also for records of another account)',
  409: 'Conflict with the current state',
  413: 'Body too large',
  415: 'Unsupported Content-Type',
  422: 'The request is well-formed but a field is invalid; details name each field',
  429: 'Rate limit exceeded; retry after Retry-After seconds',
  500: 'Internal error (no internals disclosed)',
  503: 'A dependency is unavailable',
};

/** One error response with a description of the route's own (which codes it answers and when). */
export const errorResponse = (description: string): TSchema => Type.Ref('Error', { description });

/** Error responses for a route's schema, so the OpenAPI document lists them. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of statuses) out[s] = Type.Ref('Error', { description: DESCRIPTIONS[s] ?? 'Error' });
  return out;
}
