import type { DpsSignatureProfileName } from '../../fiscal/xml/nfse/sign-dps.js';
import type { IssuerNfseSettings } from '../../kernel/issuer.js';

/** The NFS-e settings a create or update request may send (merged by issuer-nfse-settings.ts, checked by issuer-validation.ts). */
export interface NfseSettingsInput {
  municipal_registration?: string | null | undefined;
  simples_regime?: 1 | 2 | 3 | null | undefined;
  special_regime?: IssuerNfseSettings['special_regime'] | undefined;
  dps_series?: number | undefined;
  signature_profile?: DpsSignatureProfileName | undefined;
}
