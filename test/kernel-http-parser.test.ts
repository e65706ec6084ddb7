import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

// Requests Node's HTTP parser refuses before Fastify sees them, and the body and URL errors Fastify
// raises itself: every 4xx carries the error envelope and a request id, over a
// real socket, since inject() bypasses the parser.

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.app.close());

interface RawAnswer { status: number; headers: Record<string, string>; body: string }

/** Writes `raw` as is and reads the answer until the server closes the connection (or the first full answer). */
function send(raw: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let data = Buffer.alloc(0);
    const done = () => {
      const text = data.toString('utf8');
      const cut = text.indexOf('\r\n\r\n');
      if (cut < 0) return reject(new Error(`no answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, cut).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(cut + 4) });
    };
    socket.on('data', (d) => {
      data = Buffer.concat([data, d]);
      // A keep-alive answer (the Fastify errors) is complete once Content-Length bytes arrived.
      const text = data.toString('utf8');
      const cut = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, cut))?.[1];
      if (cut >= 0 && length !== undefined && Buffer.byteLength(text.slice(cut + 4)) >= Number(length)) socket.destroy();
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

function expectEnvelope(a: RawAnswer, status: number, code: string) {
  expect(a.status, a.body).toBe(status);
  expect(a.headers['content-type']).toMatch(/^application\/json/);
  expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
  const body = JSON.parse(a.body);
  expect(body).toMatchObject({ error: code, message: expect.any(String), request_id: expect.stringMatching(/^req_[0-9A-Za-z]{20}$/) });
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'request_id']);
  expect(a.headers['x-request-id']).toBe(body.request_id);
  return body as { error: string; message: string; request_id: string };
}

const AUTH = 'Authorization: Bearer sk_sandbox_public\r\n';

describe("requests the HTTP parser refuses get the error envelope (not Fastify's bare body)", () => {
  const cases: Array<[string, string, number, string, RegExp]> = [
    ['two different Content-Length headers', `POST /v1/applications HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 1\r\nContent-Length: 2\r\n\r\nab`, 400, 'invalid_request', /Content-Length/],
    ['Content-Length with Transfer-Encoding', `POST /v1/applications HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, 'invalid_request', /Transfer-Encoding/],
    ['an obs-fold (folded header line)', `GET /v1/ufs HTTP/1.1\r\nHost: x\r\n${AUTH}X-Folded: a\r\n b\r\n\r\n`, 400, 'invalid_request', /header/i],
    ['bare LF line endings', `GET /v1/ufs HTTP/1.1\nHost: x\n\n`, 400, 'invalid_request', /CRLF|line/i],
    ['a control character in a header value', `GET /v1/ufs HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n`, 400, 'invalid_request', /header/i],
    ['a space in a header name', `GET /v1/ufs HTTP/1.1\r\nHost: x\r\nX Bad: b\r\n\r\n`, 400, 'invalid_request', /header/i],
    ['headers larger than the limit', `GET /v1/ufs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`, 431, 'headers_too_large', /header/i],
  ];
  for (const [name, raw, status, code, message] of cases) {
    it(`${name}: ${status} ${code}, Connection: close`, async () => {
      const a = await send(raw);
      const body = expectEnvelope(a, status, code);
      expect(body.message).toMatch(message);
      expect(a.headers.connection).toBe('close');
    });
  }

  it('never echoes what the client sent (a refused request may carry its API key)', async () => {
    const a = await send(`GET /v1/ufs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_secretsecret\r\nX-Bad: a\x01b\r\n\r\n`);
    expectEnvelope(a, 400, 'invalid_request');
    expect(a.body).not.toContain('secret');
  });

  it('keeps serving after refusing malformed requests', async () => {
    const a = await send(`GET /v1/ufs HTTP/1.1\r\nHost: x\r\n${AUTH}Connection: close\r\n\r\n`);
    expect(a.status).toBe(200);
  });
});

describe('errors Fastify raises on the URL and the body carry the envelope too', () => {
  const json = (body: string, type = 'application/json') =>
    `POST /v1/applications HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  it('invalid JSON: 400 invalid_json', async () => expectEnvelope(await send(json('{"name": ')), 400, 'invalid_json'));
  it('a wrong content type: 415 unsupported_media_type', async () => expectEnvelope(await send(json('name=x', 'text/plain')), 415, 'unsupported_media_type'));
  it('a body over BODY_LIMIT_BYTES: 413 payload_too_large', async () =>
    expectEnvelope(await send(json(JSON.stringify({ name: 'x'.repeat(3000), scopes: ['nfce:read'] }))), 413, 'payload_too_large'));
  it('a malformed URL: 404 not_found', async () => expectEnvelope(await send(`GET /v1/nfce/%zz HTTP/1.1\r\nHost: x\r\n${AUTH}\r\n`), 404, 'not_found'));
});
