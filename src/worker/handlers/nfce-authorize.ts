import { authorizeNoteJob } from '../../documents/notes/services/authorize-note.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { NFCE_FAMILY } from '../../documents/nfce/services/nfce-family.js';
import { registerNfceEpecFirst } from '../../documents/nfce/services/register-nfce-epec.js';
import { refreshContingencyQr } from '../../documents/nfce/services/refresh-contingency-qr.js';
import { warnNearDeadline } from '../../documents/nfce/services/contingency-deadline.js';
import { contingencyReason, switchToContingency } from '../../documents/nfce/services/switch-to-contingency.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/**
 * Job `nfce.authorize`: send a stored NFC-e to the authority, consulting before any resend. When the
 * authority does not answer a sale past the issuer's bound, the sale is issued in offline contingency
 * and a job of the same kind transmits that document. An SP note issued in EPEC (tpEmis 4) has its EPEC
 * registered with SP's EPEC service first (register-nfce-epec.ts), then goes to SP, retried until SP answers.
 */
export const nfceAuthorize = (deps: AuthorityDeps): JobHandler =>
  typedHandler({ noteId: 'string', contingency: 'boolean?' }, (job, { workerId }) =>
    authorizeNoteJob(deps, NFCE_FAMILY, job, workerId, {
      authorityDown: async (note, why) => (await switchToContingency(deps, note.id, contingencyReason(why), { afterBound: true })) !== null,
      contingencyWaiting: (note) => warnNearDeadline(deps, note),
      fixRefused: (note, cStat) => refreshContingencyQr(deps, note, cStat),
      beforeSend: async (note) => {
        const step = await registerNfceEpecFirst(deps, note, job);
        if (step.kind === 'registered') return { note: step.note };
        if (step.kind === 'rejected') return { rejected: { cStat: step.cStat, xMotivo: step.xMotivo } };
        return undefined;
      },
    }));
