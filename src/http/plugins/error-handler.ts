import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { KeyCustodyMissingError, KeyProviderUnavailableError } from '../../infra/security/key-provider.js';
import { ApiError, ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from '../../kernel/errors.js';
import { validationDetails } from '../validation.js';
import { preferredLanguage } from '../accept-language.js';
import { localizeError } from '../i18n/localize.js';
import { RouteMethods } from './route-methods.js';

// Fastify's own error codes for malformed requests, mapped to ours (docs/decisions.md#api-conventions). No malformed request
// may produce a 500.
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['invalid_json', 'The body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['invalid_json', 'The body is empty but Content-Type says JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The body is larger than the limit'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Unsupported Content-Type; send application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'Content-Length does not match the body'],
  FST_ERR_CTP_INVALID_TYPE: ['unsupported_media_type', 'Invalid Content-Type header'],
  FST_ERR_BAD_URL: ['not_found', 'Malformed URL'],
  FST_ERR_ASYNC_CONSTRAINT: ['invalid_request', 'Malformed request'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: ['unsupported_media_type', 'This operation expects multipart/form-data'],
  FST_REQ_FILE_TOO_LARGE: ['payload_too_large', 'The uploaded file is larger than the limit'],
  FST_PARTS_LIMIT: ['payload_too_large', 'Too many parts in the multipart body'],
  FST_FILES_LIMIT: ['payload_too_large', 'Too many files in the multipart body'],
  FST_FIELDS_LIMIT: ['payload_too_large', 'Too many fields in the multipart body'],
  FST_PROTO_VIOLATION: ['invalid_json', 'The body contains a forbidden property name (__proto__ or constructor)'],
};

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  details?: ErrorDetail[],
): FastifyReply {
  // Message and details in the language Accept-Language asks for (en by default).
  const lang = preferredLanguage(request.headers['accept-language']);
  const said = localizeError(lang, code, message, details);
  const body: ErrorBody = { error: code, message: said.message, request_id: String(request.id) };
  if (said.details && said.details.length > 0) body.details = said.details;
  // Errors raised before the onRequest hooks (frameworkErrors: malformed URL) lack the header otherwise.
  reply.header('X-Request-Id', request.id);
  const vary = reply.getHeader('vary');
  reply.header('Content-Language', lang).header('Vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
  return reply.code(ERROR_STATUS[code]).type('application/json; charset=utf-8').send(body);
}

export const errorHandlerPlugin = fp(
  async (app: FastifyInstance) => {
    const routes = new RouteMethods();
    app.addHook('onRoute', (route) => routes.add(route.url, route.method));
    app.setErrorHandler((err: FastifyError | ApiError | Error, request, reply) => {
      if (err instanceof ApiError) {
        if (err.headers) reply.headers(err.headers);
        return sendError(request, reply, err.code, err.message, err.details);
      }
      if (err instanceof KeyCustodyMissingError) {
        // A process configured without the provider an issuer's secrets were moved to: say what to configure.
        request.log.error({ mode: err.mode, key_id: err.keyId }, 'key custody provider not loaded in this process');
        return sendError(request, reply, 'key_custody_unavailable', err.message);
      }
      if (err instanceof KeyProviderUnavailableError) {
        request.log.error({ err }, 'key custody provider unavailable');
        return sendError(request, reply, 'key_custody_unavailable', 'The HSM or KMS that holds the certificate keys cannot be used right now; retry shortly', undefined);
      }
      const fe = err as FastifyError & { validationContext?: string };
      if (fe.validation) {
        const details = validationDetails(fe.validation as never, fe.validationContext ?? 'body', preferredLanguage(request.headers['accept-language']));
        return sendError(request, reply, 'validation_error', summarize(details), details);
      }
      if (err instanceof SyntaxError && fe.statusCode === 400) {
        return sendError(request, reply, 'invalid_json', 'The body is not valid JSON');
      }
      const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
      if (mapped) return sendError(request, reply, mapped[0], mapped[1]);
      if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
        // A client error Fastify raised that we did not foresee: say so without internals.
        request.log.warn({ code: fe.code }, 'unmapped client error');
        return sendError(request, reply, fe.statusCode === 413 ? 'payload_too_large' : 'invalid_request', fe.message);
      }
      request.log.error({ err }, 'unhandled error');
      return sendError(request, reply, 'internal_error', 'Something went wrong on our side; the request id helps us find it');
    });

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0]!;
      const allowed = routes.allowed(path);
      if (allowed.length > 0) {
        reply.header('Allow', allowed.join(', '));
        return sendError(request, reply, 'method_not_allowed', `${request.method} is not allowed on ${path}; it answers ${allowed.join(', ')}`);
      }
      return sendError(request, reply, 'not_found', `No route ${request.method} ${path}`);
    });
  },
  { name: 'error-handler' },
);

function summarize(details: ErrorDetail[]): string {
  if (details.length === 0) return 'The request is invalid';
  const first = details[0]!;
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''})` : '';
  return `${first.field} ${first.message}${more}`;
}
