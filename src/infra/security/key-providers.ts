import type { Config } from '../../config.js';
import { AwsKmsKeyProvider } from './aws-kms-key-provider.js';
import { CachedKeyProvider } from './cached-key-provider.js';
import type { KeyProvider } from './key-provider.js';
import { Pkcs11KeyProvider } from './pkcs11-key-provider.js';

/**
 * The custody provider KEY_PROVIDER names: the local master key itself for `envelope`;
 * otherwise the HSM token or KMS key, behind a cache of opened data keys bounded by KEY_CACHE_SECONDS.
 * Fails fast at start-up (wrong PIN, no such token or key) with the setting to fix.
 */
export function custodyProviderFor(config: Pick<Config, 'keyStorage'>, local: KeyProvider): KeyProvider {
  const ks = config.keyStorage;
  if (ks.provider === 'envelope') return local;
  const inner =
    ks.provider === 'pkcs11'
      ? Pkcs11KeyProvider.open({ library: ks.pkcs11.library, tokenLabel: ks.pkcs11.tokenLabel, pin: ks.pkcs11.pin!, keyLabel: ks.pkcs11.keyLabel })
      : new AwsKmsKeyProvider({ keyId: ks.kms.keyId!, region: ks.kms.region!, endpoint: ks.kms.endpoint });
  return new CachedKeyProvider(inner, { ttlMs: ks.cacheSeconds * 1000 });
}
