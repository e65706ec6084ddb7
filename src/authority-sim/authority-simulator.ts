import { svcOfPath, SVC_SERVICES } from '../fiscal/sefaz/svc-endpoints.js';
import { randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Db } from '../infra/storage/db.js';
import { soapResponseContentType } from '../fiscal/sefaz/soap-envelope.js';
import { parseScenario, SCENARIO_HEADER, type Scenario } from './scenario.js';
import { certificateBase64, generateSimulatorIdentity, privateKeyObject, type SimulatorIdentity } from './server-certificate.js';
import type { SimCounters } from './sim-context.js';
import { migrateSimulator } from './sim-migrations.js';
import { ADMIN_PREFIX, serveAdmin } from './sim-admin-api.js';
import { OutageBoard, type Outage, type OutageAuthorizer, type OutageRequest } from './outage.js';
import { SvcActivationBoard, type SvcActivationRequest } from './svc-activation.js';
import { RequestParties } from './request-parties.js';
import { faultReply, replyVersion, routeSoap, serviceOfPath, wsdlOf, type SimService, type SoapReply } from './sim-router.js';
import { SimStore } from './sim-store.js';
import { holdThirdPartyNote, type HeldNote, type HoldNoteInput } from './third-party-note.js';
import { NfseStore } from './nfse/nfse-store.js';
import { nfseScenarioOf } from './nfse/nfse-scenario.js';
import { isNfsePath, serveNfse } from './nfse/serve-nfse.js';
import { TaxpayerRegister, type TaxpayerRecord } from './nfse/taxpayer-register.js';
import { OPERATOR_TENANT, randomTenantKey, TENANT_HEADER, tenantCredential, tenantKeyFromAdminToken, tenantOfHeader } from './tenant.js';

export interface AuthoritySimulatorOptions {
  db: Db;
  /** 0 (default) = a random free port. */
  port?: number;
  host?: string;
  /** Answer delay range in ms; the sandbox uses [1000, 3000] (docs/guides/api.md#contract-sandbox-and-secrets: 1-3 s), tests [0, 0]. */
  latencyMs?: readonly [number, number];
  /** Server certificate and key; generated (self-signed) when absent. */
  identity?: SimulatorIdentity;
  /**
   * 'registered' (default): the TLS handshake itself refuses any client whose certificate is not
   * registered (registerClientCertificate), as a real SEFAZ refuses certificates outside ICP-Brasil.
   * 'any-certificate': any client certificate is accepted but one is required (standalone CLI use).
   */
  clientAuth?: 'registered' | 'any-certificate';
  /** Client certificates (PEM) trusted from the start. */
  clientCertificates?: readonly string[];
  /** Honour the X-Sandbox-Scenario header (sandbox only). Default true. */
  scenarioHeader?: boolean;
  /** Clock (tests of time windows). */
  now?: () => Date;
  /**
   * Where registered CSCs live: 'database' (default, standalone simulator with its own database) or
   * 'memory' (in-process sandbox sharing the gateway's database, which must hold no clear CSC).
   */
  cscStorage?: 'database' | 'memory';
  /**
   * Enables the admin API (`/sim/admin/...`, sim-admin-api.ts) behind this bearer token: gateways in
   * other processes register certificates and CSCs through it. Clients without a certificate then
   * complete the handshake but are served admin requests only.
   */
  adminToken?: string;
  /** Keep registered client certificates in the database, so a restarted standalone simulator still knows them. */
  persistClientCertificates?: boolean;
  /**
   * The key that signs tenant credentials (tenant.ts). Default: derived from adminToken (a standalone
   * simulator's gateways know it), else random (the in-process one, whose gateway asks tenantCredential()).
   */
  tenantKey?: Buffer;
}

export interface AuthoritySimulator {
  url: string;
  port: number;
  /** PEM the clients must trust for this server. */
  caPem: string;
  close(): Promise<void>;
  /** `tenant`: the account whose issuer it is (tenant.ts); absent: the operator's, which every tenant falls back on. */
  registerCsc(cnpj: string, tpAmb: 1 | 2, idCsc: number | string, csc: string, opts?: { revoked?: boolean; tenant?: string }): Promise<void>;
  /** The X-Sandbox-Tenant value a gateway sends for `tenant` (an account id). */
  tenantCredential(tenant: string): string;
  /** Name and address of a CNPJ/CPF in the taxpayer register the NFS-e's emit is written from (taxpayer-register.ts). */
  registerTaxpayer(taxId: string, record: TaxpayerRecord, opts?: { tenant?: string }): void;
  /** Trusted at once (the next handshake); persisted before the promise settles when persistClientCertificates. */
  registerClientCertificate(pem: string): Promise<void>;
  /** Plays `scenario` on the next `times` requests (to `service` only, when given; 'nfse' = the NFS-e API). null clears. */
  setScenario(scenario: string | null, opts?: { times?: number; service?: SimService | 'nfse' }): void;
  stats(): SimCounters;
  /** How many times the simulator granted an authorization to this key (0 or 1 unless it is broken). */
  authorizationsFor(accessKey: string): Promise<number>;
  /** How many NFS-e the simulated Sefin Nacional generated from this DPS Id (0 or 1 unless it is broken). */
  nfseIssuedFor(dpsId: string): Promise<number>;
  setClock(now: () => Date): void;
  /** Holds an NF-e of a third-party supplier (issued here, or a signed nfeProc given) to `recipient`: a received document (third-party-note.ts). */
  holdReceivedNote(input: HoldNoteInput): Promise<HeldNote>;
  /**
   * Takes the SEFAZ services down for `seconds` on the simulator's clock, for every issuer or only
   * `cnpj` (outage.ts); replaces an outage of the same scope. RangeError on a bad mode, seconds or cnpj.
   */
  startOutage(request: OutageRequest): Outage;
  /** Ends the outage of `cnpj`, or every outage (of `tenant` only, of `authorizer` only, when given); how many ended. Held connections are destroyed. */
  endOutage(cnpj?: string, tenant?: string, authorizer?: OutageAuthorizer): number;
  /** The outages on now (ended ones are gone). */
  outages(): Outage[];
  /**
   * Activates or deactivates the SVC for a state (svc-activation.ts), for every tenant or `tenant` only: a
   * deactivated one refuses that state's NF-e with 114. RangeError on a bad uf or tenant.
   */
  setSvcActivation(request: SvcActivationRequest): void;
  /** The states whose SVC is deactivated. */
  svcActivations(): Array<{ uf: string; tenant: string | null; active: false; at?: string }>;
}

interface QueuedScenario {
  scenario: Scenario;
  times: number;
  service: SimService | 'nfse' | undefined;
}

export async function startAuthoritySimulator(opts: AuthoritySimulatorOptions): Promise<AuthoritySimulator> {
  await migrateSimulator(opts.db);
  const store = new SimStore(opts.db, opts.cscStorage);
  const tenantKey = opts.tenantKey ?? (opts.adminToken ? tenantKeyFromAdminToken(opts.adminToken) : randomTenantKey());
  const identity = opts.identity ?? generateSimulatorIdentity();
  const signingKey = { privateKey: privateKeyObject(identity.keyPem), certificateBase64: certificateBase64(identity.certPem) };
  const counters: SimCounters = { requests: 0, authorizations: 0, rejections: 0, denials: 0, events: 0, voids: 0, tlsHandshakes: 0, nfseAuthorizations: 0, nfseRejections: 0, nfseEvents: 0, outageAnswers: 0, statusRequests: 0 };
  const trusted = new Set([...(opts.clientCertificates ?? []), ...(opts.persistClientCertificates ? await store.clientCertificates() : [])]);
  const queue: QueuedScenario[] = [];
  const held = new Set<Socket>();
  // Never answer: the client gives up on its own response timeout; close() ends the socket.
  const hold = (socket: Socket) => {
    held.add(socket);
    socket.once('close', () => held.delete(socket));
  };
  let now = opts.now ?? (() => new Date());
  const outages = new OutageBoard(() => now());
  const svcActivation = new SvcActivationBoard();
  const parties = new RequestParties();
  const nfseStore = new NfseStore(opts.db);
  const nfseContext = { store: nfseStore, signingKey, now: () => now(), counters };
  const taxpayers = new TaxpayerRegister(OPERATOR_TENANT);
  const [minLatency, maxLatency] = opts.latencyMs ?? [0, 0];
  const strict = (opts.clientAuth ?? 'registered') === 'registered';

  const tlsContext = () => ({
    key: identity.keyPem,
    cert: identity.certPem,
    // An empty trust store would make OpenSSL accept nothing: fine, nobody is registered yet.
    ...(strict ? { ca: [...trusted] } : {}),
  });

  // Sockets that presented no certificate: with the admin API on they may reach it, nothing else.
  const anonymous = new WeakSet<Socket>();
  const server = https.createServer(
    {
      ...tlsContext(),
      requestCert: true,
      // The admin API needs certificate-less clients to finish the handshake; the gate moves to
      // 'secureConnection' below (unregistered certificates are still dropped right there).
      rejectUnauthorized: strict && !opts.adminToken,
      minVersion: 'TLSv1.2',
      keepAliveTimeout: 120_000,
    },
    // serve() reads the body with for-await, which throws when the client drops the request: a
    // rejection nobody handles ends the process this simulator shares with the gateway.
    (req, res) =>
      void serve(req, res).catch(() => {
        if (!res.headersSent && !res.destroyed) reply(res, faultReply(replyVersion(req.headers['content-type']), 'Receiver', 'simulator failure: the request could not be read'));
        else res.destroy();
      }),
  );
  server.on('secureConnection', (socket) => {
    counters.tlsHandshakes += 1;
    const presented = Boolean(socket.getPeerCertificate()?.raw);
    if (presented && strict && !socket.authorized) socket.destroy();
    // A certificate is always demanded for SOAP: without one only the admin API may be reached.
    else if (!presented && !opts.adminToken) socket.destroy();
    else if (!presented) anonymous.add(socket);
  });

  function takeScenario(req: IncomingMessage, service: SimService | 'nfse' | null): Scenario | null {
    if (opts.scenarioHeader !== false) {
      const fromHeader = parseScenario(req.headers[SCENARIO_HEADER] as string | undefined);
      if (fromHeader) return fromHeader;
    }
    const i = queue.findIndex((q) => !q.service || q.service === service);
    if (i < 0) return null;
    const q = queue[i]!;
    if (--q.times <= 0) queue.splice(i, 1);
    return q.scenario;
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.url?.startsWith(ADMIN_PREFIX)) return serveAdmin(req, res, opts.adminToken, sim);
    if (anonymous.has(req.socket)) {
      req.socket.destroy();
      return;
    }
    counters.requests += 1;
    const contentType = req.headers['content-type'];
    const version = replyVersion(contentType);
    // The authority routes by address (each WSDL service has its own endpoint): a path that names no
    // service is not an endpoint (404), whatever the message says.
    const url = new URL(req.url ?? '/', 'https://sim.invalid');
    // The NFS-e national API (Sefin Nacional, ADN) shares the port and the certificate registry.
    // Whose records these are: the tenant the gateway's signed header names (tenant.ts), never a
    // name the caller picks; a forged one is refused before anything is read or stored.
    const tenant = tenantOfHeader(tenantKey, req.headers[TENANT_HEADER]);
    if (tenant === null) {
      req.resume();
      const why = `${TENANT_HEADER} is not a credential this authority issued`;
      if (isNfsePath(url.pathname)) return send(res, 403, JSON.stringify({ mensagem: why }), 'application/json; charset=utf-8');
      return reply(res, faultReply(version, 'Sender', why, 403));
    }
    if (isNfsePath(url.pathname)) {
      const ctx = { ...nfseContext, store: nfseStore.forTenant(tenant), taxpayer: (taxId: string) => taxpayers.lookup(tenant, taxId) };
      return serveNfse(req, res, { ctx, scenario: nfseScenarioOf(takeScenario(req, 'nfse')), readBody, hold });
    }
    const service = serviceOfPath(url.pathname);
    // An SVC (docs/fiscal/svc.md) answers at its own address: authorization, receipt, consultation,
    // events (cancellation) and status; it voids no numbers.
    const svc = svcOfPath(url.pathname);
    if (!service || (svc && !(SVC_SERVICES as readonly string[]).includes(service))) {
      req.resume();
      return reply(res, faultReply(version, 'Sender', `no web service at ${req.url ?? '/'}: paths name one, e.g. /NFeAutorizacao4`, 404));
    }
    if (req.method === 'GET' && url.search.toLowerCase() === '?wsdl') {
      req.resume();
      // The address the client used (its Host header) when it is a plain host[:port].
      const origin = /^[A-Za-z0-9.:[\]-]+$/.test(req.headers.host ?? '') ? `https://${req.headers.host}` : sim.url;
      const wsdl = wsdlOf(service, `${origin}${url.pathname}`);
      if (wsdl) return send(res, 200, wsdl, 'text/xml; charset=utf-8');
    }
    if (req.method !== 'POST') {
      req.resume();
      res.setHeader('allow', 'POST');
      return reply(res, faultReply(version, 'Sender', `${req.method ?? 'this method'} is not served: SOAP requests are POSTed (GET ?wsdl for the WSDL)`, 405));
    }
    const body = await readBody(req);
    if (body === null) return reply(res, faultReply(version, 'Sender', `request larger than ${MAX_REQUEST_BYTES} bytes`, 413));
    if (service === 'statusServico') counters.statusRequests += 1;
    const who = parties.of(req.socket as TLSSocket, service, body);
    // During an outage the queued scenarios wait for the authority to come back.
    // An outage takes down the state's authorizer, or the SVCs (`authorizer: 'svc'`): the SVC is another authority's
    // server and fails on its own. The Ambiente Nacional's event reception (cOrgao 91, national-endpoints.ts) stays up:
    // the EPEC is registered there precisely while the state is down (docs/fiscal/epec.md).
    // SP's NFC-e EPEC service is a server of its own (nfce.epec.fazenda.sp.gov.br, EPECws/): it is there for when SP's
    // NFC-e authorizer is down (docs/fiscal/offline-contingency.md#epec-sp), so the state's outage leaves it up too.
    // The gateway's endpoint override maps both to one path, so the message says which: an EPEC (110140) of a model 65 key.
    const nfceEpec = service === 'recepcaoEvento' && /<tpEvento>110140<\/tpEvento>/.test(body) && /<chNFe>[0-9]{20}65/.test(body);
    const national = (service === 'recepcaoEvento' && /<cOrgao>91<\/cOrgao>/.test(body)) || nfceEpec || /\/EPECws\//i.test(url.pathname);
    const meeting = () => (national ? null : outages.meeting(tenant, who.parties, svc ? 'svc' : 'state'));
    let scenario = meeting() ? null : takeScenario(req, service);
    // `outage:<seconds>` takes down the request's issuer only, never every issuer (scenario.ts).
    if (scenario?.kind === 'outage') {
      if (!who.issuer) return reply(res, faultReply(version, 'Sender', 'the outage scenario needs a message or a client certificate naming its issuer (CNPJ or CPF)'));
      outages.start({ mode: scenario.mode, seconds: scenario.seconds, cnpj: who.issuer, tenant, authorizer: scenario.authorizer });
      scenario = null;
    }
    if (maxLatency > 0) await new Promise((r) => setTimeout(r, randomInt(minLatency, maxLatency + 1)));
    const outage = meeting();
    if (outage) {
      counters.outageAnswers += 1;
      // no-answer: read, never answered; the connection goes when the client gives up or the outage ends.
      if (outage.mode === 'no-answer') return outages.hold(outage, req.socket);
      scenario = { kind: 'unavailable', cStat: outage.mode === 'unavailable:109' ? 109 : 108 };
    }
    if (scenario?.kind === 'timeout') return hold(req.socket);
    if (scenario?.kind === 'http-500') return reply(res, faultReply(version, 'Receiver', 'Internal server error (simulated)'));
    if (scenario?.kind === 'malformed') return send(res, 200, 'Service Unavailable <html><body>proxy error', 'text/html');
    try {
      const answer = await routeSoap(
        { service, path: url.pathname, body, contentType, soapAction: req.headers.soapaction },
        { store: store.forTenant(tenant), signingKey, now, scenario, counters, authorizer: svc ?? 'state', svcActive: (uf) => svcActivation.isActive(tenant, uf, now()),
          svcDeactivatingAt: (uf) => svcActivation.deactivatingAt(tenant, uf, now()) },
      );
      if (scenario?.kind === 'lost-response') {
        // Processed and stored; the answer never reaches the client.
        req.socket.destroy();
        return;
      }
      reply(res, answer);
    } catch (err) {
      reply(res, faultReply(version, 'Receiver', `simulator failure: ${(err as Error).message}`));
    }
  }

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';

  const sim: AuthoritySimulator = {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    caPem: identity.caPem,
    async close() {
      outages.clear();
      for (const s of held) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async registerCsc(cnpj, tpAmb, idCsc, csc, o) {
      await store.forTenant(o?.tenant ?? OPERATOR_TENANT).upsertCsc(cnpj, tpAmb, Number(idCsc), csc, o?.revoked ?? false, now());
    },
    tenantCredential: (tenant) => tenantCredential(tenantKey, tenant),
    registerTaxpayer: (taxId, record, o) => taxpayers.register(o?.tenant ?? OPERATOR_TENANT, taxId, record),
    async registerClientCertificate(pem) {
      if (trusted.has(pem)) return;
      trusted.add(pem);
      if (strict) server.setSecureContext(tlsContext());
      if (opts.persistClientCertificates) await store.addClientCertificate(pem);
    },
    setScenario(text, o) {
      if (text === null) {
        queue.length = 0;
        return;
      }
      const scenario = parseScenario(text);
      if (!scenario) throw new RangeError(`unknown scenario ${text}`);
      queue.push({ scenario, times: o?.times ?? 1, service: o?.service });
    },
    stats: () => ({ ...counters }),
    authorizationsFor: (key) => store.grants(key),
    nfseIssuedFor: (dpsId) => nfseStore.issuedFor(dpsId),
    setClock(fn) {
      now = fn;
    },
    holdReceivedNote: (input) => holdThirdPartyNote({ store, signingKey, now }, input),
    startOutage: (request) => outages.start(request),
    endOutage: (cnpj, tenant, authorizer) => outages.end(cnpj, tenant, authorizer),
    outages: () => outages.list(),
    setSvcActivation: (request) => svcActivation.set(request),
    svcActivations: () => svcActivation.list(),
  };
  return sim;
}

// An oversized message is refused (the authorities answer cStat 214, docs/fiscal/cstat.md); 8 MiB is far past any lot.
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

/** The request body as UTF-8, or null past MAX_REQUEST_BYTES (the rest is drained, not kept). */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size <= MAX_REQUEST_BYTES) chunks.push(c as Buffer);
  }
  return size > MAX_REQUEST_BYTES ? null : Buffer.concat(chunks).toString('utf8');
}

function reply(res: ServerResponse, answer: SoapReply): void {
  send(res, answer.status, answer.envelope, soapResponseContentType(answer.version));
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
