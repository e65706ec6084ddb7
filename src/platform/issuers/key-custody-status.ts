import type { Clock } from '../../kernel/clock.js';
import { keyStorageStatus, type KeyStorageStatus } from '../../infra/security/key-storage-status.js';
import type { SecretBox } from '../../infra/security/secret-box.js';
import type { Queryable } from '../../infra/storage/db.js';
import { countSecretsByMode } from '../../infra/storage/repositories/issuer-secret-repository.js';

/** GET /v1/hsm/status for one account: the custody provider, a live probe, and the account's secrets per mode. */
export async function keyCustodyStatus(deps: { db: Queryable; secrets: SecretBox; clock: Clock }, accountId: string): Promise<KeyStorageStatus> {
  const counts = await countSecretsByMode(deps.db, accountId);
  return keyStorageStatus(deps.secrets.custody, deps.secrets.provider, counts, () => deps.clock.now());
}
