import type { Note } from '../../notes/domain/note.js';
import type { NfseApiClient } from '../../../fiscal/nfse-api/nfse-api-types.js';
import { getNoteForWork } from '../../notes/storage/note-repository.js';
import { settleAndAnnounce } from '../../notes/services/settle-and-announce.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';
import { NFSE_FAMILY } from './nfse-family.js';

// docs/fiscal/nfse-national.md#events: substitution is not an event the taxpayer sends. Sefin validates the substitute DPS,
// registers "Cancelamento de NFS-e por Substituição" (105102) on the original itself, and answers the
// substitute NFS-e. The gateway then records the original as canceled, naming its substitute.
const SUBSTITUTION_EVENT = '105102';

/**
 * Marks `substitutes.nfse_id` canceled by `substitute` (its NFS-e key `substituteKey`). Idempotent: only an
 * original still `authorized` changes, so the authorization job may run it again after a crash. The
 * 105102 event document is fetched when Sefin has it ready; the state does not wait for it.
 */
export async function settleSubstitutedOriginal(
  deps: AuthorityDeps,
  substitute: Note,
  substitutes: { nfse_id: string; reason_code: string; reason?: string },
  substituteKey: string,
  client?: NfseApiClient,
): Promise<void> {
  const original = await getNoteForWork(deps.db, substitutes.nfse_id);
  if (!original || original.status !== 'authorized' || !original.nfse_key) return;
  const event = client ? await client.fetchEvent(original.nfse_key, SUBSTITUTION_EVENT, 1) : undefined;
  const now = deps.clock.now();
  const cancellation = {
    protocolo: '',
    reason: substitutes.reason ?? `Substituída pela NFS-e ${substituteKey}`,
    reason_code: substitutes.reason_code,
    canceled_at: now.toISOString(),
    substituted_by: substitute.id,
  };
  const fields = { status: 'canceled' as const, cancellation, cancel_proc_xml: event?.kind === 'found' ? event.eventXml : null };
  const after = { ...original, ...fields, updated_at: now };
  await settleAndAnnounce(deps, {
    noteId: original.id,
    from: 'authorized',
    fields,
    history: [{ type: 'canceled', at: now, code: SUBSTITUTION_EVENT, message: `Cancelada por substituição: NFS-e ${substituteKey} (${substitute.id})`, protocolo: substituteKey }],
    releaseNumber: false,
    event: { type: 'nfse.canceled', data: NFSE_FAMILY.present(after, deps.config.publicBaseUrl) },
    now,
  }, `cancel:${original.id}`);
}
