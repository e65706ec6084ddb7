import { ApiError } from '../../kernel/errors.js';

/**
 * The step-up rule, in one place: a session acts on a sensitive action only with a
 * proof (password, TOTP or passkey) within the window. Routes that are sensitive whatever their body
 * ask it through the route config (`stepUp: true`, http/plugins/auth.ts); a use case whose
 * sensitivity depends on what it is asked (an invite as admin or owner) asks it
 * here. API keys are never asked: they cannot re-authenticate, their scopes bound them.
 */
export function requireRecentProof(authenticatedAt: Date | null, now: Date, windowSeconds: number): void {
  if (authenticatedAt === null) return;
  if (now.getTime() - authenticatedAt.getTime() <= windowSeconds * 1000) return;
  throw new ApiError('reauthentication_required', 'This action needs a recent sign-in: confirm your password or TOTP code at POST /v1/auth/reauthenticate (a passkey: POST /v1/auth/webauthn/reauthentication/options, then /verify), then retry');
}

/** The roles whose grant is a sensitive action: inviting or promoting someone to them needs a recent proof. */
export const STEP_UP_ROLES: ReadonlySet<string> = new Set(['owner', 'admin']);
