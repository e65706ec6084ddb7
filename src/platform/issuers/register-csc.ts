import { upsertCsc } from '../../infra/storage/repositories/issuer-secret-repository.js';
import { secretAad, type IssuerServiceDeps } from './issuer-deps.js';
import { assertIssuerActive } from './archive-issuer.js';
import { getIssuer } from './manage-issuers.js';

/** Stores the state-issued CSC encrypted; only its id and date are ever shown again. */
export async function registerCsc(
  deps: IssuerServiceDeps,
  accountId: string,
  issuerId: string,
  idCsc: string,
  csc: string,
): Promise<{ id_csc: string; registered_at: string }> {
  const issuer = await getIssuer(deps, accountId, issuerId);
  assertIssuerActive(issuer);
  const record = await upsertCsc(deps.db, {
    issuer_id: issuer.id,
    id_csc: idCsc,
    csc_blob: await deps.secrets.encrypt(Buffer.from(csc, 'utf8'), secretAad.csc(issuer.id), deps.secrets.custody),
    registered_at: deps.clock.now(),
  });
  await deps.hooks?.onCscStored?.(issuer, idCsc, csc);
  return { id_csc: record.id_csc, registered_at: record.registered_at.toISOString() };
}
