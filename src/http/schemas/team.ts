import { Type } from 'typebox';
import { ROLE_DESCRIPTIONS, ROLES } from '../../infra/identity/roles.js';
import { StringLiterals, Timestamp } from './common.js';

export const RoleSchema = StringLiterals(ROLES, {
  description: ROLES.map((r) => `\`${r}\`: ${ROLE_DESCRIPTIONS[r]}`).join('; '),
});

export const Member = Type.Object(
  {
    id: Type.String({ description: 'The member\'s user id', examples: ['usr_4Hc9sT2kQm1ZpW8vXy3B'] }),
    object: Type.Literal('member'),
    user_id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    totp_enabled: Type.Boolean(),
    joined_at: Timestamp,
  },
  { title: 'Member' },
);

export const Invite = Type.Object(
  {
    id: Type.String({ examples: ['ivt_4Hc9sT2kQm1ZpW8vXy3B'] }),
    object: Type.Literal('invite'),
    email: Type.String(),
    role: RoleSchema,
    invited_by: Type.String({ description: 'The user (or application) that invited' }),
    created_at: Timestamp,
    expires_at: Timestamp,
  },
  { title: 'Invite' },
);

export const CreateInviteBody = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 254, examples: ['bruno@padaria.com.br'] }), role: RoleSchema },
  { additionalProperties: false },
);

export const AcceptInviteBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the invite link (`inv_...`)', examples: ['inv_...'] }) },
  { additionalProperties: false },
);

export const AcceptedInvite = Type.Object(
  {
    object: Type.Literal('membership'),
    account_id: Type.String({ description: 'Sign in with this `account_id` (POST /v1/auth/login) to act on the team' }),
    account_name: Type.String(),
    user_id: Type.String(),
    role: RoleSchema,
    joined_at: Timestamp,
  },
  { title: 'AcceptedInvite' },
);

export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
export const TransferBody = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 64, description: 'The member who becomes owner' }) }, { additionalProperties: false });

export const ForceCancelBody = Type.Object(
  {
    confirm: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the account being closed, typed again' }),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const AccountClosure = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('account_closure'),
    closed_at: Timestamp,
    revoked_api_keys: Type.Integer(),
    revoked_sessions: Type.Integer(),
    disabled_webhooks: Type.Integer(),
  },
  { title: 'AccountClosure' },
);
