import { DEFAULT_DPS_SIGNATURE_PROFILE } from '../../fiscal/xml/nfse/sign-dps.js';
import { toLayoutText } from '../../fiscal/layout/text.js';
import type { IssuerNfseSettings, RegimeTributario } from '../../kernel/issuer.js';
import { checkIssuerText, type FieldProblems } from './issuer-validation.js';
import type { NfseSettingsInput } from './issuer-nfse-input.js';

/** `nfse` of POST and PATCH /v1/issuers: the fields sent; null clears an optional one. */
/**
 * opSimpNac of the DPS from the issuer's regime (DPS XSD TCRegTrib: 1 Não Optante, 2 Optante MEI,
 * 3 Optante ME/EPP). `simples_excesso` (CRT 2, over the state sub-limit) is still an ME/EPP opting
 * for the Simples Nacional; what it pays outside the SN is what regApTribSN says.
 */
export const SIMPLES_NACIONAL_BY_REGIME: Record<RegimeTributario, 1 | 2 | 3> = { normal: 1, mei: 2, simples: 3, simples_excesso: 3 };

/** What an issuer that configures NFS-e with `nfse: {}` gets. */
export const NFSE_DEFAULTS: IssuerNfseSettings = {
  municipal_registration: null,
  simples_regime: null,
  special_regime: 0,
  // Anexo I E0010: 00001-49999 is the range of the taxpayer's own software.
  dps_series: 1,
  signature_profile: DEFAULT_DPS_SIGNATURE_PROFILE,
};

export const DPS_SERIES_MAX = 49_999;

/**
 * The stored settings after this request: the fields sent replace the stored ones, the others stay
 * (a new configuration starts from NFSE_DEFAULTS). Checks what the request can get wrong against the
 * issuer's regime after the same request, so a DPS is not refused later for settings accepted now.
 */
export function mergeNfseSettings(
  current: IssuerNfseSettings | null,
  input: NfseSettingsInput,
  regime: RegimeTributario,
  problems: FieldProblems,
): IssuerNfseSettings {
  const out: IssuerNfseSettings = { ...NFSE_DEFAULTS, ...current };
  if (input.municipal_registration !== undefined) out.municipal_registration = municipalRegistration(input.municipal_registration, problems);
  if (input.simples_regime !== undefined) out.simples_regime = input.simples_regime;
  if (input.special_regime !== undefined) out.special_regime = input.special_regime;
  if (input.dps_series !== undefined) {
    out.dps_series = input.dps_series;
    if (!Number.isInteger(input.dps_series) || input.dps_series < 1 || input.dps_series > DPS_SERIES_MAX) {
      problems.add('nfse.dps_series', `must be a whole number from 1 to ${DPS_SERIES_MAX}, the series of the taxpayer's own software (Anexo I E0010)`);
    }
  }
  if (input.signature_profile !== undefined) out.signature_profile = input.signature_profile;
  for (const p of nfseRegimeProblems(out, SIMPLES_NACIONAL_BY_REGIME[regime])) problems.add(p.field, p.message);
  return out;
}

function municipalRegistration(value: string | null, problems: FieldProblems): string | null {
  if (value === null) return null;
  // TSInscMun: 1-15 characters of text; stored as the layout will write it.
  checkIssuerText(problems, 'nfse.municipal_registration', value, 1, 15);
  return toLayoutText(value)?.trim() ?? value;
}

/**
 * The rules of the DPS's regTrib between opSimpNac (from `regime_tributario`) and the NFS-e settings,
 * on the `nfse.*` field to change. Also used when a DPS is about to be built (nfseIssuerOf).
 */
export function nfseRegimeProblems(s: IssuerNfseSettings, opSimpNac: 1 | 2 | 3): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  // Anexo I E0162: regApTribSN is only for an ME/EPP (opSimpNac 3); E0166: and an ME/EPP must send it.
  if (opSimpNac !== 3 && s.simples_regime !== null) {
    const who = opSimpNac === 2 ? 'a MEI' : 'an issuer not opting for the Simples Nacional';
    out.push({ field: 'nfse.simples_regime', message: `must be null for ${who}: only a Simples Nacional ME/EPP sends regApTribSN (Anexo I E0162)` });
  }
  if (opSimpNac === 3 && s.simples_regime === null) {
    out.push({
      field: 'nfse.simples_regime',
      message: 'is required for a Simples Nacional ME/EPP (regApTribSN, Anexo I E0166): 1 federal taxes and ISSQN through the SN, 2 ISSQN outside the SN, 3 both outside the SN',
    });
  }
  // Anexo I E0174: a MEI has no special regime; E0175: nor an ME/EPP paying everything through the SN.
  if (opSimpNac === 2 && s.special_regime !== 0) out.push({ field: 'nfse.special_regime', message: 'must be 0 for a MEI (Anexo I E0174)' });
  if (opSimpNac === 3 && s.simples_regime === 1 && s.special_regime !== 0) {
    out.push({ field: 'nfse.special_regime', message: 'must be 0 for a Simples Nacional ME/EPP with simples_regime 1 (Anexo I E0175)' });
  }
  return out;
}
