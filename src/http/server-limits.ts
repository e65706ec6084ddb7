import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpLimits } from '../config.js';
import { newId } from '../kernel/ids.js';

/**
 * Server timeouts: a client that sends its headers or body a byte at a time
 * is answered 408 and disconnected once HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS have
 * passed. The time a handler takes (Prefer: wait, the notification stream) is not limited by them.
 */
export function serverTimeouts(limits: HttpLimits) {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs } = limits;
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      // Node checks both timeouts on this interval (default 30 s, which would stretch a 10 s
      // headers timeout to 40 s): a quarter of the shorter one, at most a second.
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
    },
  };
}

/**
 * Caps the open connections per socket peer address (MAX_CONNECTIONS_PER_IP; 0 = no cap): one
 * address cannot hold every socket the process has (slowloris). The connection over the cap gets a
 * 429 in the error envelope and is closed at once. It counts the socket's peer: behind a load
 * balancer (TRUST_PROXY) that is the balancer, so raise the cap there or set it to 0.
 */
export function capConnectionsPerIp(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress;
    if (!ip) return;
    const n = open.get(ip) ?? 0;
    if (n >= max) {
      refuse(socket, max);
      return;
    }
    open.set(ip, n + 1);
    socket.once('close', () => {
      const left = (open.get(ip) ?? 1) - 1;
      if (left > 0) open.set(ip, left);
      else open.delete(ip);
    });
  });
}

function refuse(socket: Socket, max: number): void {
  const body = JSON.stringify({
    error: 'rate_limited',
    message: `Too many open connections from this address (at most ${max}); reuse one with keep-alive`,
    request_id: newId('req'),
  });
  socket.on('error', () => undefined);
  socket.write(
    'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.destroy();
}
