import { Type } from 'typebox';

export const TotpSetup = Type.Object(
  {
    object: Type.Literal('totp_setup'),
    secret: Type.String({ description: 'Base32 secret, for apps that take it typed in' }),
    otpauth_uri: Type.String({ examples: ['otpauth://totp/Fiscal%20gateway:ana%40padaria.com.br?issuer=Fiscal%20gateway&secret=...&algorithm=SHA1&digits=6&period=30'] }),
    qr_code: Type.String({ description: 'The otpauth URI as a PNG QR code (data URL) to scan' }),
    next: Type.String(),
  },
  { title: 'TotpSetup' },
);

export const CodeBody = Type.Object({ code: Type.String({ pattern: '^[0-9]{6}$', description: 'The current 6-digit code of the app' }) }, { additionalProperties: false });

export const TotpEnabled = Type.Object(
  {
    object: Type.Literal('totp_enabled'),
    enabled: Type.Literal(true),
    recovery_codes: Type.Array(Type.String(), { description: 'Ten one-time codes, shown this once: each signs in once when the phone is lost' }),
  },
  { title: 'TotpEnabled' },
);

export const DisableBody = Type.Object(
  {
    code: Type.Optional(Type.String({ pattern: '^[0-9]{6}$' })),
    recovery_code: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);

export const TotpDisabled = Type.Object({ object: Type.Literal('totp_disabled'), enabled: Type.Literal(false) }, { title: 'TotpDisabled' });
