import { authorizeNoteJob } from '../../documents/notes/services/authorize-note.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { NFCE_FAMILY } from '../../documents/nfce/services/nfce-family.js';
import { refreshContingencyQr } from '../../documents/nfce/services/refresh-contingency-qr.js';
import { warnNearDeadline } from '../../documents/nfce/services/contingency-deadline.js';
import { contingencyReason, switchToContingency } from '../../documents/nfce/services/switch-to-contingency.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/**
 * Job `nfce.authorize`: send a stored NFC-e to the authority, consulting before any resend. When the
 * authority does not answer a sale past the issuer's bound, the sale is issued in offline contingency
 * and a job of the same kind transmits that document.
 */
export const nfceAuthorize = (deps: AuthorityDeps): JobHandler =>
  typedHandler({ noteId: 'string', contingency: 'boolean?' }, (job, { workerId }) =>
    authorizeNoteJob(deps, NFCE_FAMILY, job, workerId, {
      authorityDown: async (note, why) => (await switchToContingency(deps, note.id, contingencyReason(why), { afterBound: true })) !== null,
      contingencyWaiting: (note) => warnNearDeadline(deps, note),
      fixRefused: (note, cStat) => refreshContingencyQr(deps, note, cStat),
    }));
