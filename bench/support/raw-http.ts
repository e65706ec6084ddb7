// HTTP as an attacker writes it: bytes on a socket, no client library to tidy them up.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection (after answering, or without a word). */
  closed: boolean;
}

/** Sends `bytes` on a new connection and reads until the server closes it or `ms` pass. */
export function rawRequest(port: number, bytes: string | Buffer, ms = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.on('data', (d) => chunks.push(d));
    socket.once('error', () => undefined);
    socket.once('close', () => {
      closed = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ ...parseAnswer(text), closed });
    });
    socket.once('connect', () => socket.write(bytes));
    socket.setNoDelay(true);
  });
}

/** Status line, headers and body of the first answer in `text` (status 0 when there is none). */
export function parseAnswer(text: string): Omit<RawAnswer, 'closed'> {
  const head = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || head < 0) return { status: 0, headers: {}, body: text };
  const lines = text.slice(0, head).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = text.slice(head + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  else if (headers['content-length']) body = body.slice(0, Number(headers['content-length']));
  return { status: Number(lines[0]!.split(' ')[1]), headers, body };
}

function dechunk(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; ) {
    const eol = s.indexOf('\r\n', i);
    if (eol < 0) break;
    const size = parseInt(s.slice(i, eol), 16);
    if (!size) break;
    out += s.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
  return out;
}

/** Opens a connection and keeps it open; resolves when it is connected. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Resolves when the server closes `socket` (or it errors) with the time it took, or with Infinity
 * when it is still open after `ms` (then this side closes it).
 */
export function closedBy(socket: Socket, ms: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(0);
    const timer = setTimeout(() => {
      socket.removeAllListeners('close');
      socket.destroy();
      resolve(Infinity);
    }, ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(performance.now() - started);
    });
    socket.once('error', () => undefined);
    socket.resume();
  });
}
