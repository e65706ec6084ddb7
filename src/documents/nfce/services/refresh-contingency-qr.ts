import type { Note, NoteContingency } from '../../notes/domain/note.js';
import { reissueOfflineQrV2 } from '../../../fiscal/qrcode/index.js';
import { loadIssuerSigningMaterial } from '../../../platform/issuers/issuer-signing-material.js';
import { addHistory, getNoteForWork, updateNoteIf } from '../../notes/storage/note-repository.js';
import type { AuthorityDeps } from '../../notes/services/note-family.js';

// docs/fiscal/nfce-rules.md (cStat table): 462 CSC id unknown, 463 CSC revoked, 464 QR hash differs.
const STALE_QR = new Set([462, 463, 464]);

/**
 * A contingency NFC-e the authority refused for its QR code because the CSC it was
 * signed with is no longer the issuer's (replaced or revoked while the note waited) is fixed and sent
 * again under the same number and key: the QR code is signed with the issuer's current CSC. The
 * infNFeSupl is outside the XML signature, so nothing else changes. Once per note; true when fixed.
 */
export async function refreshContingencyQr(deps: AuthorityDeps, note: Note, cStat: number | null): Promise<boolean> {
  if (note.status !== 'contingency' || !note.contingency || note.contingency.qr_refreshed_at || !STALE_QR.has(cStat ?? 0) || !note.qrcode_url) return false;
  const material = await loadIssuerSigningMaterial(deps.db, deps.secrets, note.account_id, note.issuer_id);
  if (!material?.csc) return false;
  const qr = reissueOfflineQrV2(note.qrcode_url, material.csc);
  if (!qr || qr === note.qrcode_url) return false;
  const old = `<qrCode>${note.qrcode_url}</qrCode>`;
  if (!note.signed_xml.includes(old)) return false;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const locked = await getNoteForWork(tx, note.id, true);
    if (!locked?.contingency || locked.status !== 'contingency' || locked.access_key !== note.access_key || locked.contingency.qr_refreshed_at) return false;
    const contingency: NoteContingency = { ...locked.contingency, qr_refreshed_at: now.toISOString() };
    const row = await updateNoteIf(tx, note.id, 'contingency', { signed_xml: locked.signed_xml.replace(old, `<qrCode>${qr}</qrCode>`), qrcode_url: qr, contingency }, now);
    if (!row) return false;
    await addHistory(tx, note.id, {
      type: 'contingency_qr_refreshed',
      at: now,
      code: String(cStat),
      message: `the QR code was signed with a CSC the authority no longer accepts; signed again with CSC ${material.csc!.id} and sent again under the same number`,
    });
    return true;
  });
}
