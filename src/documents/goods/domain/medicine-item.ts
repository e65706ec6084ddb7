import { Type, type Static } from 'typebox';
import type { MedModel, RastroModel } from '../../../fiscal/xml/nfe/med-rastro.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { formatScaled, toCents, toScaled } from '../../../kernel/decimal.js';

// items[].medicine and items[].batches: the request side of prod/med and prod/rastro (leiauteNFe_v4.00.xsd,
// MOC 7.0 Anexo I groups K and I80), for NFC-e and NF-e alike. The checks are in validate-medicine.ts;
// the facts in docs/fiscal/medicines.md.

export const MedicineSchema = Type.Object(
  {
    anvisa_code: Type.String({
      description: 'cProdANVISA: the ANVISA registration of the medicine, 11 or 13 digits, or ISENTO for a medicine exempt from registration.',
      examples: ['1012345670012'],
    }),
    exemption_reason: Type.Optional(Type.String({
      description: 'xMotivoIsencao (1-255 characters): for an exempt medicine (anvisa_code ISENTO), the ANVISA decision that exempts it, e.g. the number of the RDC.',
      examples: ['RDC 98/2016'],
    })),
    max_consumer_price: Type.Number({ description: 'vPMC: the maximum consumer price (Preço Máximo ao Consumidor) of the medicine, reais, 2 decimals.', examples: [14.9] }),
  },
  { additionalProperties: false, description: 'prod/med: the medicine group of an item sold by a pharmacy, drugstore or distributor (docs/fiscal/medicines.md). Not with fuel on the same item.' },
);

export const BatchSchema = Type.Object(
  {
    number: Type.String({ description: 'nLote: the batch (lot) number, 1-20 characters.', examples: ['L2301A'] }),
    quantity: Type.Number({ description: 'qLote: the quantity of the item taken from this batch, at most 8 integer digits and 3 decimals.', examples: [2] }),
    manufactured_on: Type.String({
      description: 'dFab: the manufacturing date, YYYY-MM-DD; not after the day the authority processes the note (MOC I83-10, 877).',
      examples: ['2025-01-10'],
    }),
    expires_on: Type.String({
      description: 'dVal: the expiry date, YYYY-MM-DD (the last day of the month when the validity names no day); not before manufactured_on (MOC I84-10, 870).',
      examples: ['2027-01-31'],
    }),
    aggregation_code: Type.Optional(Type.String({ description: 'cAgreg: the aggregation code (1-20 characters).', examples: ['7891234567890'] })),
  },
  { additionalProperties: false, description: 'prod/rastro: one batch of the goods of the item (docs/fiscal/medicines.md).' },
);

export const BatchesSchema = Type.Array(BatchSchema, {
  maxItems: 500,
  description: 'prod/rastro: the batches (lots) the item was taken from, up to 500 (XSD). Required with medicine in an NF-e (MOC K01-20, 873); any traced product may carry them.',
});

export type MedicineInput = Static<typeof MedicineSchema>;
export type BatchInput = Static<typeof BatchSchema>;

/** The med group of a validated medicine. */
export function medOf(m: MedicineInput): MedModel {
  const med: MedModel = { cProdANVISA: m.anvisa_code, vPMC: toCents(m.max_consumer_price) };
  if (m.exemption_reason !== undefined) med.xMotivoIsencao = layoutText(m.exemption_reason);
  return med;
}

/** The rastro groups of validated batches; qLote always with 3 decimals (TDec_0803v takes 1 to 3). */
export function rastroOf(batches: readonly BatchInput[]): RastroModel[] {
  return batches.map((b) => {
    const r: RastroModel = { nLote: layoutText(b.number), qLote: formatScaled(toScaled(b.quantity, 3), 3), dFab: b.manufactured_on, dVal: b.expires_on };
    if (b.aggregation_code !== undefined) r.cAgreg = layoutText(b.aggregation_code);
    return r;
  });
}
