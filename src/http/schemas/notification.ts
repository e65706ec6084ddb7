import { Type } from 'typebox';
import { Timestamp } from './common.js';

export const NotificationSchema = Type.Object(
  {
    id: Type.String({ examples: ['ntf_5Hq2Lm8ZkP0aXc7RtB1w'] }),
    object: Type.Literal('notification'),
    type: Type.String({
      description: '`certificate.expiring`, `certificate.expired`, `webhook.disabled`, `nfce.rejected`, `nfce.denied`, `security.factor_changed`, `security.password_reset`',
      examples: ['certificate.expiring'],
    }),
    title: Type.String(),
    body: Type.String(),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'What the notification is about (ids, dates)' }),
    read: Type.Boolean(),
    read_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
    seq: Type.Integer({ description: 'Position in the account\'s notifications; the server-sent-event id (Last-Event-ID)' }),
  },
  { title: 'Notification' },
);
