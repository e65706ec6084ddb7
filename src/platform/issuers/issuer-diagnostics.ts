import { lookup } from 'node:dns/promises';
import { X509Certificate } from 'node:crypto';
import { resolveEndpoint } from '../../fiscal/sefaz/endpoints.js';
import type { StatusOutcome } from '../../fiscal/sefaz/outcomes.js';
import { ApiError } from '../../kernel/errors.js';
import type { Ports } from '../ports/ports.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import { findIssuer } from '../../infra/storage/repositories/issuer-repository.js';
import {
  certificateHolder,
  certificateIcpBrasil,
  certificateKeyUsage,
  certificateValidity,
  clockCheck,
  cscCheck,
  dnsCheck,
  overall,
  statusCheck,
  type CertificateFacts,
  type DiagnosticCheck,
  type Lang,
  type Reach,
} from './diagnostic-checks.js';
import { loadIssuerSigningMaterial } from './issuer-signing-material.js';

// The doctor: GET /v1/issuers/:id/diagnostics, `npm run doctor`, the dashboard's
// panel. It asks the issuer's state authorities for their status with the issuer's own certificate
// (NfeStatusServico4, nothing is issued) and reads the answer's dhRecbto for the clock.

export interface IssuerDiagnostics {
  object: 'issuer_diagnostics';
  issuer_id: string;
  environment: 'producao' | 'homologacao';
  checked_at: string;
  verdict: 'ok' | 'warning' | 'failing';
  checks: DiagnosticCheck[];
}

export interface DiagnosticsDeps extends Pick<Ports, 'db' | 'clock' | 'authority'> {
  secrets: SecretBox;
  sandbox: boolean;
}

/** How long the doctor waits for each authority (status answers take milliseconds when all is well). */
const STATUS_TIMEOUT_MS = 10_000;
const DNS_TIMEOUT_MS = 5_000;

export async function diagnoseIssuer(deps: DiagnosticsDeps, accountId: string, issuerId: string, lang: Lang): Promise<IssuerDiagnostics> {
  const row = await findIssuer(deps.db, accountId, issuerId);
  if (!row) throw new ApiError('not_found', `issuer ${issuerId} not found`);
  const material = await loadIssuerSigningMaterial(deps.db, deps.secrets, accountId, issuerId, row);
  const parsed = material?.certificate ?? null;
  const cert: CertificateFacts | null = parsed ? { info: parsed, x509: new X509Certificate(parsed.certificateDer) } : null;
  const now = deps.clock.now();
  const tpAmb = row.ambiente === 'producao' ? 1 : 2;

  const models = [{ model: 55 as const, id: 'authority_nfe', label: 'NF-e' }, { model: 65 as const, id: 'authority_nfce', label: 'NFC-e' }];
  const override = deps.authority.options.endpointOverride;
  const hosts = models.map((m) => new URL(resolveEndpoint(row.uf, m.model, tpAmb, 'statusServico', override).url).hostname);
  const [reaches, statuses] = await Promise.all([
    Promise.all([...new Set(hosts)].map(resolveHost)),
    Promise.all(models.map((m) => (parsed ? askStatus(deps, parsed, accountId, row.uf, m.model, tpAmb) : Promise.resolve(null)))),
  ]);

  const checks: DiagnosticCheck[] = [
    certificateValidity(lang, cert, now),
    certificateHolder(lang, cert, row.cnpj),
    certificateKeyUsage(lang, cert, deps.sandbox),
    certificateIcpBrasil(lang, cert, deps.sandbox),
    cscCheck(lang, row.csc !== null),
    ...reaches.map((r, i) => dnsCheck(lang, reaches.length === 1 ? 'dns' : `dns_${i + 1}`, r)),
    ...models.map((m, i) => statusCheck(lang, m.id, `${m.label} ${row.uf}`, statuses[i]?.out ?? null)),
    clockCheck(lang, ...clockSkew(statuses)),
  ];
  return {
    object: 'issuer_diagnostics',
    issuer_id: row.id,
    environment: row.ambiente,
    checked_at: now.toISOString(),
    verdict: overall(checks),
    checks,
  };
}

interface Asked { out: StatusOutcome; sentAt: number; receivedAt: number }

async function askStatus(deps: DiagnosticsDeps, cert: Parameters<DiagnosticsDeps['authority']['rawClientFor']>[0], accountId: string, uf: string, model: 55 | 65, tpAmb: 1 | 2): Promise<Asked> {
  // The raw client: a doctor's question must not move the breaker that routes real sales.
  const client = deps.authority.rawClientFor(cert, accountId);
  // The gateway's clock, the one that dates every note (dhEmi), is what must agree with the authority's.
  const sentAt = deps.clock.now().getTime();
  const out = await client.status({ uf, model, tpAmb, responseTimeoutMs: STATUS_TIMEOUT_MS });
  return { out, sentAt, receivedAt: deps.clock.now().getTime() };
}

/**
 * The first answer carrying dhRecbto: skew = our clock at the middle of the exchange minus the
 * authority's, in ms; the uncertainty is half the round trip plus dhRecbto's one-second resolution.
 */
function clockSkew(statuses: readonly (Asked | null)[]): [number | null, number] {
  for (const s of statuses) {
    if (!s || (s.out.kind !== 'in-operation' && s.out.kind !== 'stopped') || !s.out.dhRecbto) continue;
    const theirs = Date.parse(s.out.dhRecbto);
    if (Number.isNaN(theirs)) continue;
    const ours = (s.sentAt + s.receivedAt) / 2;
    return [ours - theirs, (s.receivedAt - s.sentAt) / 2 + 1000];
  }
  return [null, 0];
}

async function resolveHost(host: string): Promise<Reach> {
  if (/^[0-9.]+$/.test(host) || host.includes(':')) return { ok: true, host, address: host };
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      lookup(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${DNS_TIMEOUT_MS / 1000} s`)), DNS_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, host, address: found.address };
  } catch (err) {
    return { ok: false, host, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
