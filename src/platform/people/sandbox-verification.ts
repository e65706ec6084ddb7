import { newOpaqueToken } from '../../infra/identity/opaque-token.js';
import type { PeopleDeps } from './people-deps.js';

/**
 * The verification link shown on the sign-up answer. A sandbox without SMTP_URL
 * sends no e-mail: its new user would wait for a message that never leaves. There, and only there,
 * sign-up answers the link it just queued for the address typed in the form, so the dashboard can
 * show it at once. With SMTP configured, and in production whatever the mail settings, the link is
 * in the e-mail only: whoever types an address must prove they read its mail.
 */
export interface SandboxVerification {
  /** The dashboard page the e-mail links to (DASHBOARD_URL/verify-email?token=evf_...). */
  url: string;
  /** The token alone, for API clients (POST /v1/auth/verify-email). */
  token: string;
}

type Deps = Pick<PeopleDeps, 'config'>;

/** True in a sandbox without SMTP: the only place where sign-up shows its own link. */
export const showsVerificationLink = (deps: Deps): boolean => deps.config.env === 'sandbox' && !deps.config.smtpUrl;

/** The link sign-up queued, when this gateway may show it. */
export function shownVerification(deps: Deps, sent: { link: string; token: string }): { sandbox_verification?: SandboxVerification } {
  return showsVerificationLink(deps) ? { sandbox_verification: { url: sent.link, token: sent.token } } : {};
}

/**
 * The answer to a sign-up with an address that already has a user: a link of the same shape whose
 * token was never stored (it confirms nothing: 400 invalid_token, like the decoy session's 401).
 * Never the owner's link, and the answer's shape does not tell who has an account.
 */
export function decoyVerification(deps: Deps): { sandbox_verification?: SandboxVerification } {
  const token = newOpaqueToken('evf');
  return shownVerification(deps, { link: `${deps.config.people.dashboardUrl}/verify-email?token=${token}`, token });
}
