import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';

const EMAIL_PATTERN = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';

export const BuyerEmailSettingsBody = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Send each authorized note\'s DANFE and XML to its buyer, and a notice when it is canceled. A sale\'s `email.send` overrides it for that note.', examples: [true] }),
    sender_name: Type.Optional(Type.Union([
      Type.String({ minLength: 1, maxLength: 60, pattern: '^[^\\x00-\\x1f\\x7f]+$', description: 'Display name of the From header (the address is the gateway\'s MAIL_FROM); no control characters.', examples: ['Loja Exemplo'] }),
      Type.Null(),
    ], { description: 'Display name of the From header; null or never set: the issuer\'s trade name, else its legal name. Left out: unchanged.', examples: ['Loja Exemplo'] })),
    accountant_email: Type.Optional(Type.Union([
      Type.String({ maxLength: 254, pattern: EMAIL_PATTERN, description: 'An address copied (Bcc) on every buyer e-mail of this issuer.', examples: ['fiscal@contabilidade.com.br'] }),
      Type.Null(),
    ], { description: 'The accountant\'s address, copied (Bcc) on every e-mail to a buyer; null: nobody. Left out: unchanged.', examples: ['fiscal@contabilidade.com.br'] })),
  },
  { additionalProperties: false },
);

export const BuyerEmailSettings = Type.Object(
  {
    object: Type.Literal('buyer_email_settings'),
    issuer_id: Type.String({ examples: ['iss_7Hk2...'] }),
    enabled: Type.Boolean({ description: 'Off until turned on.' }),
    sender_name: Type.Union([Type.String(), Type.Null()], { description: 'null: the issuer\'s name.' }),
    accountant_email: Type.Union([Type.String(), Type.Null()]),
    updated_at: Type.Union([Timestamp, Type.Null()], { description: 'null: never set.' }),
  },
  { title: 'BuyerEmailSettings' },
);

export const BuyerEmail = Type.Object(
  {
    id: Type.String({ examples: ['bml_4f8Kq...'] }),
    object: Type.Literal('buyer_email'),
    note_id: Type.String({ description: 'The NFC-e, NF-e or NFS-e.' }),
    issuer_id: Type.String(),
    kind: StringLiterals(['authorized', 'canceled'] as const, { description: 'authorized: DANFE + XML; canceled: the cancellation notice with the event XML.' }),
    to: Type.Union([Type.String(), Type.Null()], { description: 'The buyer\'s address (the sale\'s email.to, else its e-mail); null: the note had none.' }),
    bcc: Type.Union([Type.String(), Type.Null()], { description: 'The issuer\'s accountant address, when set and not on the bounce list.' }),
    subject: Type.Union([Type.String(), Type.Null()]),
    state: StringLiterals(['pending', 'sending', 'sent', 'captured', 'skipped', 'bounced', 'failed'] as const, {
      description: 'sent: the SMTP server accepted it; captured: the sandbox without SMTP kept it; skipped: see reason; bounced: the server refused the address with a 5xx (now on the bounce list); failed: refused for good otherwise, or out of attempts.',
    }),
    reason: Type.Union([StringLiterals(['no_address', 'address_bounced'] as const), Type.Null()], { description: 'Why a skipped e-mail was not sent: the note has no buyer address, or the address is on the bounce list.' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'The last SMTP error.' }),
    attempts: Type.Integer(),
    created_at: Timestamp,
    sent_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'BuyerEmail' },
);

export const BuyerEmailListQuery = Type.Object(
  {
    note_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only the e-mails of this note.', examples: ['nfe_01J...'] })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)', examples: [20] })),
    starting_after: Type.Optional(Type.String({ maxLength: 64, description: 'Id of the last item of the previous page', examples: ['bml_4f8Kq...'] })),
  },
  { additionalProperties: false },
);

export const MailBounce = Type.Object(
  {
    object: Type.Literal('mail_bounce'),
    address: Type.String({ examples: ['nao-existe@cliente.com.br'] }),
    smtp_code: Type.Integer({ description: 'The 5xx reply code the SMTP server refused the address with.', examples: [550] }),
    response: Type.String({ description: 'The server\'s reply text.' }),
    note_id: Type.Union([Type.String(), Type.Null()], { description: 'The note whose e-mail bounced.' }),
    bounced_at: Timestamp,
  },
  { title: 'MailBounce' },
);

export const BounceListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)', examples: [20] })),
    starting_after: Type.Optional(Type.String({ maxLength: 254, description: 'The last address of the previous page (the list is in address order).', examples: ['a@cliente.com.br'] })),
  },
  { additionalProperties: false },
);

export const BounceParams = Type.Object({ address: Type.String({ minLength: 3, maxLength: 254, description: 'The address to take off the list (any case).', examples: ['nao-existe@cliente.com.br'] }) });
