import { tlsCredentials, type ParsedCertificate } from '../certificate/pfx.js';
import { createNfseApiClient, NFSE_API_LIMITS } from '../nfse-api/nfse-api-client.js';
import { sefinBaseUrl, type NfseTpAmb } from '../nfse-api/nfse-api-endpoints.js';
import type { NfseApiClient } from '../nfse-api/nfse-api-types.js';
import type { EndpointOverride } from './endpoints.js';
import { AgentPool, requestOverMutualTls, type TransportOptions } from './https-transport.js';
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
}

/**
 * One SOAP client per issuer certificate, sharing one keep-alive pool: the mutual-TLS handshake is
 * paid once per certificate and host, not per sale.
 */
export class AuthorityAccess {
  private readonly pool = new AgentPool();
  private readonly clients = new Map<string, { raw: SefazClient; observed: SefazClient }>();
  private readonly nfseClients = new Map<string, NfseApiClient>();

  constructor(readonly options: AuthorityAccessOptions) {}

  /** The certificate's client; with a breaker, every call's outcome is recorded against its endpoint. */
  clientFor(cert: ParsedCertificate): SefazClient {
    return this.entryFor(cert).observed;
  }

  /** The same client without recording (the breaker's own probe). */
  rawClientFor(cert: ParsedCertificate): SefazClient {
    return this.entryFor(cert).raw;
  }

  /** The unrecorded client of a certificate this process already holds, by its SHA-256 fingerprint. */
  rawClientByFingerprint(fingerprint: string): SefazClient | undefined {
    return this.clients.get(fingerprint)?.raw;
  }

  private entryFor(cert: ParsedCertificate): { raw: SefazClient; observed: SefazClient } {
    const id = cert.fingerprintSha256;
    let entry = this.clients.get(id);
    if (!entry) {
      if (this.clients.size >= 1000) this.clients.clear();
      const raw = createSefazClient({
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
   * Sefin Nacional's REST client (NFS-e, FACTS 16.1) for one certificate and environment, on the same
   * keep-alive pool, trust store and timeouts; with an endpoint override (the sandbox) it talks to
   * `${baseUrl}/SefinNacional` on the simulator.
   */
  nfseClientFor(cert: ParsedCertificate, tpAmb: NfseTpAmb): NfseApiClient {
    const id = `${cert.fingerprintSha256}:${tpAmb}`;
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
        send: (r) => requestOverMutualTls(this.pool, r.method, r.url, r.body, r.headers, transport),
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
