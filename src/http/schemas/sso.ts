import { Type } from 'typebox';
import { StringLiterals } from './common.js';

export const SSO_PROVIDERS = ['google', 'microsoft'] as const;

export const SsoProviderParams = Type.Object({
  provider: StringLiterals(SSO_PROVIDERS, { description: 'The single sign-on slot' }),
});

export const SignInMethods = Type.Object(
  {
    object: Type.Literal('sign_in_methods'),
    password: Type.Boolean(),
    passkey: Type.Boolean(),
    sso: Type.Array(Type.Object({
      provider: StringLiterals(SSO_PROVIDERS),
      start_url: Type.String({ description: 'GET it in the browser (add `return_to`) to start the flow', examples: ['/v1/auth/oauth/google/start'] }),
    })),
  },
  { title: 'SignInMethods' },
);

export const SsoStartQuery = Type.Object({
  account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$', description: 'The account to sign into (default: your oldest membership)' })),
  return_to: Type.Optional(Type.String({ maxLength: 512, description: 'A path on the dashboard to land on afterwards, like `/issuers`' })),
});

// What a provider sends back (RFC 6749 section 4.1.2, RFC 9207 `iss`); providers add their own
// parameters (Google: `authuser`, `prompt`, `scope`), so others are allowed and passed on as sent.
export const SsoCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 2048 })),
    state: Type.Optional(Type.String({ maxLength: 1024 })),
    iss: Type.Optional(Type.String({ maxLength: 512 })),
    error: Type.Optional(Type.String({ maxLength: 256 })),
    error_description: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: true },
);
