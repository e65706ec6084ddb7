import { gunzipSync, gzipSync } from 'node:zlib';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSelfSigned } from '../src/authority-sim/server-certificate.js';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { createNfseApiClient, type NfseApiClientOptions } from '../src/fiscal/nfse-api/nfse-api-client.js';
import { AuthorityAccess } from '../src/fiscal/sefaz/authority-access.js';
import { AgentPool, requestOverMutualTls, type TransportOptions } from '../src/fiscal/sefaz/https-transport.js';
import { ManualClock } from './support/clock.js';
import { generateTestPfx } from './support/generate-certificate.js';

// The Sefin Nacional client (docs/fiscal/nfse-national.md#hosts-and-transport, docs/fiscal/nfse-national.md#calls) against SEFIN TEST DOUBLE below: a small local HTTPS
// server that demands a client certificate and answers what each test scripts. It is not the sandbox's
// simulator (authority-sim/); it only plays the shapes the Swagger and docs/fiscal/nfse-national.md#hosts-and-transport describe.

const KEY = '35503082211222333000181000000000000126031234567899';
const DPS_ID = 'DPS355030821122233300018100001000000000000001';
const DPS_XML = '<DPS xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infDPS Id="' + DPS_ID + '"><tpAmb>2</tpAmb></infDPS></DPS>';
const NFSE_XML = '<NFSe xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infNFSe Id="NFS' + KEY + '"><nNFSe>1</nNFSe></infNFSe></NFSe>';
const EVENT_XML = '<evento xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infEvento Id="EVT' + KEY.slice(0, 53) + '"/></evento>';
const b64gz = (xml: string) => gzipSync(Buffer.from(xml, 'utf8')).toString('base64');

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  clientCn: string | undefined;
}
type Script = (req: SeenRequest, res: ServerResponse) => void;

/** SEFIN TEST DOUBLE: HTTPS with client-certificate authentication; each test sets `script`. */
class SefinTestDouble {
  readonly identity = generateSelfSigned({ commonName: 'Sefin Nacional test double', usage: 'server' });
  readonly seen: SeenRequest[] = [];
  script: Script = (_req, res) => json(res, 500, {});
  private server: https.Server | undefined;

  async start(trustedClientPem: string): Promise<string> {
    this.server = https.createServer(
      { key: this.identity.keyPem, cert: this.identity.certPem, ca: [trustedClientPem], requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          const seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), clientCn: peer?.subject?.CN as string | undefined };
          this.seen.push(seen);
          this.script(seen, res);
        });
      },
    );
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const sefin = new SefinTestDouble();
const cert = parsePfx(generateTestPfx('11222333000181', 'pw'), 'pw');
const pool = new AgentPool();
const clock = new ManualClock('2026-11-25T12:00:00.000Z');
let origin = '';
const transport = (): TransportOptions => ({
  credentials: { key: cert.privateKeyPem, cert: cert.certificatePem },
  ca: [sefin.identity.caPem],
  connectTimeoutMs: 2_000,
  responseTimeoutMs: 5_000,
  maxResponseBytes: 4 * 1024 * 1024,
});
const clientWith = (o: Partial<NfseApiClientOptions> = {}, t: Partial<TransportOptions> = {}) =>
  createNfseApiClient({
    send: (r) => requestOverMutualTls(pool, r.method, r.url, r.body, r.headers, { ...transport(), ...t }),
    baseUrl: `${origin}/SefinNacional`,
    scenariosAllowed: true,
    clock,
    ...o,
  });
const last = () => sefin.seen.at(-1)!;

beforeAll(async () => {
  origin = await sefin.start(cert.certificatePem);
});
afterAll(async () => {
  pool.destroy();
  await sefin.stop();
});

describe('Sefin Nacional client: answers', () => {
  it('201 authorized: the DPS left gzip+base64 over mutual TLS, the NFS-e comes back decoded with its alerts', async () => {
    sefin.script = (_req, res) =>
      json(res, 201, {
        tipoAmbiente: 2,
        versaoAplicativo: 'SefinNacional_1.6.0',
        dataHoraProcessamento: '2026-11-25T09:00:01.123-03:00',
        idDps: DPS_ID,
        chaveAcesso: KEY,
        nfseXmlGZipB64: b64gz(NFSE_XML),
        alertas: [{ codigo: 'E0999', descricao: 'Alerta de teste' }],
      });
    const outcome = await clientWith().issue(DPS_XML);
    expect(outcome).toEqual({
      kind: 'authorized',
      accessKey: KEY,
      dpsId: DPS_ID,
      nfseXml: NFSE_XML,
      processedAt: '2026-11-25T09:00:01.123-03:00',
      alerts: [{ code: 'E0999', description: 'Alerta de teste' }],
    });
    const req = last();
    expect([req.method, req.url, req.clientCn]).toEqual(['POST', '/SefinNacional/nfse', 'EMPRESA DE TESTE LTDA:11222333000181']);
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    const sent = JSON.parse(req.body) as { dpsXmlGZipB64: string };
    expect(gunzipSync(Buffer.from(sent.dpsXmlGZipB64, 'base64')).toString('utf8')).toBe(DPS_XML);
  });

  it('400 with erros[] (and idDPS spelled the error way) is a rejection with every message', async () => {
    sefin.script = (_req, res) =>
      json(res, 400, {
        idDPS: DPS_ID,
        erros: [
          { codigo: 'E0014', descricao: 'DPS já utilizada', complemento: 'serie 1 nDPS 1' },
          { codigo: 'E0121', descricao: 'xNome do prestador não deve ser informado' },
        ],
      });
    expect(await clientWith().issue(DPS_XML)).toEqual({
      kind: 'rejected',
      status: 400,
      errors: [
        { code: 'E0014', description: 'DPS já utilizada', complement: 'serie 1 nDPS 1' },
        { code: 'E0121', description: 'xNome do prestador não deve ser informado' },
      ],
    });
  });

  it('an event refused with a PascalCase Erro array (docs/fiscal/nfse-national.md#hosts-and-transport) is read too', async () => {
    sefin.script = (_req, res) => json(res, 400, { Erro: [{ Codigo: 'E1235', Descricao: 'Falha no esquema', Complemento: 'xMotivo' }] });
    const outcome = await clientWith().registerEvent(KEY, '<pedRegEvento/>');
    expect(outcome).toEqual({ kind: 'rejected', status: 400, errors: [{ code: 'E1235', description: 'Falha no esquema', complement: 'xMotivo' }] });
    expect([last().method, last().url]).toEqual(['POST', `/SefinNacional/nfse/${KEY}/eventos`]);
    const sent = JSON.parse(last().body) as { pedidoRegistroEventoXmlGZipB64: string };
    expect(gunzipSync(Buffer.from(sent.pedidoRegistroEventoXmlGZipB64, 'base64')).toString()).toBe('<pedRegEvento/>');
  });

  it('429 waits for Retry-After in seconds, as an HTTP date (read on the given clock), or a default', async () => {
    sefin.script = (_req, res) => json(res, 429, { erro: { descricao: 'Muitas requisições' } }, { 'retry-after': '7' });
    expect(await clientWith().issue(DPS_XML)).toEqual({ kind: 'throttled', retryAfterMs: 7_000 });
    const at = new Date(clock.now().getTime() + 90_000).toUTCString();
    sefin.script = (_req, res) => json(res, 429, {}, { 'retry-after': at });
    expect(await clientWith().lookupDps(DPS_ID)).toEqual({ kind: 'throttled', retryAfterMs: 90_000 });
    clock.advance(30_000);
    expect(await clientWith().lookupDps(DPS_ID)).toEqual({ kind: 'throttled', retryAfterMs: 60_000 });
    sefin.script = (_req, res) => json(res, 429, {});
    expect(await clientWith({ retryAfter: { defaultMs: 12_345 } }).fetchNfse(KEY)).toEqual({ kind: 'throttled', retryAfterMs: 12_345 });
  });

  it('GET /dps/{id}: 200 gives the key, 404 says no NFS-e came from it', async () => {
    sefin.script = (req, res) => (req.url.endsWith(DPS_ID) ? json(res, 200, { idDps: DPS_ID, chaveAcesso: KEY }) : json(res, 404, { erro: { codigo: 'E404' } }));
    expect(await clientWith().lookupDps(DPS_ID)).toEqual({ kind: 'found', accessKey: KEY });
    expect([last().method, last().url]).toEqual(['GET', `/SefinNacional/dps/${DPS_ID}`]);
    expect(await clientWith().lookupDps(DPS_ID.replace(/1$/, '2'))).toEqual({ kind: 'not-found' });
  });

  it('GET the NFS-e and a registered event, decoded; 404 is not-found', async () => {
    sefin.script = (req, res) => {
      if (req.url === `/SefinNacional/nfse/${KEY}`) json(res, 200, { chaveAcesso: KEY, nfseXmlGZipB64: b64gz(NFSE_XML) });
      else if (req.url === `/SefinNacional/nfse/${KEY}/eventos/101101/1`) json(res, 200, { eventoXmlGZipB64: b64gz(EVENT_XML) });
      else json(res, 404, {});
    };
    expect(await clientWith().fetchNfse(KEY)).toEqual({ kind: 'found', accessKey: KEY, nfseXml: NFSE_XML });
    expect(await clientWith().fetchEvent(KEY, '101101', 1)).toEqual({ kind: 'found', eventXml: EVENT_XML });
    expect(await clientWith().fetchEvent(KEY, '101101', 2)).toEqual({ kind: 'not-found' });
  });

  it('201 event registered: the event XML decoded', async () => {
    sefin.script = (_req, res) => json(res, 201, { eventoXmlGZipB64: b64gz(EVENT_XML), alertas: [] });
    expect(await clientWith().registerEvent(KEY, '<pedRegEvento/>')).toEqual({ kind: 'registered', eventXml: EVENT_XML, alerts: [] });
  });

  it('5xx is unavailable: in doubt for a POST, not for a GET', async () => {
    sefin.script = (_req, res) => json(res, 503, { erros: [{ codigo: 'E9999', descricao: 'Erro interno' }] });
    expect(await clientWith().issue(DPS_XML)).toEqual({ kind: 'unavailable', reason: 'HTTP 503: E9999 Erro interno', inDoubt: true, status: 503 });
    expect(await clientWith().fetchNfse(KEY)).toMatchObject({ kind: 'unavailable', inDoubt: false, status: 503 });
  });

  it('a 4xx without Sefin messages (a proxy page) is unavailable, not a rejection to act on', async () => {
    sefin.script = (_req, res) => json(res, 403, '<html>Forbidden</html>');
    expect(await clientWith().issue(DPS_XML)).toEqual({ kind: 'unavailable', reason: 'HTTP 403 without Sefin messages', inDoubt: false, status: 403 });
  });
});

describe('Sefin Nacional client: lost answers, refused connections and hostile bodies', () => {
  it('a POST whose answer is lost (socket destroyed after the request was read) is in doubt; a GET is not', async () => {
    sefin.script = (_req, res) => res.socket!.destroy(); // after the whole request was read
    expect(await clientWith().issue(DPS_XML)).toMatchObject({ kind: 'unavailable', inDoubt: true });
    expect(last().url).toBe('/SefinNacional/nfse'); // the double did read it
    expect(await clientWith().lookupDps(DPS_ID)).toMatchObject({ kind: 'unavailable', inDoubt: false });
  });

  it('a POST that times out waiting for the answer is in doubt', async () => {
    sefin.script = () => undefined; // never answers
    const outcome = await clientWith({}, { responseTimeoutMs: 300 }).issue(DPS_XML);
    expect(outcome).toEqual({ kind: 'unavailable', reason: 'Sefin Nacional did not answer in time', inDoubt: true });
  });

  it('a refused connection never reached Sefin: not in doubt', async () => {
    const closed = https.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const outcome = await clientWith({ baseUrl: `https://127.0.0.1:${port}/SefinNacional` }).issue(DPS_XML);
    expect(outcome).toEqual({ kind: 'unavailable', reason: 'connection failed: ECONNREFUSED', inDoubt: false });
  });

  it('a TLS handshake that never completes is a connect timeout: the request never left, not in doubt', async () => {
    const silent = net.createServer((s) => s.resume()); // reads the ClientHello, never answers it
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const outcome = await clientWith({ baseUrl: `https://127.0.0.1:${port}/SefinNacional` }, { connectTimeoutMs: 300 }).issue(DPS_XML);
      expect(outcome).toEqual({ kind: 'unavailable', reason: 'could not connect to Sefin Nacional in time', inDoubt: false });
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a gzip bomb in an answer stops at the XML bound (in doubt: the POST was processed)', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)).toString('base64'); // ~64 KB of base64 -> 64 MiB
    sefin.script = (_req, res) => json(res, 201, { idDps: DPS_ID, chaveAcesso: KEY, nfseXmlGZipB64: bomb });
    const outcome = await clientWith().issue(DPS_XML);
    expect(outcome).toEqual({ kind: 'unavailable', reason: `HTTP 201: nfseXmlGZipB64 inflates past ${2 * 1024 * 1024} bytes`, inDoubt: true, status: 201 });
  });

  it('malformed base64, gzip and JSON in a 201 are unavailable with the reason, in doubt', async () => {
    const cases: Array<[unknown, string]> = [
      [{ chaveAcesso: KEY, nfseXmlGZipB64: 'not base64!' }, 'nfseXmlGZipB64 is not base64'],
      [{ chaveAcesso: KEY, nfseXmlGZipB64: Buffer.from('plain text').toString('base64') }, 'nfseXmlGZipB64 is not gzip'],
      [{ chaveAcesso: KEY }, 'nfseXmlGZipB64 missing from the answer'],
      [{ nfseXmlGZipB64: b64gz(NFSE_XML) }, 'answer without a valid chaveAcesso'],
      ['{"chaveAcesso": "' + KEY, 'answer is not JSON'],
    ];
    for (const [body, reason] of cases) {
      sefin.script = (_req, res) => json(res, 201, body);
      const outcome = await clientWith().issue(DPS_XML);
      expect(outcome).toMatchObject({ kind: 'unavailable', inDoubt: true, status: 201 });
      expect((outcome as { reason: string }).reason).toContain(reason);
    }
  });

  it('an answer past the body bound is cut off, not read whole', async () => {
    sefin.script = (_req, res) => json(res, 200, { chaveAcesso: KEY, nfseXmlGZipB64: 'A'.repeat(1024 * 1024) });
    const outcome = await clientWith({}, { maxResponseBytes: 64 * 1024 }).fetchNfse(KEY);
    expect(outcome).toEqual({ kind: 'unavailable', reason: `connection failed: answer larger than ${64 * 1024} bytes`, inDoubt: false });
  });
});

describe('AuthorityAccess.nfseClientFor', () => {
  it('goes to the override + /SefinNacional on the shared pool; X-Sandbox-Scenario only where scenarios are allowed', async () => {
    sefin.script = (_req, res) => json(res, 200, { idDps: DPS_ID, chaveAcesso: KEY });
    const sandbox = new AuthorityAccess({ endpointOverride: { baseUrl: origin + '/' }, ca: [sefin.identity.caPem], scenariosAllowed: true });
    const production = new AuthorityAccess({ endpointOverride: { baseUrl: origin }, ca: [sefin.identity.caPem], scenariosAllowed: false });
    try {
      expect(sandbox.nfseClientFor(cert, 2, null)).toBe(sandbox.nfseClientFor(cert, 2, null));
      expect(await sandbox.nfseClientFor(cert, 2, null).lookupDps(DPS_ID, { scenario: 'reject:E0014' })).toEqual({ kind: 'found', accessKey: KEY });
      expect([last().url, last().headers['x-sandbox-scenario']]).toEqual([`/SefinNacional/dps/${DPS_ID}`, 'reject:E0014']);
      await production.nfseClientFor(cert, 1, null).lookupDps(DPS_ID, { scenario: 'reject:E0014' });
      expect(last().headers['x-sandbox-scenario']).toBeUndefined();
    } finally {
      sandbox.close();
      production.close();
    }
  });
});
