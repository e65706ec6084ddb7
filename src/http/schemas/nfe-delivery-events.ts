import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';

// docs/fiscal/delivery-events.md: the NT 2021.001 proof of delivery and the NT 2023.005 failed delivery, with their cancellations.
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const TYPES = ['proof', 'proof_cancel', 'failure', 'failure_cancel'] as const;

export const DeliveryEventBody = Type.Object(
  {
    type: StringLiterals([...TYPES], {
      description:
        'proof = 110130 Comprovante de Entrega; proof_cancel = 110131 its cancellation; failure = 110192 Insucesso na Entrega; ' +
        'failure_cancel = 110193 its cancellation',
      examples: ['proof'],
    }),
    delivered_at: Type.Optional(Type.String({ maxLength: 40, description: 'proof: dhEntrega, when the delivery ended (date-time with offset); not in the future, not before the NF-e was issued', examples: ['2026-06-10T17:45:00-03:00'] })),
    receiver_document: Type.Optional(Type.String({ maxLength: 40, description: 'proof: nDoc, the document number of who received the goods (2-20 characters)', examples: ['12345678909'] })),
    receiver_name: Type.Optional(Type.String({ maxLength: 120, description: 'proof: xNome, their name (2-60 characters)', examples: ['Maria da Silva'] })),
    attempted_at: Type.Optional(Type.String({ maxLength: 40, description: 'failure: dhTentativaEntrega, when the failed attempt ended (date-time with offset)' })),
    attempt: Type.Optional(Type.Integer({ description: 'failure: nTentativa, which attempt failed (1-999)' })),
    reason: Type.Optional(StringLiterals(['receiver_not_found', 'receiver_refused', 'address_not_found', 'other'], { description: 'failure: tpMotivo 1-4; other needs justification' })),
    justification: Type.Optional(Type.String({ maxLength: 500, description: 'failure with reason other: xJustMotivo, 25-250 characters' })),
    latitude: Type.Optional(Type.Number({ description: 'latGPS of the delivery point (written with six decimals); with longitude' })),
    longitude: Type.Optional(Type.Number({ description: 'longGPS of the delivery point; with latitude' })),
    image_base64: Type.Optional(Type.String({
      maxLength: 1_000_000,
      description: 'proof and failure: the captured image (signature, photo) in Base64, at most 1,000,000 characters. Only its hash travels: ' +
        'hashComprovante / hashTentativaEntrega = Base64(SHA-1(access key + this Base64 text)); the image is not kept',
    })),
    protocol: Type.Optional(Type.String({ maxLength: 20, description: 'proof_cancel / failure_cancel: nProtEvento, the protocol of the proof or failure being cancelled', examples: ['891260000000123'] })),
  },
  { additionalProperties: false },
);

export const DeliveryEventSchema = Type.Object(
  {
    id: Type.String({ description: 'The event id (evt_...)' }),
    type: StringLiterals([...TYPES]),
    tp_evento: Type.String({ description: 'tpEvento: 110130, 110131, 110192 or 110193' }),
    sequence: Type.Integer({ minimum: 1, maximum: 20, description: 'nSeqEvento' }),
    status: StringLiterals(['pending', 'registered', 'rejected'], { description: 'pending while it is sent; registered (135) or rejected by the authority' }),
    protocolo: Nullable(Type.String()),
    rejection: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    canceled_by: Nullable(Type.String({ description: 'proof / failure: protocol of the registered cancellation that voids it' })),
    detail: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]), {
      description: 'What was written: delivered_at or attempted_at (local time), receiver_document, receiver_name, attempt, reason, justification, latitude, longitude, image_hash; protocol for a cancellation',
    }),
    requested_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'NfeDeliveryEvent' },
);

export const DeliveryEventParams = Type.Object({ id: Type.String({ maxLength: 64 }), eventId: Type.String({ maxLength: 64 }) });
