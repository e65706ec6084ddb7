import { Type } from 'typebox';
import { Timestamp } from './common.js';

const TaxRegime = Type.Enum(['legacy', 'reform_2026'], {
  description:
    'Whether the account\'s documents carry the 2026 tax reform groups (NT 2025.002-RTC). ' +
    '`legacy`: no IBS/CBS groups (layout PL_009). `reform_2026`: each item carries the IBSCBS (and IS where due) groups ' +
    'and the totals IBSCBSTot/ISTot/vNFTot (layout PL_010); item fields vIBS, vCBS, vIS apply.',
});

export const Account = Type.Object(
  {
    id: Type.String({ examples: ['acc_sandbox'] }),
    object: Type.Literal('account'),
    name: Type.String(),
    taxRegime: TaxRegime,
    environment: Type.String({ description: '`sandbox` or `production`' }),
    notification_email: Type.Union([Type.String(), Type.Null()], { description: 'Where certificate-expiry and webhook alerts are e-mailed' }),
    require_sso: Type.Boolean({ description: 'Members sign in through single sign-on only: a password or passkey sign-in into this account gets 403 `sso_required`' }),
    created_at: Timestamp,
  },
  { title: 'Account' },
);

export const PatchAccountBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    taxRegime: Type.Optional(TaxRegime),
    notification_email: Type.Optional(
      Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()], { description: 'Alert e-mails go here; null stops them' }),
    ),
    require_sso: Type.Optional(Type.Boolean({ description: 'Require single sign-on (GET /v1/auth/oauth/{provider}/start) for every member; only accepted when the gateway has a provider configured (422 otherwise)' })),
  },
  { additionalProperties: false },
);
