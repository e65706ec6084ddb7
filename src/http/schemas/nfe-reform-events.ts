import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const TYPES = ['delivery_forecast_update', 'full_payment', 'import_not_exempted', 'supplier_transport_loss', 'prepaid_not_supplied'] as const;
const TYPE_DESCRIPTION =
  'The NT 2025.002-RTC event: delivery_forecast_update = 112150 "Atualização da Data de Previsão de Entrega" (takes delivery_date); ' +
  'full_payment = 112110 "Informação de efetivo pagamento integral para liberar crédito presumido do adquirente" (no other field; indQuitacao 1); ' +
  'import_not_exempted = 112120 "Importação em ALC/ZFM não convertida em isenção" (items; only on an import NF-e); ' +
  'supplier_transport_loss = 112130 "Perecimento, perda, roubo ou furto durante o transporte contratado pelo fornecedor" (items with credit_reversal; only on an outbound NF-e); ' +
  'prepaid_not_supplied = 112140 "Fornecimento não realizado com pagamento antecipado" (items; only on a debit note of type 06)';

const Amount = (description: string) => Type.Number({ minimum: 0, description: `${description}; at least 0, at most 2 decimals (TDec_1302)`, examples: [12.5] });

export const ReformEventItemSchema = Type.Object(
  {
    item_number: Type.Integer({ minimum: 1, maximum: 990, description: 'nItem: the number of the item (det nItem) of this NF-e; each item at most once per event' }),
    ibs_amount: Amount('vIBS: the IBS of the note for the quantity concerned'),
    cbs_amount: Amount('vCBS: the CBS of the note for the quantity concerned'),
    quantity: Type.Number({ minimum: 0, description: 'The quantity concerned (qtde / qPerecimento / qNaoFornecida); at most 4 decimals (TDec_1104)', examples: [2] }),
    unit: Type.String({ description: 'Its unit (unidade / uPerecimento / uNaoFornecida), 1 to 6 characters', examples: ['UN'] }),
    credit_reversal: Type.Optional(Type.Object(
      {
        ibs_amount: Amount('gControleEstoque vIBS: the IBS credit on the acquisitions to reverse for this quantity'),
        cbs_amount: Amount('gControleEstoque vCBS: the CBS credit on the acquisitions to reverse for this quantity'),
      },
      { additionalProperties: false, description: 'supplier_transport_loss only, and required there' },
    )),
  },
  { additionalProperties: false },
);

export const ReformEventBody = Type.Object(
  {
    type: StringLiterals(TYPES, { description: TYPE_DESCRIPTION, examples: ['delivery_forecast_update'] }),
    delivery_date: Type.Optional(Type.String({
      description: 'delivery_forecast_update only, and required there. dPrevEntrega: the new expected date of delivery or availability of the goods, AAAA-MM-DD',
      examples: ['2026-12-30'],
    })),
    items: Type.Optional(Type.Array(ReformEventItemSchema, {
      description: 'import_not_exempted, supplier_transport_loss and prepaid_not_supplied only, and required there: 1 to 990 items of the note',
    })),
  },
  { additionalProperties: false },
);

export const ReformEventSchema = Type.Object(
  {
    id: Type.String({ description: 'The event id (evt_...)' }),
    type: StringLiterals([...TYPES, 'event_cancellation'], { description: 'The type sent, or event_cancellation: 110001 "Cancelamento de Evento" of one of these events' }),
    tp_evento: Type.String({ description: 'tpEvento, e.g. 112150 (110001 for a cancellation)' }),
    sequence: Type.Integer({ minimum: 1, maximum: 20, description: "nSeqEvento (a cancellation carries the cancelled event's)" }),
    status: StringLiterals(['pending', 'registered', 'rejected'], { description: 'pending while it is sent; registered (135) or rejected by the authority' }),
    delivery_date: Nullable(Type.String()),
    items: Nullable(Type.Array(ReformEventItemSchema)),
    protocolo: Nullable(Type.String()),
    rejection: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    cancels: Nullable(Type.String({ description: 'event_cancellation only: the id of the event it cancels' })),
    cancelled_by: Nullable(Type.String({ description: 'The id of the registered cancellation (110001) of this event, else null' })),
    requested_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'NfeReformEvent' },
);

export const ReformEventParams = Type.Object({ id: Type.String({ maxLength: 64 }), eventId: Type.String({ maxLength: 64 }) });
