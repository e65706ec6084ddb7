import type { ErrorDetail } from '../../../kernel/errors.js';
import type { DpsSignatureProfileName } from '../../../fiscal/xml/nfse/sign-dps.js';
import { DPS_SERIES_MAX, NFSE_DEFAULTS, nfseRegimeProblems, SIMPLES_NACIONAL_BY_REGIME } from '../../../platform/issuers/issuer-nfse-settings.js';
import type { IssuerForEmission } from '../../../kernel/issuer.js';
import type { NfseIssuer } from '../domain/nfse-context.js';

export type NfseIssuerResult =
  | { ok: true; issuer: NfseIssuer; series: number; profile: DpsSignatureProfileName }
  | { ok: false; problems: ErrorDetail[] };

/**
 * The stored issuer as the NFS-e domain wants it (prest of the DPS), with the DPS series and the
 * signature profile; or what keeps it from issuing an NFS-e, each problem on the issuer field to
 * PATCH. The certificate is not looked at here: issuer readiness (issuerReadinessProblems) says that.
 */
export function nfseIssuerOf(row: IssuerForEmission): NfseIssuerResult {
  const fix = `PATCH /v1/issuers/${row.id}`;
  const problems: ErrorDetail[] = [];
  // cLocEmi: IBGE code of the municipality of emission (DPS XSD TCInfDPS; part of the DPS Id, docs/fiscal/nfse-national.md#dps).
  const cityCode = row.endereco?.codigo_municipio;
  if (!cityCode || !/^[0-9]{7}$/.test(cityCode)) {
    problems.push({ field: 'endereco.codigo_municipio', message: `the issuer needs an address with the 7-digit IBGE code of its municipality (cLocEmi): ${fix} with endereco` });
  }
  // docs/fiscal/nfse-national.md#alphanumeric-cnpj: the DPS 1.01 package shipped (assets/fiscal/schemas/NFSe_v1.01) has TSCNPJ [0-9]{14}; the
  // alphanumeric CNPJ needs the package of 27/07/2026, not shipped yet. Said here, not as a schema error later.
  if (!/^[0-9]{14}$/.test(row.cnpj)) {
    problems.push({ field: 'cnpj', message: 'an alphanumeric CNPJ cannot issue an NFS-e yet: the DPS 1.01 schema accepts only 14 digits (TSCNPJ)' });
  }
  if (!row.nfse) {
    problems.push({
      field: 'nfse',
      message: `NFS-e is not configured for this issuer: ${fix} with nfse: {...} (municipal_registration, simples_regime for a Simples Nacional ME/EPP; {} takes the defaults)`,
    });
    return { ok: false, problems };
  }
  const settings = { ...NFSE_DEFAULTS, ...row.nfse };
  // DPS XSD TCRegTrib opSimpNac: 1 not opting, 2 MEI, 3 ME/EPP (mapping and its reasons: SIMPLES_NACIONAL_BY_REGIME).
  const simplesNacional = SIMPLES_NACIONAL_BY_REGIME[row.regime_tributario];
  // Anexo I E0162: regApTribSN is never written for opSimpNac 1 or 2, so a value left from an earlier
  // Simples Nacional regime is dropped rather than blocking the issuer.
  if (simplesNacional !== 3) settings.simples_regime = null;
  for (const p of nfseRegimeProblems(settings, simplesNacional)) problems.push({ field: p.field, message: `${p.message}; ${fix} with nfse: {...}` });
  if (!Number.isInteger(settings.dps_series) || settings.dps_series < 1 || settings.dps_series > DPS_SERIES_MAX) {
    problems.push({ field: 'nfse.dps_series', message: `${settings.dps_series} is outside 1-${DPS_SERIES_MAX} (Anexo I E0010); ${fix} with nfse: {"dps_series": ...}` });
  }
  if (problems.length > 0) return { ok: false, problems };

  const issuer: NfseIssuer = { taxId: row.cnpj, simplesNacional, specialRegime: settings.special_regime, cityCode: cityCode! };
  if (settings.simples_regime !== null) issuer.simplesRegime = settings.simples_regime;
  if (settings.municipal_registration !== null) issuer.municipalRegistration = settings.municipal_registration;
  if (row.endereco?.telefone) issuer.phone = row.endereco.telefone;
  return { ok: true, issuer, series: settings.dps_series, profile: settings.signature_profile };
}
