import { authorizeNoteJob } from '../../documents/notes/services/authorize-note.js';
import type { AuthorityDeps } from '../../documents/notes/services/note-family.js';
import { NFE_FAMILY } from '../../documents/nfe/services/nfe-family.js';
import { registerEpecFirst } from '../../documents/nfe/services/register-epec.js';
import { switchBackToState } from '../../documents/nfe/services/switch-back-to-state.js';
import { switchToSvc } from '../../documents/nfe/services/switch-to-svc.js';
import type { Ports } from '../../platform/ports/ports.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/**
 * Job `nfe.authorize`: send a stored NF-e (synchronous lot, or receipt polling), consulting before any resend.
 * A note the state's authorizer did not take while its breaker is open is issued again for the SVC
 * (switch-to-svc.ts), and a job of the same kind sends it there; one the SVC did not take either goes back to the
 * state once the state answers again (switch-back-to-state.ts). A note issued in EPEC (tpEmis 4) has its
 * EPEC registered at the Ambiente Nacional first (register-epec.ts), then goes to its state, retried until it answers.
 */
export const nfeAuthorize = (deps: AuthorityDeps & Partial<Pick<Ports, 'breaker'>>): JobHandler =>
  typedHandler({ noteId: 'string' }, (job, { workerId }) =>
    authorizeNoteJob(deps, NFE_FAMILY, job, workerId, {
      // The state did not take it: to the SVC. The SVC did not take it either: back to the state once it answers.
      authorityDown: async (note, _why, outcome, cStat) =>
        (await switchToSvc(deps, note, outcome, cStat)) || (outcome === 'not-sent' && (await switchBackToState(deps, note))),
      consultationDown: (note) => switchBackToState(deps, note),
      beforeSend: async (note) => {
        const step = await registerEpecFirst(deps, note, job);
        if (step.kind === 'registered') return { note: step.note };
        if (step.kind === 'rejected') return { rejected: { cStat: step.cStat, xMotivo: step.xMotivo } };
        return undefined;
      },
    }));
