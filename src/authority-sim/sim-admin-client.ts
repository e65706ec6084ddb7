import https from 'node:https';
import type { SimCounters } from './sim-context.js';
import { ADMIN_PREFIX } from './sim-admin-api.js';
import type { SimulatorLink } from './sim-link.js';
import type { Outage, outageJson } from './outage.js';
import { tenantCredential, tenantKeyFromAdminToken } from './tenant.js';
import { taxpayerJson } from './nfse/taxpayer-register.js';

type OutageJson = ReturnType<typeof outageJson>;
const outageOf = (o: OutageJson): Outage => ({ mode: o.mode, cnpj: o.cnpj, tenant: o.tenant ?? null, authorizer: o.authorizer ?? 'state', startedAt: new Date(o.started_at), endsAt: new Date(o.ends_at) });

export interface RemoteSimulatorOptions {
  /** Base URL of the standalone simulator (SIM_URL). */
  url: string;
  /** PEM of its CA (SIM_CA_FILE); undefined = Node's bundled roots. */
  caPem: string | undefined;
  /** SIM_ADMIN_TOKEN, shared with the simulator. */
  token: string;
  timeoutMs?: number;
}

export class SimulatorAdminError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** A simulator running in another process (`npm run authority-sim`), reached through its admin API. */
export function remoteSimulatorLink(o: RemoteSimulatorOptions): SimulatorLink {
  const base = o.url.replace(/\/+$/, '');
  const call = <T>(method: string, path: string, body?: unknown) => adminRequest<T>(o, base + ADMIN_PREFIX + path, method, body);
  // The simulator derives the same key from the admin token both sides know (tenant.ts).
  const tenantKey = tenantKeyFromAdminToken(o.token);
  return {
    url: base,
    caPem: o.caPem,
    kind: 'remote',
    async registerClientCertificate(pem) {
      await call('POST', 'client-certificates', { certificate_pem: pem });
    },
    async registerCsc(cnpj, tpAmb, idCsc, csc, opts) {
      await call('POST', 'csc', { cnpj, tp_amb: tpAmb, id_csc: Number(idCsc), csc, revoked: opts?.revoked ?? false, ...(opts?.tenant ? { tenant: opts.tenant } : {}) });
    },
    async registerTaxpayer(taxId, record, opts) {
      await call('POST', 'taxpayers', { tax_id: taxId, ...taxpayerJson(record), ...(opts?.tenant ? { tenant: opts.tenant } : {}) });
    },
    tenantCredential: (tenant) => tenantCredential(tenantKey, tenant),
    async authorizationsFor(key) {
      return (await call<{ authorizations: number }>('GET', `authorizations?key=${encodeURIComponent(key)}`)).authorizations;
    },
    async nfseIssuedFor(dpsId) {
      return (await call<{ nfse_issued: number }>('GET', `nfse-issued?dps_id=${encodeURIComponent(dpsId)}`)).nfse_issued;
    },
    stats: () => call<SimCounters>('GET', 'stats'),
    async setScenario(scenario, opts) {
      if (scenario === null) await call('DELETE', 'scenarios');
      else await call('POST', 'scenarios', { scenario, ...opts });
    },
    async holdReceivedNote(input) {
      const who = 'CNPJ' in input.recipient ? { recipient_cnpj: input.recipient.CNPJ } : { recipient_cpf: input.recipient.CPF };
      const held = await call<{ access_key: string; n_prot: string }>('POST', 'received-notes', {
        ...who, ...(input.nfeProcXml ? { nfe_proc_xml: input.nfeProcXml } : {}), ...(input.tenant ? { tenant: input.tenant } : {}),
      });
      return { accessKey: held.access_key, nProt: held.n_prot };
    },
    async startOutage(request) {
      return outageOf(await call<OutageJson>('POST', 'outage', {
        mode: request.mode, seconds: request.seconds, ...(request.cnpj ? { cnpj: request.cnpj } : {}), ...(request.tenant ? { tenant: request.tenant } : {}),
      }));
    },
    async endOutage(cnpj, tenant) {
      const query = new URLSearchParams({ ...(cnpj !== undefined ? { cnpj } : {}), ...(tenant !== undefined ? { tenant } : {}) }).toString();
      await call('DELETE', query ? `outage?${query}` : 'outage');
    },
    async outages() {
      return (await call<{ outages: OutageJson[] }>('GET', 'outage')).outages.map(outageOf);
    },
  };
}

/**
 * Waits until the simulator answers its admin API (it may still be starting beside the gateway).
 * A wrong token or CA fails at once: waiting would not mend it.
 */
export async function waitForSimulator(link: SimulatorLink, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await link.stats();
      return;
    } catch (err) {
      const status = err instanceof SimulatorAdminError ? err.status : null;
      if (status !== null || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function adminRequest<T>(o: RemoteSimulatorOptions, url: string, method: string, body: unknown): Promise<T> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  return new Promise<T>((resolve, reject) => {
    const req = https.request(
      url,
      {
        method,
        ...(o.caPem ? { ca: [o.caPem] } : {}),
        minVersion: 'TLSv1.2',
        timeout: o.timeoutMs ?? 10_000,
        headers: {
          authorization: `Bearer ${o.token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            // Parsed here, inside an event callback: a throw would escape the promise and end the
            // process, so an answer that is not JSON rejects the call instead.
            try {
              return resolve((text ? JSON.parse(text) : undefined) as T);
            } catch {
              return reject(new SimulatorAdminError(`simulator admin ${method} ${new URL(url).pathname}: HTTP ${status} answer is not JSON`, status));
            }
          }
          // The answer names the problem but never echoes the request (it may carry a CSC).
          const why = (() => {
            try {
              return String((JSON.parse(text) as { error?: unknown }).error ?? text);
            } catch {
              return text.slice(0, 200);
            }
          })();
          reject(new SimulatorAdminError(`simulator admin ${method} ${new URL(url).pathname}: HTTP ${status} ${why}`, status));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => reject(new SimulatorAdminError(`simulator admin ${method} ${new URL(url).pathname}: ${err.message}`, null)));
    req.end(payload);
  });
}
