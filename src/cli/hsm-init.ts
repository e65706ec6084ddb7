// `node dist/main.js hsm-init` (`npm run hsm:init`): creates the pkcs11 master key in the token named
// by PKCS11_TOKEN_LABEL (README, "Key providers (HSM and KMS)"). The token itself is created with
// the HSM's own tool (softhsm2-util --init-token for SoftHSM2).
import type { KeyStorageConfig } from '../config.js';
import { initPkcs11MasterKey } from '../infra/security/pkcs11-key-provider.js';

export function hsmInit(keyStorage: KeyStorageConfig, print: (line: string) => void): void {
  const { library, tokenLabel, pin, keyLabel } = keyStorage.pkcs11;
  if (!pin) throw new Error('hsm-init needs PKCS11_PIN (the user PIN of the token)');
  const out = initPkcs11MasterKey({ library, tokenLabel, pin, keyLabel });
  print(out.created ? `created master key ${out.label}` : `master key ${out.label} already exists (nothing changed)`);
  print(`key id: ${out.keyId}`);
}
