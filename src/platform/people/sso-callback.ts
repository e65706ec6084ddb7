import * as oidc from 'openid-client';
import type { SsoProviderName } from '../../config.js';
import { ApiError } from '../../kernel/errors.js';
import { claimSsoState } from './storage/sso-repository.js';
import type { PeopleDeps, RequestMeta } from './people-deps.js';
import type { IssuedSession } from './session-lifecycle.js';
import { providerClient, providerFailure, providerLabel, providerSettings, redirectUri } from './sso-client.js';
import { signInWithIdentity } from './sso-sign-in.js';
import { flowKeys, openFlow, verifyState } from './sso-state.js';

export interface SsoFinished {
  issued: IssuedSession;
  /** The dashboard path the flow was started for (already checked at the start). */
  returnTo: string | undefined;
}

const required = (field: string) => new ApiError('validation_error', `The provider's answer lacks ${field}: start the sign-in again`, [{ field, message: 'is required' }]);

/**
 * The provider sent the browser back. In order, each refusal before any work that could leak:
 * the state is ours, unexpired and for this slot; the browser holds the cookie of that same flow;
 * the state is spent (a replay is refused: RFC 9700 section 4.7.1); then the code is exchanged with
 * the PKCE verifier (RFC 7636 section 4.5) and the ID token checked (OIDC Core 3.1.3.7, nonce
 * included); finally the identity signs in (sso-sign-in.ts).
 */
export async function finishSso(
  deps: PeopleDeps,
  provider: SsoProviderName,
  query: URLSearchParams,
  cookie: string | undefined,
  meta: RequestMeta,
): Promise<SsoFinished> {
  const settings = providerSettings(deps.config, provider);
  const error = query.get('error');
  if (error) {
    // The person cancelled or the provider refused (RFC 6749 section 4.1.2.1); only a plain code is echoed.
    const code = /^[a-z_]{1,64}$/.test(error) ? error : 'error';
    throw new ApiError('unauthorized', `${providerLabel(provider)} did not sign you in (${code})`, [{ field: 'error', message: code }]);
  }
  const state = query.get('state');
  if (!state) throw required('state');
  if (!query.get('code')) throw required('code');
  const keys = await flowKeys(deps);
  const now = deps.clock.now();
  const payload = verifyState(keys, state, provider, now);
  const flow = openFlow(keys, cookie, payload);
  if (!(await claimSsoState(deps.db, { id: payload.i, provider, at: now, expiresAt: new Date(payload.x) }))) {
    throw new ApiError('invalid_token', 'This sign-in state was already used: start the sign-in again', [{ field: 'state', message: 'already used' }]);
  }
  const client = await providerClient(provider, settings);
  const current = new URL(redirectUri(deps.config, provider));
  current.search = query.toString(); // code, state and the issuer (`iss`, RFC 9207) as the provider sent them
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(client, current, {
      pkceCodeVerifier: flow.v,
      expectedNonce: flow.n,
      expectedState: state,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    throw providerFailure(provider, err);
  }
  if (!claims) throw new ApiError('unauthorized', `${providerLabel(provider)} sent no ID token: start the sign-in again`);
  const issued = await signInWithIdentity(deps, {
    provider,
    subject: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : undefined,
    // Only a literal true counts (OIDC Core 5.1): an absent claim (Microsoft's tokens) is unverified.
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === 'string' ? claims.name : undefined,
  }, payload.a, meta);
  return { issued, returnTo: payload.r };
}
