import type { AuthoritySimulator } from './authority-simulator.js';
import type { SimService } from './sim-router.js';
import type { SimCounters } from './sim-context.js';
import type { HeldNote, HoldNoteInput } from './third-party-note.js';
import type { Outage, OutageRequest } from './outage.js';
import type { TaxpayerRecord } from './nfse/taxpayer-register.js';

/**
 * What a gateway (and a test) needs from the simulated authority besides SOAP: the taxpayer-portal
 * side (register certificates and CSCs) and a window on its state. One interface whether the
 * simulator runs in this process or alone (SIM_URL), so start-up re-registration is written once.
 */
export interface SimulatorLink {
  /** Base URL of the SOAP services. */
  readonly url: string;
  /** PEM the clients must trust for the simulator's server certificate; undefined = Node's bundled roots. */
  readonly caPem: string | undefined;
  /** 'in-process' simulators die with the gateway; a 'remote' one outlives it (crash tests, several processes). */
  readonly kind: 'in-process' | 'remote';
  registerClientCertificate(pem: string): Promise<void>;
  /** `tenant`: the account whose issuer it is (tenant.ts), so one account's CSC never replaces another's. */
  registerCsc(cnpj: string, tpAmb: 1 | 2, idCsc: number | string, csc: string, opts?: { revoked?: boolean; tenant?: string }): Promise<void>;
  /** The issuer's legal name and address in the register the simulated Sefin writes the NFS-e's emit from (nfse/taxpayer-register.ts). */
  registerTaxpayer(taxId: string, record: TaxpayerRecord, opts?: { tenant?: string }): Promise<void>;
  /** The X-Sandbox-Tenant value the gateway sends on every call for this account (tenant.ts). */
  tenantCredential(tenant: string): string;
  /** How many times the authority granted an authorization to this key (0 or 1 unless it is broken). */
  authorizationsFor(accessKey: string): Promise<number>;
  /** How many NFS-e the simulated Sefin Nacional generated from this DPS Id (0 or 1 unless it is broken). */
  nfseIssuedFor(dpsId: string): Promise<number>;
  stats(): Promise<SimCounters>;
  /** Plays `scenario` on the next `times` requests (to `service` only, when given; 'nfse' = the NFS-e API); null clears the queue. */
  setScenario(scenario: string | null, opts?: { times?: number; service?: SimService | 'nfse' }): Promise<void>;
  /** A third party's NF-e to `recipient` (issued by the simulator, or the signed nfeProc given): a received document. */
  holdReceivedNote(input: HoldNoteInput): Promise<HeldNote>;
  /** Takes the SEFAZ services down (every issuer, or `cnpj` only; every tenant, or `tenant` only) for `seconds` (outage.ts). */
  startOutage(request: OutageRequest): Promise<Outage>;
  /** Ends the outage of `cnpj`, or every outage (of `tenant` only, when given). */
  endOutage(cnpj?: string, tenant?: string): Promise<void>;
  outages(): Promise<Outage[]>;
}

export function inProcessLink(sim: AuthoritySimulator): SimulatorLink {
  return {
    url: sim.url,
    caPem: sim.caPem,
    kind: 'in-process',
    registerClientCertificate: async (pem) => sim.registerClientCertificate(pem),
    registerCsc: (cnpj, tpAmb, idCsc, csc, opts) => sim.registerCsc(cnpj, tpAmb, idCsc, csc, opts),
    registerTaxpayer: async (taxId, record, opts) => sim.registerTaxpayer(taxId, record, opts),
    tenantCredential: (tenant) => sim.tenantCredential(tenant),
    authorizationsFor: (key) => sim.authorizationsFor(key),
    nfseIssuedFor: (dpsId) => sim.nfseIssuedFor(dpsId),
    stats: async () => sim.stats(),
    setScenario: async (scenario, opts) => sim.setScenario(scenario, opts),
    holdReceivedNote: (input) => sim.holdReceivedNote(input),
    startOutage: async (request) => sim.startOutage(request),
    endOutage: async (cnpj, tenant) => {
      sim.endOutage(cnpj, tenant);
    },
    outages: async () => sim.outages(),
  };
}
