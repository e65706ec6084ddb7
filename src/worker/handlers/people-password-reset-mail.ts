import { sendPasswordResetLink } from '../../platform/people/password-reset.js';
import type { PeopleDeps } from '../../platform/people/people-deps.js';
import type { Job } from '../../infra/queue/queue.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `people.password-reset-mail`: the reset link of POST /v1/auth/password/forgot, when the address has a user. */
export const peoplePasswordResetMail = (deps: PeopleDeps): JobHandler => (job) => sendPasswordResetLink(deps, job as Job<{ email: string }>);
