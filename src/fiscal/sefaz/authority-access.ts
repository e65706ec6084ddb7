import { tlsCredentials, type ParsedCertificate } from '../certificate/pfx.js';
import { createNfseApiClient, NFSE_API_LIMITS } from '../nfse-api/nfse-api-client.js';
import { sefinBaseUrl, type NfseTpAmb } from '../nfse-api/nfse-api-endpoints.js';
import type { NfseApiClient } from '../nfse-api/nfse-api-types.js';
import type { EndpointOverride } from './endpoints.js';
import { AgentPool, requestOverMutualTls, type TransportOptions } from './https-transport.js';
import { breakerCaller } from './breaker-key.js';
import { observedClient, type BreakerRecorder } from './observed-client.js';
import { createSefazClient, type SefazClient } from './sefaz-client.js';

export interface AuthorityAccessOptions {
  /** The sandbox sends every service to the simulator; production uses the per-state table. */
  endpointOverride?: EndpointOverride | undefined;
  /** Trust store for the authority's server chain (the simulator's CA in the sandbox). */
  ca?: readonly string[] | undefined;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  /** Whether X-Sandbox-Scenario may be passed through (never in production). */
  scenariosAllowed: boolean;
  /** Records every SEFAZ call's outcome against its endpoint's circuit breaker (authority-breaker.ts). */
  breaker?: BreakerRecorder | undefined;
  /**
   * Sandbox: the X-Sandbox-Tenant value for an account (authority-sim/tenant.ts), sent on every call
   * made for it, so the simulated authority keeps each account's numbers, notes and outages apart
   * although every account may use the example certificate and CNPJ. Absent in production.
   */
  tenantCredential?: ((accountId: string) => string) | undefined;
}

/**
 * One SOAP client per issuer certificate (and, in the sandbox, per account: see tenantCredential),
 * sharing one keep-alive pool: the mutual-TLS handshake is paid once per certificate and host, not
 * per sale. Every call names the account it is made for (null: none, e.g. a test's own call).
 */
export class AuthorityAccess {
  private readonly pool = new AgentPool();
  private readonly clients = new Map<string, { raw: SefazClient; observed: SefazClient }>();
  private readonly nfseClients = new Map<string, NfseApiClient>();

  constructor(readonly options: AuthorityAccessOptions) {}

  /** The certificate's client for an account; with a breaker, every call's outcome is recorded against its endpoint. */
  clientFor(cert: ParsedCertificate, accountId: string | null): SefazClient {
    return this.entryFor(cert, accountId).observed;
  }

  /** The same client without recording (the breaker's own probe). */
  rawClientFor(cert: ParsedCertificate, accountId: string | null): SefazClient {
    return this.entryFor(cert, accountId).raw;
  }

  /**
   * Who calls (breaker-key.ts breakerCaller): the certificate's fingerprint and the account, so that
   * in the sandbox, where the authority keeps accounts apart, a breaker opened by one account's
   * rehearsed outage is its own.
   */
  callerId(cert: ParsedCertificate, accountId: string | null): string {
    return breakerCaller(cert.fingerprintSha256, accountId);
  }

  /** The unrecorded client this process already holds for a caller id (callerId). */
  rawClientByFingerprint(caller: string): SefazClient | undefined {
    return this.clients.get(caller)?.raw;
  }

  private tenantHeaders(accountId: string | null): Record<string, string> {
    const credential = this.options.tenantCredential && accountId ? this.options.tenantCredential(accountId) : null;
    return credential ? { 'x-sandbox-tenant': credential } : {};
  }

  private entryFor(cert: ParsedCertificate, accountId: string | null): { raw: SefazClient; observed: SefazClient } {
    const id = this.callerId(cert, accountId);
    let entry = this.clients.get(id);
    if (!entry) {
      if (this.clients.size >= 1000) this.clients.clear();
      const raw = createSefazClient({
        headers: this.tenantHeaders(accountId),
        credentials: tlsCredentials(cert),
        ca: this.options.ca,
        endpointOverride: this.options.endpointOverride,
        connectTimeoutMs: this.options.connectTimeoutMs ?? 5_000,
        responseTimeoutMs: this.options.responseTimeoutMs ?? 30_000,
        pool: this.pool,
      });
      entry = { raw, observed: this.options.breaker ? observedClient(raw, this.options.breaker, id) : raw };
      this.clients.set(id, entry);
    }
    return entry;
  }

  /**
   * Sefin Nacional's REST client (NFS-e, docs/fiscal/nfse-national.md#hosts-and-transport) for one certificate and environment, on the same
   * keep-alive pool, trust store and timeouts; with an endpoint override (the sandbox) it talks to
   * `${baseUrl}/SefinNacional` on the simulator.
   */
  nfseClientFor(cert: ParsedCertificate, tpAmb: NfseTpAmb, accountId: string | null): NfseApiClient {
    const id = `${this.callerId(cert, accountId)}:${tpAmb}`;
    const tenant = this.tenantHeaders(accountId);
    let client = this.nfseClients.get(id);
    if (!client) {
      if (this.nfseClients.size >= 1000) this.nfseClients.clear();
      const transport: TransportOptions = {
        credentials: tlsCredentials(cert),
        ca: this.options.ca,
        connectTimeoutMs: this.options.connectTimeoutMs ?? 5_000,
        responseTimeoutMs: this.options.responseTimeoutMs ?? 30_000,
        maxResponseBytes: NFSE_API_LIMITS.maxResponseBytes,
      };
      client = createNfseApiClient({
        send: (r) => requestOverMutualTls(this.pool, r.method, r.url, r.body, { ...r.headers, ...tenant }, transport),
        baseUrl: sefinBaseUrl(tpAmb, this.options.endpointOverride?.baseUrl),
        scenariosAllowed: this.options.scenariosAllowed,
      });
      this.nfseClients.set(id, client);
    }
    return client;
  }

  close(): void {
    this.pool.destroy();
    this.clients.clear();
    this.nfseClients.clear();
  }
}
