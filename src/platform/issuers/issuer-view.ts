import type { ErrorDetail } from '../../kernel/errors.js';
import type { KeyStorageMode } from '../../infra/security/key-provider.js';
import { municipioByCode } from '../../fiscal/catalog/municipio-catalog.js';
import type { RegisteredIssuer } from '../../kernel/issuer.js';
import { repairDoubleUtf8 } from '../../fiscal/certificate/name-text.js';
import { CRT_BY_REGIME } from './issuer-validation.js';
import { NFSE_DEFAULTS } from './issuer-nfse-settings.js';

export interface CertificateStatusView {
  status: 'missing' | 'valid' | 'expired' | 'not_yet_valid';
  subject: string | null;
  cnpj: string | null;
  serial_number: string | null;
  not_before: string | null;
  not_after: string | null;
  storage_mode: KeyStorageMode | null;
}

/** What the API shows of a certificate: facts and status, never the key or the password. */
export function certificateStatus(row: RegisteredIssuer, now: Date): CertificateStatusView {
  const c = row.certificate;
  if (!c) {
    return { status: 'missing', subject: null, cnpj: null, serial_number: null, not_before: null, not_after: null, storage_mode: null };
  }
  const status = now.getTime() > c.not_after.getTime() ? 'expired' : now.getTime() < c.not_before.getTime() ? 'not_yet_valid' : 'valid';
  return {
    status,
    // Subjects stored before names encoded twice were read as text are answered as text too.
    subject: repairDoubleUtf8(c.subject),
    cnpj: c.cnpj,
    serial_number: c.serial_number,
    not_before: c.not_before.toISOString(),
    not_after: c.not_after.toISOString(),
    storage_mode: c.storage_mode,
  };
}

/** docs/decisions.md#api-conventions issuer_not_ready: what is still missing before this issuer can emit, one detail each. */
/** What keeps the issuer from emitting; `csc: false` for documents without a QR code (NF-e). */
export function issuerReadinessProblems(row: RegisteredIssuer, now: Date, needs: { csc: boolean } = { csc: true }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!row.endereco) problems.push({ field: 'endereco', message: 'the issuer has no address (PATCH /v1/issuers/:id with endereco)' });
  const cert = certificateStatus(row, now);
  if (cert.status === 'missing') problems.push({ field: 'certificate', message: 'no A1 certificate uploaded (POST /v1/issuers/:id/certificate)' });
  else if (cert.status !== 'valid') problems.push({ field: 'certificate', message: `the certificate is ${cert.status.replace(/_/g, ' ')} (valid ${cert.not_before} to ${cert.not_after}); upload a current one`, rule: 'E02' });
  if (needs.csc && row.csc === null) problems.push({ field: 'csc', message: 'no CSC registered (POST /v1/issuers/:id/csc)' });
  return problems;
}

function dataUrl(type: string | null, bytes: Buffer | null): string | null {
  return type && bytes ? `data:${type};base64,${bytes.toString('base64')}` : null;
}

export function presentIssuer(row: RegisteredIssuer, now: Date) {
  const problems = issuerReadinessProblems(row, now);
  return {
    id: row.id,
    object: 'issuer' as const,
    cnpj: row.cnpj,
    razao_social: row.razao_social,
    nome_fantasia: row.nome_fantasia,
    ie: row.ie,
    uf: row.uf,
    ambiente: row.ambiente,
    regime_tributario: row.regime_tributario,
    crt: CRT_BY_REGIME[row.regime_tributario],
    endereco: row.endereco
      ? {
          logradouro: row.endereco.logradouro,
          numero: row.endereco.numero,
          complemento: row.endereco.complemento ?? null,
          bairro: row.endereco.bairro,
          codigo_municipio: row.endereco.codigo_municipio,
          municipio: municipioByCode(row.endereco.codigo_municipio)?.name ?? null,
          cep: row.endereco.cep,
          telefone: row.endereco.telefone ?? null,
        }
      : null,
    // Settings stored before a field existed show its default.
    nfse: row.nfse && { ...NFSE_DEFAULTS, ...row.nfse },
    contingency: row.contingency,
    nfe_contingency: row.nfe_contingency ?? 'svc',
    danfe_settings: {
      danfeLogo: dataUrl(row.danfe.logo_type, row.danfe.logo),
      danfePrimaryColor: row.danfe.primary_color,
      danfeFooterText: row.danfe.footer_text,
    },
    certificate: certificateStatus(row, now),
    csc: row.csc ? { id_csc: row.csc.id_csc, registered_at: row.csc.registered_at.toISOString() } : null,
    ready: problems.length === 0,
    missing: problems.map((p) => p.field),
    archived_at: row.archived_at ? row.archived_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type IssuerView = ReturnType<typeof presentIssuer>;
