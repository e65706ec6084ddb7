import * as oidc from 'openid-client';
import type { SsoProviderName } from '../../config.js';
import { ApiError } from '../../kernel/errors.js';
import type { PeopleDeps } from './people-deps.js';
import { providerClient, providerSettings, redirectUri } from './sso-client.js';
import { flowKeys, newFlowId, sealFlow, signState, SSO_STATE_SECONDS, type StatePayload } from './sso-state.js';

export interface SsoStart {
  /** The provider's authorization URL: answer 302 there. */
  location: string;
  /** The `__Host-oauth` cookie's value (sealed PKCE verifier, nonce, flow id). */
  cookie: string;
  maxAgeSeconds: number;
}

/**
 * `return_to` must stay on the dashboard: a path, never another origin (`//evil.example`,
 * `/\evil.example` and the like are what browsers resolve to other hosts): no open redirect.
 */
export function checkReturnTo(dashboardUrl: string, returnTo: string | undefined): string | undefined {
  if (returnTo === undefined || returnTo === '') return undefined;
  const origin = new URL(dashboardUrl).origin;
  const bad = !returnTo.startsWith('/') || returnTo.startsWith('//') || /[\\\s\p{Cc}]/u.test(returnTo) || new URL(returnTo, origin).origin !== origin;
  if (bad) throw new ApiError('validation_error', 'return_to must be a path on the dashboard, like /issuers', [{ field: 'return_to', message: 'must be a path starting with a single /' }]);
  return returnTo;
}

/**
 * Starts an authorization code flow (OIDC Core 3.1.2) with PKCE S256 (RFC 7636 section 4.2: the
 * code is worth nothing without the verifier, which stays in this browser's sealed cookie), a
 * random nonce (the ID token must carry it back: OIDC Core 3.1.2.1) and a signed, expiring state
 * bound to the same cookie (RFC 9700 section 4.7.1: no login CSRF, no injected code).
 */
export async function startSso(
  deps: Pick<PeopleDeps, 'config' | 'clock' | 'secrets'>,
  provider: SsoProviderName,
  input: { account_id?: string | undefined; return_to?: string | undefined },
): Promise<SsoStart> {
  const settings = providerSettings(deps.config, provider);
  const returnTo = checkReturnTo(deps.config.people.dashboardUrl, input.return_to);
  const client = await providerClient(provider, settings);
  const keys = await flowKeys(deps);
  const verifier = oidc.randomPKCECodeVerifier();
  const nonce = oidc.randomNonce();
  const payload: StatePayload = { p: provider, i: newFlowId(), x: deps.clock.now().getTime() + SSO_STATE_SECONDS * 1000 };
  if (input.account_id) payload.a = input.account_id;
  if (returnTo) payload.r = returnTo;
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: redirectUri(deps.config, provider),
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state: signState(keys, payload),
  });
  return { location: url.href, cookie: sealFlow(keys, { p: provider, i: payload.i, v: verifier, n: nonce }), maxAgeSeconds: SSO_STATE_SECONDS };
}
