import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createTestApp, type TestApp } from './support/app.js';

// A client that trickles its headers or body keeps no connection forever, and
// one address cannot hold every socket. Real sockets against a listening server; every wait is for
// an event (the socket's 'close'), never a sleep.

interface Peer {
  socket: Socket;
  received(): string;
  closed: Promise<number>;
}

/** A raw TCP client: `closed` resolves with the ms from connect to the server closing it. */
async function peer(port: number, localAddress = '127.0.0.1'): Promise<Peer> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (data += d));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const started = performance.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  return { socket, received: () => data, closed };
}

/** Writes one byte every `everyMs` until the server closes the socket. */
function trickle(p: Peer, everyMs: number, byte: string): void {
  const timer = setInterval(() => (p.socket.destroyed ? clearInterval(timer) : p.socket.write(byte)), everyMs);
  void p.closed.then(() => clearInterval(timer));
}

/** One GET over an open socket; resolves with the status line's code. */
function get(p: Peer, path: string): Promise<number> {
  const before = p.received().length;
  p.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_sandbox_public\r\n\r\n`);
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(p.received().slice(before));
      if (m) resolve(Number(m[1]));
    };
    p.socket.on('data', check);
    void p.closed.then(() => reject(new Error(`closed before an answer: ${JSON.stringify(p.received().slice(before))}`)));
  });
}

async function listening(env: Record<string, string>): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp({ env });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  return { t, port: typeof address === 'object' && address ? address.port : 0 };
}

describe('request and header timeouts', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    ({ t, port } = await listening({ HTTP_REQUEST_TIMEOUT_MS: '600', HTTP_HEADERS_TIMEOUT_MS: '300' }));
  });
  afterAll(async () => t.app.close());

  it('disconnects a client that sends its headers and then the body one byte at a time', async () => {
    const slow = await peer(port);
    slow.socket.write('POST /v1/applications HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_sandbox_public\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    trickle(slow, 50, ' ');
    const after = await slow.closed;
    expect(after).toBeGreaterThanOrEqual(500);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('disconnects a client that trickles its headers, and one that sends nothing', async () => {
    const slow = await peer(port);
    slow.socket.write('GET /v1/ufs HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    trickle(slow, 50, 'a');
    const idle = await peer(port);
    const [slowAfter, idleAfter] = await Promise.all([slow.closed, idle.closed]);
    expect(slowAfter).toBeGreaterThanOrEqual(250);
    expect(idleAfter).toBeGreaterThanOrEqual(250);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still serves a prompt client on a kept-alive connection', async () => {
    const ok = await peer(port);
    expect(await get(ok, '/v1/ufs')).toBe(200);
    expect(await get(ok, '/healthz')).toBe(200);
    ok.socket.destroy();
  });
});

describe('connections per IP', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    ({ t, port } = await listening({ MAX_CONNECTIONS_PER_IP: '3' }));
  });
  afterAll(async () => t.app.close());

  it('refuses the connection over the cap from one address while the others and other addresses work', async () => {
    const open = await Promise.all([peer(port), peer(port), peer(port)]);
    const extra = await peer(port);
    await extra.closed;
    expect(extra.received()).not.toMatch(/ 200 /);
    if (extra.received()) expect(extra.received()).toMatch(/^HTTP\/1\.1 429 [\s\S]*"error":"rate_limited"/);
    // The three open ones still work, and so does another address.
    for (const p of open) expect(await get(p, '/healthz')).toBe(200);
    const elsewhere = await peer(port, '127.0.0.2');
    expect(await get(elsewhere, '/v1/ufs')).toBe(200);
    elsewhere.socket.destroy();
    // A closed connection frees its place.
    open[0]!.socket.destroy();
    await open[0]!.closed;
    let again: Peer;
    for (;;) {
      again = await peer(port);
      const status = await get(again, '/healthz').catch(() => 0);
      if (status === 200) break;
    }
    for (const p of [...open, again]) p.socket.destroy();
  });
});

describe('server limit configuration', () => {
  it('sets the documented defaults on the server', async () => {
    const t = await createTestApp();
    try {
      expect(t.config.http).toEqual({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 75_000, maxConnectionsPerIp: 256 });
      expect(t.app.server).toMatchObject({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 75_000 });
    } finally {
      await t.app.close();
    }
  });

  it('stops on a bad value, naming the variable', () => {
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '-1' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_IP: '1.5' })).toThrow(/MAX_CONNECTIONS_PER_IP/);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/);
    expect(loadConfig({ MAX_CONNECTIONS_PER_IP: '0' }).http.maxConnectionsPerIp).toBe(0);
    // TRUST_PROXY is read with the rest of the configuration, not by the app from process.env.
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY must be one of true, false/);
  });
});
