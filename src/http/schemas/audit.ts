import { Type } from 'typebox';
import { Timestamp } from './common.js';

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String({ examples: ['aud_8Wc2Pz5LqN1xKb7RtM0v'] }),
    object: Type.Literal('audit_entry'),
    actor: Type.String({ description: 'Application id of the API key, or `sandbox` for the public sandbox key' }),
    action: Type.String({ examples: ['nfce.create', 'issuer.update', 'webhook.delete'] }),
    target: Type.Union([Type.String(), Type.Null()], { description: 'Id of the record acted on (from the path or the created record)' }),
    method: Type.String(),
    route: Type.String({ examples: ['/v1/nfce/:id/cancel'] }),
    status_code: Type.Integer(),
    ip: Type.Union([Type.String(), Type.Null()]),
    request_id: Type.String(),
    created_at: Timestamp,
  },
  { title: 'AuditEntry' },
);

export const AuditQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(Type.String({ maxLength: 64 })),
    actor: Type.Optional(Type.String({ maxLength: 64, description: 'Application id, or `sandbox`' })),
    action: Type.Optional(Type.String({ maxLength: 100, description: 'Exact action or a prefix (`webhook` matches `webhook.create`)' })),
    target: Type.Optional(Type.String({ maxLength: 64 })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before' })),
  },
  { additionalProperties: false },
);

export const SandboxMail = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('mail'),
    to: Type.Union([Type.String(), Type.Null()], { description: 'null when the account has no notification_email' }),
    subject: Type.String(),
    text: Type.String(),
    redacted: Type.Boolean({ description: 'true: the message is not addressed to you, and its tokens (links) were replaced by `<prefix>_[redacted]`' }),
    state: Type.Enum(['pending', 'sent', 'captured', 'no_recipient', 'failed'], {
      description: '`captured`: no SMTP server configured (sandbox), stored instead of sent',
    }),
    created_at: Timestamp,
    sent_at: Type.Union([Timestamp, Type.Null()]),
  },
  { title: 'SandboxMail' },
);
