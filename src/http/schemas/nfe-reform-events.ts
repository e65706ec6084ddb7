import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const ReformEventBody = Type.Object(
  {
    type: StringLiterals(['delivery_forecast_update'], {
      description: 'The NT 2025.002-RTC event: delivery_forecast_update = 112150 "Atualização da Data de Previsão de Entrega"',
      examples: ['delivery_forecast_update'],
    }),
    delivery_date: Type.String({
      description: 'dPrevEntrega: the new expected date of delivery or availability of the goods, AAAA-MM-DD',
      examples: ['2026-12-30'],
    }),
  },
  { additionalProperties: false },
);

export const ReformEventSchema = Type.Object(
  {
    id: Type.String({ description: 'The event id (evt_...)' }),
    type: StringLiterals(['delivery_forecast_update']),
    tp_evento: Type.String({ description: 'tpEvento, e.g. 112150' }),
    sequence: Type.Integer({ minimum: 1, maximum: 20, description: 'nSeqEvento' }),
    status: StringLiterals(['pending', 'registered', 'rejected'], { description: 'pending while it is sent; registered (135) or rejected by the authority' }),
    delivery_date: Nullable(Type.String()),
    protocolo: Nullable(Type.String()),
    rejection: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    requested_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'NfeReformEvent' },
);

export const ReformEventParams = Type.Object({ id: Type.String({ maxLength: 64 }), eventId: Type.String({ maxLength: 64 }) });
