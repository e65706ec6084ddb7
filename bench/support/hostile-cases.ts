// The attack list each with the answer a hostile request must get. Every case runs as
// a client IP of its own against the production-mode gateways of bench/support/hostile-world.ts.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';
import { buildPfx } from '../../test/support/hostile-pfx.js';
import { dataUrl, HOSTILE } from '../../test/support/logo-samples.js';
import { freshBranchCnpj, sale, SP_ISSUER } from '../../test/support/nfce-flow.js';
import { closedBy, openSocket, rawRequest } from './raw-http.js';
import { PRINT_AND_DRIP_CASES } from './hostile-print-and-drip-cases.js';
import type { Answer, HostileWorld } from './hostile-world.js';
import { OFFLINE_XML_CASES } from './hostile-offline-xml.js';

export interface HostileSettings {
  /** RATE_LIMIT_PER_MINUTE of the gateways. */
  limit: number;
  /** HTTP_REQUEST_TIMEOUT_MS / HTTP_HEADERS_TIMEOUT_MS / MAX_CONNECTIONS_PER_IP of the gateways. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  maxConnectionsPerIp: number;
  /** Requests of the wrong-key flood. */
  floodRequests: number;
}

export interface Outcome {
  got: string;
  problems: string[];
}

export interface HostileCase {
  name: string;
  expected: string;
  /**
   * What the case needs before the attack (a large note to print), done before the phase whose /healthz
   * answers are held to the budget; its slowest /healthz is logged apart. What it returns goes to run().
   */
  setup?(w: HostileWorld, s: HostileSettings): Promise<unknown>;
  run(w: HostileWorld, s: HostileSettings, ready?: unknown): Promise<Outcome>;
}

/** Problems with an answer that should be the error envelope with this status, code and field. */
function envelope(a: Answer, status: number, code: string, field?: string): string[] {
  const p: string[] = [];
  if (a.status !== status) p.push(`status ${a.status}, expected ${status}`);
  if (a.json.error !== code) p.push(`error ${JSON.stringify(a.json.error)}, expected ${code}`);
  if (typeof a.json.message !== 'string' || !a.json.message) p.push('no message');
  if (typeof a.json.request_id !== 'string') p.push('no request_id');
  if (field && !(a.json.details ?? []).some((d: { field?: string }) => d.field === field)) p.push(`no detail on ${field}: ${JSON.stringify(a.json.details ?? a.json).slice(0, 160)}`);
  return p;
}

const brief = (a: Answer) => `${a.status} ${a.json.error ?? ''}${a.json.details?.[0] ? ` ${a.json.details[0].field}: ${String(a.json.details[0].message).slice(0, 90)}` : ''}`;

function logoCase(name: string, bytes: () => Buffer, type: 'image/png' | 'image/jpeg' = 'image/png'): HostileCase {
  return {
    name: `logo: ${name}`,
    expected: '422 validation_error on danfeLogo; nothing stored',
    async run(w) {
      const ip = w.newIp();
      const issuerId = await w.readyIssuer(ip);
      const g = w.gateways[0]!;
      const a = await w.call(g, 'PATCH', `/v1/issuers/${issuerId}/danfe-settings`, { body: { danfeLogo: dataUrl(type, bytes()) }, ip });
      const after = await w.call(w.gateways.at(-1)!, 'GET', `/v1/issuers/${issuerId}`, { ip });
      const problems = envelope(a, 422, 'validation_error', 'danfeLogo');
      if (after.json.danfe_settings?.danfeLogo) problems.push('a logo was stored');
      return { got: brief(a), problems };
    },
  };
}

function pfxCase(name: string, file: () => Buffer, password = 'minhasenha'): HostileCase {
  return {
    name: `certificate: ${name}`,
    expected: '422 certificate_invalid, at once',
    async run(w) {
      const ip = w.newIp();
      const g = w.gateways[0]!;
      const issuer = await w.call(g, 'POST', '/v1/issuers', { body: { ...SP_ISSUER, cnpj: freshBranchCnpj() }, ip });
      const form = new FormData();
      form.set('password', password);
      form.set('pfx', new Blob([file()]), 'a1.pfx');
      const started = performance.now();
      const a = await w.call(g, 'POST', `/v1/issuers/${issuer.json.id}/certificate`, { raw: form, ip });
      const ms = performance.now() - started;
      const problems = envelope(a, 422, 'certificate_invalid');
      return { got: `${brief(a)} "${String(a.json.message).slice(0, 100)}" in ${ms.toFixed(0)} ms`, problems };
    },
  };
}

/** A client that opens a request and then sends a little of it every tenth of the timeout. */
function dripCase(name: string, timeoutVar: string, opening: (w: HostileWorld) => string, drop: (i: number) => string, timeoutOf: (s: HostileSettings) => number): HostileCase {
  return {
    name,
    expected: `connection closed once ${timeoutVar} has passed (408)`,
    async run(w, s) {
      const socket = await openSocket(w.port(w.gateways[0]!));
      socket.write(opening(w));
      let i = 0;
      const drip = setInterval(() => socket.writable && socket.write(drop(i++)), Math.max(50, timeoutOf(s) / 10));
      const ms = await closedBy(socket, timeoutOf(s) * 2 + 5_000).finally(() => clearInterval(drip));
      return { got: `closed after ${ms.toFixed(0)} ms`, problems: ms === Infinity ? ['still open'] : [] };
    },
  };
}

const fixture = (name: string) => readFileSync(join(PROJECT_ROOT, 'test/fixtures/certs', name));

/** Raw requests the HTTP parser refuses: each must still answer the error envelope. */
const PARSER_ATTACKS: [string, string][] = [
  ['conflicting Content-Length', 'POST /v1/nfce HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!'],
  ['Content-Length with Transfer-Encoding', 'POST /v1/nfce HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
  ['obs-fold header', 'GET /v1/nfce HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n  b\r\n\r\n'],
  ['bare LF line endings', 'GET /v1/nfce HTTP/1.1\nHost: x\n\n'],
  ['control character in a header', 'GET /v1/nfce HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n'],
];

export const HOSTILE_CASES: HostileCase[] = [
  // 1-2. Logos that decode badly, or to far more pixels than a receipt can print.
  logoCase('PNG with corrupt compressed data', HOSTILE.corruptIdat),
  logoCase('PNG with a damaged byte (CRC left as it was)', HOSTILE.badCrc),
  logoCase('PNG signature only', HOSTILE.magicOnlyPng),
  logoCase('8-byte JPEG', HOSTILE.eightByteJpeg, 'image/jpeg'),
  logoCase('JPEG declaring 65535x65535', HOSTILE.hugeJpeg, 'image/jpeg'),
  logoCase('0x0 PNG', HOSTILE.zeroByZeroPng),
  logoCase('PNG declaring 20000x20000', HOSTILE.bomb20000),
  logoCase('PNG decompression bomb, 4000x4000 in 47 KB', HOSTILE.bomb4000),
  logoCase('16x16 PNG whose data inflates to 50 MB', HOSTILE.overlongIdat),
  logoCase('PNG cut before its end', HOSTILE.truncatedPng),
  // 3-4. Certificates that would hold a CPU for minutes, or every sale for a quarter second.
  pfxCase('10 million MAC iterations', () => buildPfx({ password: 'minhasenha', macIterations: 10_000_000 })),
  pfxCase('2^31 MAC iterations', () => buildPfx({ password: 'minhasenha', macIterations: 2n ** 31n })),
  pfxCase('10 million key-derivation iterations (shrouded key)', () => buildPfx({ password: 'minhasenha', keyIterations: 10_000_000 })),
  pfxCase('10 million iterations on the encrypted certificates', () => buildPfx({ password: 'minhasenha', certIterations: 10_000_000 })),
  pfxCase('RSA 16384-bit key', () => fixture('rsa16384_cnpj_06157250000116_senha_minhasenha.pfx')),
  pfxCase('RSA 1024-bit key', () => buildPfx({ password: 'minhasenha', bits: 1024 })),
  pfxCase('not ASN.1 at all', () => randomBytes(4000)),
  // 5. Slow clients.
  dripCase('slow body: headers, then one byte now and then', 'HTTP_REQUEST_TIMEOUT_MS', (w) => `POST /v1/nfce HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${w.ownerKey}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`, () => ' ', (s) => s.requestTimeoutMs),
  dripCase('slow headers: one header line now and then', 'HTTP_HEADERS_TIMEOUT_MS', () => 'GET /v1/nfce HTTP/1.1\r\nHost: x\r\n', (i) => `X-Drip-${i}: y\r\n`, (s) => s.headersTimeoutMs),
  {
    name: 'connections from one IP beyond the cap',
    expected: 'the ones over MAX_CONNECTIONS_PER_IP closed at once; a new one works once they are gone',
    async run(w, s) {
      const port = w.port(w.gateways[0]!);
      const sockets = await Promise.all(Array.from({ length: s.maxConnectionsPerIp + 5 }, () => openSocket(port).catch(() => null)));
      const closed = await Promise.all(sockets.map((sk) => (sk ? closedBy(sk, 3_000).then((ms) => ms !== Infinity) : true)));
      const refused = closed.filter(Boolean).length;
      const after = await w.call(w.gateways[0]!, 'GET', '/v1/ufs', { ip: w.newIp() }).catch((err: Error) => ({ status: 0, json: { raw: err.message }, headers: new Headers() }));
      const problems: string[] = [];
      if (refused < 5) problems.push(`only ${refused} of ${s.maxConnectionsPerIp + 5} connections refused`);
      if (after.status !== 200) problems.push(`a new request after they closed: ${after.status}`);
      return { got: `${refused} of ${s.maxConnectionsPerIp + 5} closed; next request ${after.status}`, problems };
    },
  },
  // 6. Unauthenticated floods and the exact limiter.
  {
    name: 'wrong-key flood from one IP',
    expected: 'at most the limit answered 401 (each with X-RateLimit-*), the rest 429',
    async run(w, s) {
      const ip = w.newIp();
      const counts: Record<number, number> = {};
      let missingHeaders = 0;
      for (let i = 0; i < s.floodRequests; i += 50) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(50, s.floodRequests - i) }, (_, j) => w.call(w.gateways[(i + j) % w.gateways.length]!, 'GET', '/v1/nfce', { key: `sk_live_${randomBytes(24).toString('hex')}`, ip })),
        );
        for (const a of batch) {
          counts[a.status] = (counts[a.status] ?? 0) + 1;
          if (a.status === 401 && !a.headers.get('x-ratelimit-remaining')) missingHeaders++;
        }
      }
      const problems: string[] = [];
      if ((counts[401] ?? 0) > s.limit) problems.push(`${counts[401]} answered 401 (each a key lookup); limit ${s.limit}`);
      if ((counts[429] ?? 0) < s.floodRequests - s.limit) problems.push(`only ${counts[429] ?? 0} answered 429`);
      if (missingHeaders) problems.push(`${missingHeaders} 401s without X-RateLimit-*`);
      return { got: JSON.stringify(counts), problems };
    },
  },
  {
    name: 'one key over its limit, through every process',
    expected: 'exactly the limit accepted; then 429 with Retry-After and X-RateLimit-Reset',
    async run(w, s) {
      const { key } = await w.keyWith(['nfce:read']);
      const ip = w.newIp();
      const answers = await Promise.all(Array.from({ length: s.limit + 10 }, (_, i) => w.call(w.gateways[i % w.gateways.length]!, 'GET', '/v1/nfce?limit=1', { key, ip })));
      const ok = answers.filter((a) => a.status === 200).length;
      const limited = answers.filter((a) => a.status === 429);
      const problems: string[] = [];
      // Without a shared store (PGlite: one process) the count is per process, and there is one.
      if (ok !== s.limit) problems.push(`${ok} accepted`);
      if (limited.length !== 10) problems.push(`${limited.length} answered 429`);
      if (limited.some((a) => !(Number(a.headers.get('retry-after')) >= 1) || a.headers.get('x-ratelimit-reset') === null)) problems.push('429 without Retry-After / X-RateLimit-Reset');
      return { got: `${ok} accepted, ${limited.length} limited (Retry-After ${limited[0]?.headers.get('retry-after')} s)`, problems };
    },
  },
  // 7. A narrow key against a broad one.
  {
    name: 'narrow key revokes the owner key',
    expected: '403 forbidden; the owner key still works',
    async run(w) {
      const ip = w.newIp();
      const broad = await w.keyWith(['*'], ip);
      const narrow = await w.keyWith(['applications:write'], ip);
      const g = w.gateways.at(-1)!;
      const del = await w.call(g, 'DELETE', `/v1/applications/${broad.id}`, { key: narrow.key, ip });
      const rotate = await w.call(g, 'POST', `/v1/applications/${broad.id}/rotate`, { key: narrow.key, ip });
      const still = await w.call(g, 'GET', '/v1/applications', { key: broad.key, ip });
      const problems = [...envelope(del, 403, 'forbidden'), ...envelope(rotate, 403, 'forbidden')];
      if (still.status !== 200) problems.push(`the broad key now answers ${still.status}`);
      return { got: `delete ${del.status}, rotate ${rotate.status}; broad key ${still.status}`, problems };
    },
  },
  // 8. One Idempotency-Key, two spellings of one route.
  {
    name: 'same Idempotency-Key on /v1/%6efce with another body',
    expected: '422 idempotency_conflict (the route is POST /v1/nfce either way)',
    async run(w) {
      const ip = w.newIp();
      const issuerId = await w.readyIssuer(ip);
      const k = `hostile-${randomBytes(8).toString('hex')}`;
      const first = await w.call(w.gateways[0]!, 'POST', '/v1/nfce', { body: sale(issuerId, { external_ref: 'a' }), ip, headers: { 'idempotency-key': k } });
      const other = await w.call(w.gateways.at(-1)!, 'POST', '/v1/%6efce', { body: sale(issuerId, { external_ref: 'b' }), ip, headers: { 'idempotency-key': k } });
      const upper = await w.call(w.gateways.at(-1)!, 'POST', '/v1/%6E%66ce?x=1', { body: sale(issuerId, { external_ref: 'b' }), ip, headers: { 'idempotency-key': k } });
      const same = await w.call(w.gateways.at(-1)!, 'POST', '/v1/%6efce', { body: sale(issuerId, { external_ref: 'a' }), ip, headers: { 'idempotency-key': k } });
      const problems = [...envelope(other, 422, 'idempotency_conflict'), ...envelope(upper, 422, 'idempotency_conflict')];
      if (first.status !== 202) problems.push(`first sale ${first.status}`);
      if (same.json.id !== first.json.id || same.headers.get('idempotency-replay') !== 'true') problems.push(`same body: ${same.status}, not a replay of the first`);
      return { got: `${first.status}, then ${other.status} ${other.json.error} / ${upper.status} ${upper.json.error}; same body replayed: ${same.headers.get('idempotency-replay')}`, problems };
    },
  },
  // 9. Issuer text the layout cannot carry.
  ...([
    ['razao_social', { razao_social: 'Padaria \u202Eetnaf Ltda' }],
    ['nome_fantasia', { nome_fantasia: 'Padaria \u{1F35E}' }],
    ['endereco.logradouro', { endereco: { logradouro: 'Rua \u{1F600}', numero: '1', bairro: 'Centro', codigo_municipio: '3550308', cep: '01310100' } }],
  ] as const).map(([field, patch]): HostileCase => ({
    name: `issuer text: ${field} with a character the layout cannot carry`,
    expected: `422 validation_error on ${field}; nothing stored`,
    async run(w) {
      const ip = w.newIp();
      const a = await w.call(w.gateways[0]!, 'POST', '/v1/issuers', { body: { ...SP_ISSUER, cnpj: freshBranchCnpj(), ...patch }, ip });
      return { got: brief(a), problems: envelope(a, 422, 'validation_error', field) };
    },
  })),
  // 10. What the HTTP parser refuses still gets the envelope.
  ...PARSER_ATTACKS.map(([name, bytes]): HostileCase => ({
    name: `HTTP parser: ${name}`,
    expected: '400 with the error envelope, connection closed',
    async run(w) {
      const a = await rawRequest(w.port(w.gateways[0]!), bytes);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(a.body) as Record<string, unknown>;
      } catch {
        // not JSON: reported below
      }
      const problems: string[] = [];
      if (a.status !== 400) problems.push(`status ${a.status}`);
      if (typeof json.error !== 'string' || typeof json.message !== 'string' || typeof json.request_id !== 'string') problems.push(`body ${a.body.slice(0, 120)}`);
      return { got: `${a.status} ${a.body.slice(0, 100)}`, problems };
    },
  })),
  // Bodies that cost to parse.
  {
    name: 'JSON nested 200,000 deep',
    expected: '400 or 422 with the envelope, never a 5xx',
    async run(w) {
      const a = await w.call(w.gateways[0]!, 'POST', '/v1/issuers', { raw: '['.repeat(200_000) + ']'.repeat(200_000), contentType: 'application/json', ip: w.newIp() });
      const problems = a.status >= 400 && a.status < 500 && a.json.error ? [] : [`${a.status} ${JSON.stringify(a.json).slice(0, 100)}`];
      return { got: brief(a), problems };
    },
  },
  // One account's searches against the shared process (PGlite runs them on the
  // event loop's thread: 20 phrase searches at once held /healthz for 1.9 s).
  {
    name: '20 phrase searches at once from one account',
    expected: '200 or 429 rate_limited with Retry-After each (2 of an account run at once), some refused; the next search answered 200',
    async run(w) {
      const ip = w.newIp();
      const q = `/v1/search?q=${encodeURIComponent('"pao frances" "cafe torrado"')}`;
      const burst = await Promise.all(Array.from({ length: 20 }, () => w.call(w.gateways[0]!, 'GET', q, { ip })));
      const ok = burst.filter((a) => a.status === 200).length;
      const refused = burst.filter((a) => a.status === 429);
      const after = await w.call(w.gateways[0]!, 'GET', q, { ip });
      const problems: string[] = [];
      // Those arriving after the first ones answered may run too: at most 2 at once, not 2 in all.
      if (ok < 1 || refused.length < 1) problems.push(`${ok} answered 200, ${refused.length} refused`);
      if (ok + refused.length !== 20) problems.push(`statuses ${burst.map((a) => a.status).join(',')}`);
      for (const a of refused) if (a.json.error !== 'rate_limited' || !a.headers.get('retry-after')) problems.push(`429 without rate_limited/Retry-After: ${JSON.stringify(a.json).slice(0, 80)}`);
      if (after.status !== 200) problems.push(`next search ${after.status}`);
      return { got: `${ok} x 200, ${refused.length} x 429; then ${after.status}`, problems };
    },
  },
  // Offline NFC-e XML with something beside or inside the signed NFe.
  ...OFFLINE_XML_CASES,
  // A 750-item receipt off the event loop; no socket outlives its 408's deadline.
  ...PRINT_AND_DRIP_CASES,
];
