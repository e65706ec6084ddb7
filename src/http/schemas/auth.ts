import { Type } from 'typebox';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../infra/identity/password.js';
import { ROLES } from '../../infra/identity/roles.js';
import { StringLiterals, Timestamp } from './common.js';

const Email = Type.String({ format: 'email', maxLength: 254, examples: ['ana@padaria.com.br'] });
const Password = Type.String({
  minLength: PASSWORD_MIN,
  maxLength: PASSWORD_MAX,
  description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters; any characters, spaces included (NIST SP 800-63B)`,
  examples: ['correct horse battery staple'],
});
const TokenField = (description: string, example: string) => Type.String({ minLength: 1, maxLength: 200, description, examples: [example] });

export const SignupBody = Type.Object(
  {
    email: Email,
    password: Password,
    name: Type.Optional(Type.String({ maxLength: 100, description: 'Your name, shown to your team' })),
    account_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The new account (company) name; default: your name or e-mail' })),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254, examples: ['ana@padaria.com.br'] }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX }),
    account_id: Type.Optional(Type.String({ maxLength: 64, description: 'The account to act on; default: your oldest membership' })),
  },
  { additionalProperties: false },
);

export const SecondFactorBody = Type.Object(
  {
    challenge_token: TokenField('The `challenge_token` of the login answer', 'mfa_...'),
    code: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', description: 'The 6-digit code of the authenticator app' })),
    recovery_code: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'One of the recovery codes shown when TOTP was enabled (each works once)' })),
  },
  { additionalProperties: false },
);

export const RefreshBody = Type.Object(
  { refresh_token: Type.Optional(TokenField('The `refresh_token` of the last sign-in or refresh; browsers may send the __Host-refresh cookie instead', 'rt_...')) },
  { additionalProperties: false },
);

export const TokenBody = Type.Object({ token: TokenField('The token of the link in the e-mail', 'evf_...') }, { additionalProperties: false });
export const ForgotBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false });
export const ResetBody = Type.Object({ token: TokenField('The token of the reset link', 'pwr_...'), password: Password }, { additionalProperties: false });

export const ReauthBody = Type.Object(
  {
    password: Type.Optional(Type.String({ minLength: 1, maxLength: PASSWORD_MAX })),
    code: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', description: 'A TOTP code, for users who enabled it' })),
  },
  { additionalProperties: false },
);

export const SessionInfo = Type.Object(
  {
    id: Type.String({ examples: ['ses_4Hc9sT2kQm1ZpW8vXy3B'] }),
    object: Type.Literal('session_info'),
    user_id: Type.String(),
    account_id: Type.String(),
    methods: Type.Array(Type.String(), { description: 'How the user proved who they are: password, totp, recovery_code, passkey, sso' }),
    authenticated_at: Type.String({ format: 'date-time', description: 'Last proof (sign-in or step-up); sensitive actions need one within 10 minutes' }),
    created_at: Timestamp,
    last_used_at: Timestamp,
    expires_at: Type.String({ format: 'date-time', description: 'Absolute end (SESSION_ABSOLUTE_SECONDS after sign-in); refresh does not extend it' }),
    idle_expires_at: Type.String({ format: 'date-time', description: 'The session ends here unless used before (SESSION_IDLE_SECONDS)' }),
    ip: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'SessionInfo' },
);

export const IssuedSession = Type.Object(
  {
    object: Type.Literal('session'),
    session: SessionInfo,
    session_token: Type.String({ description: '`st_...`: send as `Authorization: Bearer`; browsers get it as the __Host-session cookie', examples: ['st_...'] }),
    refresh_token: Type.String({ description: '`rt_...`: POST /v1/auth/refresh trades it, once, for a new pair', examples: ['rt_...'] }),
  },
  { title: 'IssuedSession' },
);

export const SignupAnswer = Type.Object(
  {
    ...IssuedSession.properties,
    sandbox_verification: Type.Optional(Type.Object(
      {
        url: Type.String({ description: 'The link the verification e-mail carries (DASHBOARD_URL/verify-email?token=evf_...)' }),
        token: Type.String({ description: '`evf_...`: POST /v1/auth/verify-email confirms the address with it', examples: ['evf_...'] }),
      },
      {
        description: 'Only in a sandbox without SMTP_URL, which sends no e-mail: the verification link of the address just signed up, to open at once. '
          + 'Never with SMTP configured, never in production. An address that already has a user gets a link of the same shape that confirms nothing.',
      },
    )),
  },
  { title: 'SignupAnswer' },
);

export const LoginChallenge = Type.Object(
  {
    object: Type.Literal('login_challenge'),
    challenge_token: Type.String({ description: 'Answer it within 5 minutes at POST /v1/auth/login/second-factor, or with a passkey: POST /v1/auth/webauthn/authentication/options with this token, then /verify' }),
    methods: Type.Array(StringLiterals(['totp', 'recovery_code', 'passkey'] as const)),
    expires_at: Timestamp,
  },
  { title: 'LoginChallenge' },
);

export const Membership = Type.Object({
  account_id: Type.String(),
  account_name: Type.String(),
  role: StringLiterals(ROLES),
});

export const Me = Type.Object(
  {
    object: Type.Literal('me'),
    user: Type.Object({
      id: Type.String({ examples: ['usr_4Hc9sT2kQm1ZpW8vXy3B'] }),
      email: Type.String(),
      name: Type.String(),
      email_verified: Type.Boolean(),
      totp_enabled: Type.Boolean(),
      passkeys: Type.Integer({ description: 'How many passkeys the user registered' }),
      created_at: Timestamp,
    }),
    role: StringLiterals(ROLES, { description: 'Your role in the session\'s account' }),
    scopes: Type.Array(Type.String(), { description: 'What the role allows (the role matrix)' }),
    memberships: Type.Array(Membership),
    session: SessionInfo,
  },
  { title: 'Me' },
);

export const VerifiedEmail = Type.Object({ user_id: Type.String(), email: Type.String(), email_verified_at: Timestamp }, { title: 'VerifiedEmail' });
export const ResendAnswer = Type.Object({ sent: Type.Boolean({ description: 'false when the e-mail is already confirmed' }) });

export const SwitchAccountBody = Type.Object(
  { account_id: Type.String({ minLength: 1, maxLength: 64, description: 'One of the accounts listed by GET /v1/auth/session', examples: ['acc_4Hc9sT2kQm1ZpW8vXy3B'] }) },
  { additionalProperties: false },
);
