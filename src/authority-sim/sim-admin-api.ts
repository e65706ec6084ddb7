// The simulator's "taxpayer portal": where a state learns an issuer's certificate and CSC. A real
// SEFAZ has one (the CSC is generated there; the e-CNPJ is known from ICP-Brasil); gateways in
// other processes register through it (SIM_URL), so it shares the SOAP server's HTTPS port.
// Every route needs `Authorization: Bearer <SIM_ADMIN_TOKEN>`; bodies are JSON.
//   POST   /sim/admin/client-certificates  {certificate_pem}                      -> 204 (trusted from the next handshake)
//   POST   /sim/admin/csc                  {cnpj, tp_amb, id_csc, csc, revoked?, tenant?} -> 204
//   POST   /sim/admin/taxpayers            {tax_id, name, trade_name?, address?, tenant?} -> 204 (the NFS-e emit's register)
//   GET    /sim/admin/authorizations?key=<44-character access key>               -> {access_key, authorizations}
//   GET    /sim/admin/nfse-issued?dps_id=<45-character DPS Id>                   -> {dps_id, nfse_issued}
//   GET    /sim/admin/stats                                                       -> counters (requests, authorizations, ...)
//   POST   /sim/admin/scenarios            {scenario, times?, service?}           -> 204 (queued faults, docs/decisions.md#the-authority-simulator)
//   DELETE /sim/admin/scenarios                                                   -> 204
//   POST   /sim/admin/received-notes       {recipient_cnpj | recipient_cpf, nfe_proc_xml?, tenant?} -> 201 {access_key, n_prot}
//          (a third party's NF-e to that recipient: issued by the simulator, or the signed nfeProc given)
//   POST   /sim/admin/outage               {mode, seconds, cnpj?, tenant?, authorizer?} -> 201 {mode, cnpj, tenant, authorizer, started_at, ends_at}
//          (mode unavailable (108) | unavailable:109 | no-answer; seconds 1-86400; cnpj: that issuer only)
//   GET    /sim/admin/outage                                                      -> {outages: [{mode, cnpj, tenant, authorizer, started_at, ends_at}]}
//   POST   /sim/admin/svc-activation       {uf, active, tenant?, at?}             -> 200 {uf, tenant, active, at?}
//   GET    /sim/admin/svc-activation                                              -> {deactivated: [{uf, tenant, active}]}
//   DELETE /sim/admin/outage[?cnpj=<CNPJ>][&tenant=<tenant>]                       -> 204 (ends them, or that issuer's / tenant's)
// `tenant` (tenant.ts) is the gateway's account id: the records of that account only. Without it, a
// CSC is the fallback of every tenant, a received note goes to direct clients ('') and an outage
// stops every tenant.
import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimCounters } from './sim-context.js';
import { SEFAZ_SERVICES } from '../fiscal/sefaz/endpoints.js';
import { parseScenario } from './scenario.js';
import { serviceOf, type SimService } from './sim-router.js';
import { HoldNoteError, type HeldNote, type HoldNoteInput } from './third-party-note.js';
import { tenantField } from './tenant.js';
import { taxpayerRecordOf, type TaxpayerRecord } from './nfse/taxpayer-register.js';
import { ISSUER_ID, outageJson, outageRequestProblem, type Outage, type OutageAuthorizer, type OutageRequest } from './outage.js';
import { svcActivationProblem, type SvcActivationRequest } from './svc-activation.js';

export const ADMIN_PREFIX = '/sim/admin/';
const MAX_BODY = 64 * 1024;
/** A whole nfeProc may ride in the body of received-notes. */
const MAX_NOTE_BODY = 4 * 1024 * 1024;
const SERVICE_NAMES: ReadonlySet<string> = new Set([...SEFAZ_SERVICES, 'distribuicaoDFe', 'nfse']);

/** What the portal may touch (the in-process simulator's own methods). */
export interface AdminTarget {
  registerClientCertificate(pem: string): Promise<void> | void;
  registerCsc(cnpj: string, tpAmb: 1 | 2, idCsc: number, csc: string, opts: { revoked: boolean; tenant?: string }): Promise<void>;
  registerTaxpayer(taxId: string, record: TaxpayerRecord, opts: { tenant?: string }): void;
  authorizationsFor(accessKey: string): Promise<number>;
  nfseIssuedFor(dpsId: string): Promise<number>;
  stats(): SimCounters;
  setScenario(scenario: string | null, opts?: { times?: number; service?: SimService | 'nfse' }): void;
  holdReceivedNote(input: HoldNoteInput): Promise<HeldNote>;
  startOutage(request: OutageRequest): Outage;
  endOutage(cnpj?: string, tenant?: string): number;
  outages(): Outage[];
  setSvcActivation(request: SvcActivationRequest): void;
  svcActivations(): Array<{ uf: string; tenant: string | null; active: false; at?: string }>;
}

class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Bearer token check in constant time (hashing first makes the lengths equal). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

export async function serveAdmin(req: IncomingMessage, res: ServerResponse, token: string | undefined, sim: AdminTarget): Promise<void> {
  try {
    // No token configured: the portal does not exist (in-process sandbox, tests).
    if (!token) throw new AdminError(404, 'admin API disabled (no SIM_ADMIN_TOKEN)');
    if (!tokenMatches(req.headers.authorization, token)) throw new AdminError(401, 'missing or wrong bearer token');
    const url = new URL(req.url ?? '/', 'https://sim.invalid');
    const route = `${req.method} ${url.pathname.slice(ADMIN_PREFIX.length)}`;
    switch (route) {
      case 'POST client-certificates': {
        const { certificate_pem: pem } = await jsonBody(req);
        if (typeof pem !== 'string') throw new AdminError(400, 'certificate_pem (PEM text) is required');
        try {
          new X509Certificate(pem);
        } catch {
          throw new AdminError(400, 'certificate_pem is not a readable X.509 certificate');
        }
        await sim.registerClientCertificate(pem);
        return reply(res, 204);
      }
      case 'POST csc': {
        const b = await jsonBody(req);
        const cnpj = typeof b.cnpj === 'string' && /^[0-9A-Z]{11,14}$/.test(b.cnpj) ? b.cnpj : null;
        const tpAmb = b.tp_amb === 1 || b.tp_amb === 2 ? b.tp_amb : null;
        const idCsc = Number(b.id_csc);
        // Manual de Especificações Técnicas do QR Code: CSC of 16 to 36 alphanumeric characters, id up to 6 digits.
        const csc = typeof b.csc === 'string' && /^[0-9A-Za-z]{16,36}$/.test(b.csc) ? b.csc : null;
        if (!cnpj || !tpAmb || !Number.isInteger(idCsc) || idCsc < 1 || idCsc > 999_999 || !csc) {
          throw new AdminError(400, 'cnpj (11/14 characters), tp_amb (1|2), id_csc (1-999999) and csc (16-36 alphanumerics) are required');
        }
        const tenant = tenantField(b.tenant);
        if (tenant === null) throw new AdminError(400, 'tenant must be 1-64 letters, digits, _ or -');
        await sim.registerCsc(cnpj, tpAmb, idCsc, csc, { revoked: b.revoked === true, ...(tenant ? { tenant } : {}) });
        return reply(res, 204);
      }
      case 'POST taxpayers': {
        const b = await jsonBody(req);
        const taxId = typeof b.tax_id === 'string' && /^([0-9A-Z]{12}[0-9]{2}|[0-9]{11})$/.test(b.tax_id) ? b.tax_id : null;
        if (!taxId) throw new AdminError(400, 'tax_id (a CNPJ of 14 or a CPF of 11 characters) is required');
        const record = taxpayerRecordOf(b);
        if (typeof record === 'string') throw new AdminError(400, record);
        const tenant = tenantField(b.tenant);
        if (tenant === null) throw new AdminError(400, 'tenant must be 1-64 letters, digits, _ or -');
        sim.registerTaxpayer(taxId, record, tenant ? { tenant } : {});
        return reply(res, 204);
      }
      case 'GET authorizations': {
        const key = url.searchParams.get('key') ?? '';
        if (!/^[0-9A-Z]{44}$/.test(key)) throw new AdminError(400, 'key must be a 44-character access key');
        return reply(res, 200, { access_key: key, authorizations: await sim.authorizationsFor(key) });
      }
      case 'GET nfse-issued': {
        const dpsId = url.searchParams.get('dps_id') ?? '';
        // XSD TSIdDPS: "DPS" + 42 (docs/fiscal/nfse-national.md#dps; letters after inscription type 2, docs/fiscal/nfse-national.md#alphanumeric-cnpj).
        if (!/^DPS[0-9A-Z]{42}$/.test(dpsId)) throw new AdminError(400, 'dps_id must be a 45-character DPS Id');
        return reply(res, 200, { dps_id: dpsId, nfse_issued: await sim.nfseIssuedFor(dpsId) });
      }
      case 'GET stats':
        return reply(res, 200, sim.stats());
      case 'POST scenarios': {
        const b = await jsonBody(req);
        const times = b.times === undefined ? 1 : Number(b.times);
        // The simulator's own service names (SimulatorLink) or a WSDL name (NFeAutorizacao4).
        const named = String(b.service);
        const service = b.service === undefined ? undefined : SERVICE_NAMES.has(named) ? (named as SimService | 'nfse') : serviceOf(`/wsdl/${named}`);
        if (typeof b.scenario !== 'string' || !parseScenario(b.scenario)) throw new AdminError(400, 'scenario is unknown');
        if (!Number.isInteger(times) || times < 1) throw new AdminError(400, 'times must be a positive integer');
        if (b.service !== undefined && !service) throw new AdminError(400, 'service must name a service, e.g. autorizacao or NFeAutorizacao4');
        sim.setScenario(b.scenario, { times, ...(service ? { service } : {}) });
        return reply(res, 204);
      }
      case 'POST received-notes': {
        const b = await jsonBody(req, MAX_NOTE_BODY);
        const cnpj = typeof b.recipient_cnpj === 'string' ? b.recipient_cnpj : null;
        const cpf = typeof b.recipient_cpf === 'string' ? b.recipient_cpf : null;
        if (!cnpj === !cpf) throw new AdminError(400, 'exactly one of recipient_cnpj and recipient_cpf is required');
        if (b.nfe_proc_xml !== undefined && typeof b.nfe_proc_xml !== 'string') throw new AdminError(400, 'nfe_proc_xml must be the nfeProc text');
        const tenant = tenantField(b.tenant);
        if (tenant === null) throw new AdminError(400, 'tenant must be 1-64 letters, digits, _ or -');
        try {
          const held = await sim.holdReceivedNote({
            recipient: cnpj ? { CNPJ: cnpj } : { CPF: cpf! },
            ...(tenant ? { tenant } : {}),
            ...(typeof b.nfe_proc_xml === 'string' ? { nfeProcXml: b.nfe_proc_xml } : {}),
          });
          return reply(res, 201, { access_key: held.accessKey, n_prot: held.nProt });
        } catch (err) {
          if (err instanceof HoldNoteError) throw new AdminError(422, err.message);
          throw err;
        }
      }
      case 'POST outage': {
        const b = await jsonBody(req);
        const problem = outageRequestProblem(b);
        if (problem) throw new AdminError(400, problem);
        const outage = sim.startOutage({
          mode: b.mode as OutageRequest['mode'], seconds: b.seconds as number,
          cnpj: (b.cnpj as string | null | undefined) ?? null, tenant: (b.tenant as string | null | undefined) ?? null,
          ...(b.authorizer ? { authorizer: b.authorizer as OutageAuthorizer } : {}),
        });
        return reply(res, 201, outageJson(outage));
      }
      case 'POST svc-activation': {
        const b = await jsonBody(req);
        const at = typeof b.at === 'string' ? new Date(b.at) : b.at;
        const problem = typeof b.at === 'string' && !/^\d{4}-\d{2}-\d{2}T/.test(b.at) ? 'at must be a date-time' : svcActivationProblem({ ...b, at });
        if (problem) throw new AdminError(400, problem);
        const tenant = (b.tenant as string | null | undefined) ?? null;
        sim.setSvcActivation({ uf: b.uf as string, active: b.active as boolean, tenant, at: (at as Date | null | undefined) ?? null });
        return reply(res, 200, { uf: b.uf, tenant, active: b.active, ...(at ? { at: (at as Date).toISOString() } : {}) });
      }
      case 'GET svc-activation':
        return reply(res, 200, { deactivated: sim.svcActivations() });
      case 'GET outage':
        return reply(res, 200, { outages: sim.outages().map(outageJson) });
      case 'DELETE outage': {
        const cnpj = url.searchParams.get('cnpj');
        if (cnpj !== null && !ISSUER_ID.test(cnpj)) throw new AdminError(400, 'cnpj must be a 14-character CNPJ (or an 11-digit CPF)');
        const tenant = tenantField(url.searchParams.get('tenant'));
        if (tenant === null) throw new AdminError(400, 'tenant must be 1-64 letters, digits, _ or -');
        sim.endOutage(cnpj ?? undefined, tenant);
        return reply(res, 204);
      }
      case 'DELETE scenarios':
        sim.setScenario(null);
        return reply(res, 204);
      default:
        throw new AdminError(404, `no admin route ${route}`);
    }
  } catch (err) {
    if (err instanceof AdminError) return reply(res, err.status, { error: err.message });
    reply(res, 500, { error: 'simulator admin failure' });
  }
}

async function jsonBody(req: IncomingMessage, maxBody = MAX_BODY): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > maxBody) throw new AdminError(413, 'body too large');
    chunks.push(c as Buffer);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new AdminError(400, 'body must be a JSON object');
}

function reply(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}
