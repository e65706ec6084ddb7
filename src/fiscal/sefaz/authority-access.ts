import { tlsCredentials, type ParsedCertificate } from '../certificate/pfx.js';
import type { EndpointOverride } from './endpoints.js';
import { AgentPool } from './https-transport.js';
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
}

/**
 * One SOAP client per issuer certificate, sharing one keep-alive pool: the mutual-TLS handshake is
 * paid once per certificate and host, not per sale.
 */
export class AuthorityAccess {
  private readonly pool = new AgentPool();
  private readonly clients = new Map<string, SefazClient>();

  constructor(readonly options: AuthorityAccessOptions) {}

  clientFor(cert: ParsedCertificate): SefazClient {
    const id = cert.fingerprintSha256;
    let client = this.clients.get(id);
    if (!client) {
      if (this.clients.size >= 1000) this.clients.clear();
      client = createSefazClient({
        credentials: tlsCredentials(cert),
        ca: this.options.ca,
        endpointOverride: this.options.endpointOverride,
        connectTimeoutMs: this.options.connectTimeoutMs ?? 5_000,
        responseTimeoutMs: this.options.responseTimeoutMs ?? 30_000,
        pool: this.pool,
      });
      this.clients.set(id, client);
    }
    return client;
  }

  close(): void {
    this.pool.destroy();
    this.clients.clear();
  }
}
