import * as oidc from 'openid-client';
import type { Config, SsoProviderConfig, SsoProviderName } from '../../config.js';
import { ApiError } from '../../kernel/errors.js';

// Every request to a provider (discovery, JWKS, token) gives up after this: a slow provider costs
// a sign-in, never a stuck request (openid-client's `timeout`, in seconds).
const PROVIDER_TIMEOUT_SECONDS = 10;

const LABEL: Record<SsoProviderName, string> = { google: 'Google', microsoft: 'Microsoft' };
export const providerLabel = (p: SsoProviderName): string => LABEL[p];

/** The slot's settings, or 404 when it has no client id. */
export function providerSettings(config: Pick<Config, 'sso'>, provider: SsoProviderName): SsoProviderConfig {
  const settings = config.sso.providers[provider];
  if (!settings) throw new ApiError('not_found', `Single sign-on with ${LABEL[provider]} is not configured`);
  return settings;
}

/** The redirect URI to register at the provider: exactly this, per slot. */
export const redirectUri = (config: Pick<Config, 'publicBaseUrl'>, provider: SsoProviderName): string =>
  `${config.publicBaseUrl}/v1/auth/oauth/${provider}/callback`;

// One discovery per slot and process; a failed one is forgotten so the next sign-in tries again.
const discovered = new WeakMap<SsoProviderConfig, Promise<oidc.Configuration>>();

/**
 * The provider's metadata (OIDC Discovery 1.0; its `issuer` must equal the configured one, except
 * Microsoft's `{tenantid}` template, see config.ts) and the client: client_secret_post, ID tokens
 * checked by openid-client (issuer, audience, azp, expiry, iat, nonce: OIDC Core 3.1.3.7) and their
 * signature against the provider's JWKS (enableNonRepudiationChecks) on top of the TLS that
 * item 6 would allow to suffice.
 */
export async function providerClient(provider: SsoProviderName, settings: SsoProviderConfig): Promise<oidc.Configuration> {
  try {
    return await discover(settings);
  } catch {
    // A misconfigured issuer or a provider down: nothing the person can fix, so not a 4xx.
    throw new ApiError('service_unavailable', `${LABEL[provider]}'s OpenID configuration could not be read: try again in a moment`, undefined, { 'Retry-After': '5' });
  }
}

function discover(settings: SsoProviderConfig): Promise<oidc.Configuration> {
  let client = discovered.get(settings);
  if (!client) {
    // http only reaches here for a loopback issuer in the sandbox (config.ts refuses it otherwise).
    const insecure = new URL(settings.issuer).protocol === 'http:';
    client = oidc.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, oidc.ClientSecretPost(settings.clientSecret), {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      execute: [...(insecure ? [oidc.allowInsecureRequests] : []), oidc.enableNonRepudiationChecks],
    });
    client.catch(() => discovered.delete(settings));
    discovered.set(settings, client);
  }
  return client;
}

/**
 * Turns what openid-client or the network threw into a stable API error. Only codes and claim
 * names go into the message: never a code, token or the provider's free text.
 */
export function providerFailure(provider: SsoProviderName, err: unknown): ApiError {
  const name = LABEL[provider];
  if (err instanceof ApiError) return err;
  if (err instanceof oidc.ResponseBodyError || err instanceof oidc.AuthorizationResponseError) {
    const code = /^[a-z_]{1,64}$/.test(err.error) ? err.error : 'error';
    return new ApiError('unauthorized', `${name} refused the sign-in (${code}): start it again`);
  }
  if (err instanceof oidc.ClientError) {
    const claim = failedClaim(err);
    if (claim) return new ApiError('unauthorized', `The ID token from ${name} failed its check: its "${claim}" is not the expected one`, [{ field: 'id_token', message: `${claim} does not match` }]);
    if (err.code === 'OAUTH_TIMEOUT' || /timeout|abort/i.test(String((err.cause as Error | undefined)?.name))) return unavailable(name);
    return new ApiError('unauthorized', `The answer from ${name} failed its check (${err.code ?? 'invalid'}): start the sign-in again`);
  }
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError' || err instanceof TypeError)) return unavailable(name);
  return new ApiError('unauthorized', `The sign-in with ${name} could not be completed: start it again`);
}

const unavailable = (name: string) =>
  new ApiError('service_unavailable', `${name} did not answer in time (or could not be reached): try again in a moment`, undefined, { 'Retry-After': '5' });

/** The ID token claim a comparison failed on (openid-client wraps oauth4webapi's error, whose cause names it). */
function failedClaim(err: Error): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const claim = (e as { claim?: unknown }).claim;
    if (typeof claim === 'string' && /^[a-z_]{1,32}$/.test(claim)) return claim;
  }
  return undefined;
}
