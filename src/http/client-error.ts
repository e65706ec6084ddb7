import type { Socket } from 'node:net';
import { newId } from '../kernel/ids.js';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../kernel/errors.js';

// Requests Node's HTTP parser refuses (duplicate or conflicting Content-Length, Content-Length with
// Transfer-Encoding, obs-fold, bare LF, bad header characters, oversized headers) and requests the
// server times out never reach Fastify: Node hands them to the server's 'clientError' listener.
// docs/decisions.md#api-conventions says every 4xx carries the error envelope, so this listener writes it
// as a raw HTTP/1.1 answer and closes the connection: after a framing error the rest of the bytes on
// it cannot be trusted (request smuggling).

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

// llhttp's reasons are fixed texts ("Duplicate Content-Length", "Invalid header value char"); they
// are shown only when they look like one, and never anything from the request itself, which may
// carry an API key.
const REASON = /^[A-Za-z][A-Za-z0-9 ,'-]{2,80}$/;

export function clientErrorAnswer(err: Error & { code?: string; reason?: unknown }): { code: ErrorCode; message: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return { code: 'headers_too_large', message: 'The request headers are larger than the server accepts; send fewer or shorter headers' };
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { code: 'request_timeout', message: 'The request was not received in time; send it again' };
  }
  const reason = typeof err.reason === 'string' && REASON.test(err.reason) ? ` (${err.reason})` : '';
  return {
    code: 'invalid_request',
    message:
      `The request is not valid HTTP/1.1${reason}: lines end with CRLF, headers are not folded, and a body has one ` +
      'Content-Length or Transfer-Encoding: chunked, never both',
  };
}

/**
 * How long a connection answered here may stay open for the answer to drain, counted from the answer
 * and never extended: the client's bytes after it do not matter.
 */
export const CLIENT_ERROR_LINGER_MS = 5_000;

/** The server's 'clientError' listener (Fastify's clientErrorHandler option). */
export function answerClientError(
  err: Error & { code?: string },
  socket: Socket,
  log?: { debug(o: object, m: string): void },
  lingerMs = CLIENT_ERROR_LINGER_MS,
): void {
  // A reset connection has nobody to answer; a reply already started cannot be replaced.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { code, message } = clientErrorAnswer(err);
  const status = ERROR_STATUS[code];
  const requestId = newId('req');
  // Only the code: the error object holds the raw bytes received (rawPacket), headers included.
  log?.debug({ code: err.code, request_id: requestId }, 'refused malformed request');
  const body: ErrorBody = { error: code, message, request_id: requestId };
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      json,
  );
  // end() flushes and sends FIN; the socket is destroyed at a fixed deadline in case the client never
  // reads or keeps its side open. Not an idle timeout (socket.setTimeout): every byte a dripping client
  // sends would reset that one, and the half-open socket would count against MAX_CONNECTIONS_PER_IP forever.
  const deadline = setTimeout(() => socket.destroy(), lingerMs);
  deadline.unref();
  socket.once('close', () => clearTimeout(deadline));
}
