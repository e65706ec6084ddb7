import { Type, type Static } from 'typebox';
import { BuyerEmailOptionSchema } from '../../../kernel/buyer-email-option.js';
import { OWN_SERIES_MAX, OWN_SERIES_MIN } from '../../../fiscal/layout/series-range.js';
import { AddressSchema, PaymentSchema, SaleItemSchema, type SaleAddress, type SaleItem, type SalePayment } from '../../goods/domain/sale-item.js';
import { CarrierSchema, FreightModeSchema } from '../../goods/domain/transport.js';

export type { SaleAddress, SaleItem, SalePayment };

// The NFC-e creation request (docs/guides/api.md#contract-fields) plus what real sales need: the shared item and payment
// parts (goods/domain/sale-item.ts) and the NFC-e's own consumer and delivery fields.

const money = (description: string, example: number) =>
  Type.Number({ description: `${description} Reais, at most 2 decimals.`, examples: [example] });

export const ConsumerSchema = Type.Object(
  {
    cpf: Type.Optional(Type.String({ description: 'CPF, 11 digits.', examples: ['52998224725'] })),
    cnpj: Type.Optional(Type.String({ description: 'CNPJ, 14 characters (alphanumeric allowed).' })),
    name: Type.Optional(Type.String({ description: 'Name (2-60).' })),
    email: Type.Optional(Type.String({ description: 'E-mail (up to 60).' })),
    address: Type.Optional(AddressSchema),
  },
  { additionalProperties: false },
);

export const DeliverySchema = Type.Object(
  { modalidade: FreightModeSchema, transportadora: CarrierSchema },
  {
    additionalProperties: false,
    description: 'transp of a home delivery, with the same names as the NF-e\'s transporte: who hires the freight and the carrier (required with home_delivery, MOC X03-20, 786; refused without it, X02-10/X03-10). In an own delivery the issuer is the carrier.',
  },
);

export const SaleSchema = Type.Object(
  {
    issuer_id: Type.String({ description: 'Issuer id (iss_...).', examples: ['iss_7Hk2...'] }),
    external_ref: Type.String({ description: 'Your own order reference: one live note per external_ref, issuer and model (see allow_duplicate_external_ref).', examples: ['order-1001'] }),
    allow_duplicate_external_ref: Type.Optional(Type.Boolean({ description: 'Issue another document for this external_ref even when a live note of the issuer (processing, contingency or authorized) of this model holds it; without it that sale is refused with 409 duplicate_external_ref naming the note (details[0].note_id). A rejected, denied or canceled note does not hold it.', examples: [false] })),
    series: Type.Optional(Type.Integer({ minimum: OWN_SERIES_MIN, maximum: OWN_SERIES_MAX, description: "The issuer's series the sale is numbered in (0-889; GET/POST /v1/issuers/:id/series): one it opened and did not retire, else 422 on series. Default 1.", examples: [1] })),
    items: Type.Array(SaleItemSchema, { minItems: 1, maxItems: 990, description: 'Items, 1 to 990 (XSD det maxOccurs).' }),
    payment: Type.Optional(PaymentSchema),
    payments: Type.Optional(Type.Array(PaymentSchema, { minItems: 1, maxItems: 100, description: 'Split tender, instead of payment.' })),
    consumer: Type.Optional(ConsumerSchema),
    email: Type.Optional(BuyerEmailOptionSchema),
    discount: Type.Optional(money('Sale-level discount, spread over the items in proportion to their value.', 2)),
    approximate_taxes: Type.Optional(money('Approximate taxes of the sale (Lei 12.741/2012), spread over items that do not carry their own.', 12.3)),
    additional_info: Type.Optional(Type.String({ description: 'infCpl: free text printed on the receipt (up to 5000).' })),
    home_delivery: Type.Optional(Type.Boolean({ description: 'indPres 4 (NFC-e home delivery); requires consumer with address and transporte with the carrier.' })),
    transporte: Type.Optional(DeliverySchema),
  },
  { additionalProperties: false },
);

export type Sale = Static<typeof SaleSchema>;
export type SaleConsumer = Static<typeof ConsumerSchema>;
export type SaleDelivery = Static<typeof DeliverySchema>;
