import { Type } from 'typebox';
import { Timestamp } from './common.js';

/** A sign-in factor in the review list. */
export const Factor = Type.Object(
  {
    id: Type.String({ description: '`totp`, or the passkey\'s id', examples: ['totp', 'pky_4Hc9sT2kQm1ZpW8vXy3B'] }),
    object: Type.Literal('factor'),
    type: Type.Union([Type.Literal('totp'), Type.Literal('passkey'), Type.Literal('sso')], { description: '`sso`: a single sign-on identity, only among `removed_factors`' }),
    name: Type.String(),
    created_at: Timestamp,
    suspended: Type.Boolean({ description: 'Added in the 24 hours before a password reset: signs nobody in until confirmed' }),
  },
  { title: 'Factor' },
);

export const FactorList = Type.Object({ data: Type.Array(Factor), has_more: Type.Boolean() }, { title: 'FactorList' });

export const PasswordReset = Type.Object(
  {
    object: Type.Literal('password_reset'),
    factors: Type.Array(Factor, { description: 'Every factor still on the account, with the date it was added' }),
    removed_factors: Type.Array(Factor, { description: 'Removed because this reset confirmed the e-mail: they were set up before anyone proved the address' }),
    next: Type.String(),
  },
  { title: 'PasswordReset' },
);
