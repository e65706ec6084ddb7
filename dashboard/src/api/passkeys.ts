import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { api, orThrow } from './client.js';

type AuthOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type RegOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];

/**
 * Signs in with a passkey (alone, or as the second factor of a password sign-in when a
 * challenge token is given): the gateway's options -> the browser's authenticator -> verify, which
 * sets the session cookies.
 */
export async function passkeySignIn(challengeToken?: string) {
  const started = await orThrow(api.POST('/v1/auth/webauthn/authentication/options', { body: challengeToken ? { challenge_token: challengeToken } : {} }));
  const answer = await startAuthentication({ optionsJSON: started.options as AuthOptions });
  return orThrow(
    api.POST('/v1/auth/webauthn/authentication/verify', {
      body: { ...answer, ...(challengeToken ? { challenge_token: challengeToken } : {}) } as never,
    }),
  );
}

/** Registers a new passkey for the signed-in user. */
export async function registerPasskey(name: string) {
  const started = await orThrow(api.POST('/v1/auth/webauthn/registration/options'));
  const answer = await startRegistration({ optionsJSON: started.options as RegOptions });
  return orThrow(api.POST('/v1/auth/webauthn/registration/verify', { body: { ...answer, name } as never }));
}
