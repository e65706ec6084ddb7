import { generateApiKey, hashApiKey, keyPrefix } from '../infra/identity/api-key.js';
import type { Config } from '../config.js';
import { newId } from '../kernel/ids.js';
import type { Db } from '../infra/storage/db.js';
import { insertApplication } from '../infra/storage/repositories/application-repository.js';

/** Creates an account and its first all-scopes key: how a production install gets its first key. */
export async function createAccount(
  db: Db,
  config: Config,
  name: string,
): Promise<{ accountId: string; applicationId: string; key: string }> {
  const key = generateApiKey(config.env);
  const accountId = newId('acc');
  const applicationId = newId('app');
  await db.transaction(async (tx) => {
    await tx.query('INSERT INTO accounts (id, name, environment) VALUES ($1, $2, $3)', [accountId, name, config.env]);
    await insertApplication(tx, {
      id: applicationId,
      accountId,
      name: 'Owner key',
      scopes: ['*'],
      keyHash: hashApiKey(key),
      keyPrefix: keyPrefix(key),
    });
  });
  return { accountId, applicationId, key };
}
