import type { Config } from '../../config.js';
import { EnvelopeKeyProvider } from './envelope-key-provider.js';
import type { KeyProvider } from './key-provider.js';
import { custodyProviderFor } from './key-providers.js';
import { loadMasterKey } from './master-key.js';
import { SecretBox } from './secret-box.js';

type BoxConfig = Pick<Config, 'env' | 'masterKey' | 'masterKeyFile' | 'dataDir' | 'keyStorage'>;

const boxes = new WeakMap<BoxConfig, SecretBox>();
// Every provider a box of this process has loaded, by key id: a blob names its master key, and any
// box of the process opens it (one process has one configuration; tests run several side by side).
const loaded = new Map<string, Set<KeyProvider>>();
const lookup = (kid: string): KeyProvider | undefined => loaded.get(kid)?.values().next().value;

/**
 * The process's SecretBox for a configuration, built on first use: the local master key (read or
 * generated once) for the gateway's own secrets, and the custody provider KEY_PROVIDER names
 * (envelope, pkcs11 or aws-kms) for certificate keys, certificates and CSCs.
 */
export function secretBoxFor(config: BoxConfig): SecretBox {
  let box = boxes.get(config);
  if (!box) {
    const masterKey = loadMasterKey({
      masterKey: config.masterKey,
      masterKeyFile: config.masterKeyFile,
      dataDir: config.dataDir,
      allowGenerate: config.env === 'sandbox',
    });
    const local = new EnvelopeKeyProvider(masterKey);
    const custody = custodyProviderFor(config, local);
    for (const p of [local, custody]) loaded.set(p.keyId, (loaded.get(p.keyId) ?? new Set()).add(p));
    box = new SecretBox(local, [], custody, lookup);
    boxes.set(config, box);
  }
  return box;
}

/** Closes the box's HSM session or KMS client (process shutdown); the box is built again if asked. */
export async function releaseSecretBox(config: BoxConfig): Promise<void> {
  const box = boxes.get(config);
  if (!box) return;
  boxes.delete(config);
  for (const p of [box.provider, box.custody]) {
    const set = loaded.get(p.keyId);
    set?.delete(p);
    if (set?.size === 0) loaded.delete(p.keyId);
  }
  await box.close();
}
