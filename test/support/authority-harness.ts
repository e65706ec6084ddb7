import { startAuthoritySimulator, type AuthoritySimulator } from '../../src/authority-sim/authority-simulator.js';
import { createSefazClient, type SefazClient } from '../../src/fiscal/sefaz/sefaz-client.js';
import { getTestDb } from './db.js';
import { testIssuer, TEST_CSC, type TestIssuer } from './authority-fixtures.js';

export interface AuthorityHarness {
  sim: AuthoritySimulator;
  issuer: TestIssuer;
  client: SefazClient;
  close(): Promise<void>;
}

/**
 * The simulator on a random 127.0.0.1 port, sharing the worker's test database, and a client that
 * trusts it and presents the test certificate (registered with the simulator, as the sandbox does).
 */
export async function startAuthorityHarness(opts: { responseTimeoutMs?: number; which?: 'plain' | 'cnpj' } = {}): Promise<AuthorityHarness> {
  const sim = await startAuthoritySimulator({ db: await getTestDb(), latencyMs: [0, 0] });
  const issuer = testIssuer(opts.which ?? 'plain');
  sim.registerClientCertificate(issuer.credentials.cert);
  const client = createSefazClient({
    credentials: issuer.credentials,
    ca: [sim.caPem],
    endpointOverride: { baseUrl: sim.url },
    // Last guards only (a TLS handshake or an answer on a loaded machine can take seconds); a test of
    // the timeout itself passes a short responseTimeoutMs for the call that is never answered.
    connectTimeoutMs: 10_000,
    responseTimeoutMs: opts.responseTimeoutMs ?? 20_000,
  });
  return {
    sim,
    issuer,
    client,
    async close() {
      client.close();
      await sim.close();
    },
  };
}

export async function registerTestCsc(sim: AuthoritySimulator, cnpj: string, tpAmb: 1 | 2 = 2): Promise<void> {
  await sim.registerCsc(cnpj, tpAmb, TEST_CSC.id, TEST_CSC.token);
}

export const BA = { uf: 'BA', model: 65 as const, tpAmb: 2 as const };
