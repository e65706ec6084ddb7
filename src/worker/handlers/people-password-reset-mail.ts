import { sendPasswordResetLink } from '../../platform/people/password-reset.js';
import type { PeopleDeps } from '../../platform/people/people-deps.js';
import { typedHandler } from '../../infra/queue/job-payload.js';
import type { JobHandler } from '../../infra/queue/runner.js';

/** Job `people.password-reset-mail`: the reset link of POST /v1/auth/password/forgot, when the address has a user. */
export const peoplePasswordResetMail = (deps: PeopleDeps): JobHandler => typedHandler({ email: 'string' }, (job) => sendPasswordResetLink(deps, job));
