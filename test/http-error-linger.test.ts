// After the 408 (or any answer the HTTP parser's listener writes) the connection is
// destroyed at a fixed deadline whatever the client keeps sending. Before, the socket got end() and an
// idle timer that each byte from the client reset: a client dripping a byte now and then held the
// half-open socket, and its slot under MAX_CONNECTIONS_PER_IP, forever.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerClientError } from '../src/http/client-error.js';
import { capConnectionsPerIp } from '../src/http/server-limits.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
});

/** A server that times requests out after 150 ms and keeps a 408's socket at most `lingerMs` more. */
async function listen(lingerMs: number, cap = 0): Promise<number> {
  server = createServer({ requestTimeout: 150, headersTimeout: 150, connectionsCheckingInterval: 25 }, (req, res) => {
    // Like Fastify, the answer waits for the whole body.
    req.resume();
    req.once('end', () => res.end('ok'));
  });
  server.on('clientError', (err, socket) => answerClientError(err, socket as Socket, undefined, lingerMs));
  capConnectionsPerIp(server, cap);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** A client that opens a POST and then sends one byte every 40 ms, long after the 408. */
function dripper(port: number): { socket: Socket; answer: () => string; closed: Promise<void> } {
  // Half-open, as an attacker holds it: the server's FIN does not end this side.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let text = '';
  socket.on('data', (d) => (text += String(d)));
  socket.on('error', () => undefined);
  socket.once('connect', () => socket.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{'));
  const drip = setInterval(() => !socket.destroyed && socket.write(' '), 40);
  const closed = new Promise<void>((r) => socket.once('close', () => r(clearInterval(drip))));
  return { socket, answer: () => text, closed };
}

describe('a connection answered by the parser listener (408) is closed at a fixed deadline', () => {
  it('a client dripping bytes after its 408 is disconnected within the deadline', async () => {
    const port = await listen(300);
    const c = dripper(port);
    // Without the deadline the drip keeps resetting the idle timer: this bound fails the test.
    const guard = new Promise<'open'>((r) => setTimeout(() => r('open'), 6_000).unref());
    const outcome = await Promise.race([c.closed.then(() => 'closed' as const), guard]);
    c.socket.destroy();
    expect(outcome).toBe('closed');
    expect(c.answer()).toMatch(/^HTTP\/1\.1 408 /);
  }, 10_000);

  it('the dripping clients no longer hold the per-address cap: a new client is served', async () => {
    const port = await listen(300, 3);
    const clients = [dripper(port), dripper(port), dripper(port)];
    const guard = new Promise<'open'>((r) => setTimeout(() => r('open'), 6_000).unref());
    const outcome = await Promise.race([Promise.all(clients.map((c) => c.closed)).then(() => 'closed' as const), guard]);
    for (const c of clients) c.socket.destroy();
    expect(outcome).toBe('closed');
    // The server's side of each socket is gone once the client saw it close; wait until it counted them.
    while ((await new Promise<number>((r) => server!.getConnections((_e, n) => r(n)))) > 0) await new Promise((r) => setImmediate(r));
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  }, 10_000);
});
