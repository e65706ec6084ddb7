import type { Config } from '../../config.js';
import { EnvelopeKeyProvider } from './envelope-key-provider.js';
import { loadMasterKey } from './master-key.js';
import { SecretBox } from './secret-box.js';

const boxes = new WeakMap<Config, SecretBox>();

/**
 * The process's SecretBox for a configuration, built on first use (reading or generating the master
 * key once). Envelope mode today; aws-kms mode plugs in here as another KeyProvider.
 */
export function secretBoxFor(config: Pick<Config, 'env' | 'masterKey' | 'masterKeyFile' | 'dataDir'>): SecretBox {
  let box = boxes.get(config as Config);
  if (!box) {
    const masterKey = loadMasterKey({
      masterKey: config.masterKey,
      masterKeyFile: config.masterKeyFile,
      dataDir: config.dataDir,
      allowGenerate: config.env === 'sandbox',
    });
    box = new SecretBox(new EnvelopeKeyProvider(masterKey));
    boxes.set(config as Config, box);
  }
  return box;
}
