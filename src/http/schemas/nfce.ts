import { Type } from 'typebox';
import { StringLiterals, Timestamp } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const NfceStatusSchema = StringLiterals(
  ['processing', 'authorized', 'rejected', 'denied', 'canceled', 'contingency'],
  { description: 'processing -> authorized | rejected | denied | contingency; contingency -> authorized | rejected; authorized -> canceled' },
);

export const RejectionSchema = Type.Object(
  {
    code: Type.String({ description: "The authority's cStat", examples: ['778'] }),
    message: Type.String({ description: "The authority's xMotivo" }),
    field: Nullable(Type.String({ description: 'The request field at fault, when known', examples: ['items[2].ncm'] })),
    hint: Nullable(Type.String({ description: 'What to fix, in plain words, in the language of Accept-Language (pt-BR or en; webhooks: en)' })),
  },
  { title: 'Rejection' },
);

export const CancellationSchema = Type.Object(
  { protocolo: Type.String(), reason: Type.String(), canceled_at: Timestamp },
  { title: 'Cancellation' },
);

export const ContingencySchema = Type.Object(
  {
    type: StringLiterals(['offline', 'epec'], {
      description: 'offline: tpEmis 9; epec: tpEmis 4, an SP issuer that chose contingency.mode epec, its EPEC registered with SP\'s EPEC service before the note goes to SP (docs/guides/nfce.md)',
    }),
    reason: Type.String({ description: 'Why the sale was issued in contingency (xJust)' }),
    entered_at: Timestamp,
    epec: Nullable(
      Type.Object(
        {
          protocol: Nullable(Type.String({ description: "The EPEC's protocol; null while it is registered but its answer was lost (read later from SP's consultation)" })),
          registered_at: Nullable(Type.String({ format: 'date-time' })),
        },
        { description: "type epec: the EPEC as SP's EPEC service registered it (event nfce.epec_registered); null until then. The DANFE prints from then on" },
      ),
    ),
    deadline_at: Type.String({ format: 'date-time', description: 'The note must reach the authority before this (24 hours, FACTS 10)' }),
    transmitted_at: Nullable(Type.String({ format: 'date-time', description: 'When the authority answered it for good: authorized, or refused (status rejected)' })),
    source: StringLiterals(['gateway', 'client'], { description: 'gateway: issued by the gateway when the authority did not answer; client: issued offline by the point of sale (POST /v1/nfce/offline)' }),
    late: Type.Boolean({ description: 'A point of sale handed it over past deadline_at: still transmitted, the authority may answer 150 "fora de prazo"' }),
    first_attempt: Nullable(
      Type.Object(
        {
          serie: Type.Integer(),
          number: Type.Integer(),
          access_key: Type.String(),
          outcome: StringLiterals(['pending', 'canceled_by_substitution', 'voided', 'authorized_kept'], {
            description:
              'pending; canceled_by_substitution (it had been authorized: event 110112); voided (its number inutilized); ' +
              'authorized_kept (it had been authorized and the contingency document was refused: it is the sale\'s valid NFC-e)',
          }),
          protocolo: Nullable(Type.String()),
          settled_at: Nullable(Type.String({ format: 'date-time' })),
        },
        { description: 'The normal-emission attempt of the same sale that the authority did not answer in time' },
      ),
    ),
  },
  { title: 'Contingency', description: 'Contingency (offline, tpEmis 9; or SP\'s EPEC, tpEmis 4): present when the sale was issued in it' },
);

const Money = Type.Number({ description: 'Reais, 2 decimals' });

/** Which IBS/CBS classification an item carries and who chose it (the gateway says what it proposed). */
const ItemReformSchema = Type.Object(
  {
    cst: Type.String({ description: 'IBS/CBS CST written in the item (IBSCBS/CST)', examples: ['000'] }),
    class_code: Type.String({ description: 'cClassTrib written in the item (IBSCBS/cClassTrib)', examples: ['000001'] }),
    source: StringLiterals(['request', 'default'], { description: 'request: the sale sent reform.cst / reform.class_code; default: the gateway proposed them (000 / 000001, or 410 / 410004 on an export CFOP)' }),
  },
  { description: 'Read-only. The item\'s IBS/CBS classification, present when the note carries the reform groups (docs/fiscal/tax-reform.md)' },
);

const NoteItemSchema = Type.Object(
  {
    nItem: Type.Integer({ description: 'Item number (det/nItem)', examples: [1] }),
    reform: Type.Optional(ItemReformSchema),
  },
  { additionalProperties: Money, description: 'nItem, the item\'s computed values and taxes in reais (vProd, vDesc, vICMS, vPIS, vCOFINS, vIBS, vCBS, vIS, vTotTrib ...) and its reform classification' },
);

/** The fields every note record has (NFC-e and NF-e alike). */
export const noteRecordFields = <O extends 'nfce' | 'nfe'>(object: O) => ({
  id: Type.String({ examples: [object === 'nfce' ? 'nfce_3kT9pW2xQa7LmZ4bN8cV' : 'nfe_8hR2mX5qWc3nV7bK1pLz'] }),
  object: Type.Literal(object),
  status: NfceStatusSchema,
  external_ref: Nullable(Type.String()),
  issuer_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  ambiente: Type.Union([Type.Literal('homologacao'), Type.Literal('producao')]),
  model: Type.Integer({ examples: [object === 'nfce' ? 65 : 55] }),
  serie: Type.Integer(),
  number: Type.Integer({ description: 'nNF' }),
  access_key: Nullable(Type.String({
    description: object === 'nfce' ? '44 positions; present once authorized' : '44 positions; present once authorized, or from signing on for an NF-e issued in EPEC (tpEmis 4: the key of its EPEC, which never changes)',
    examples: [object === 'nfce' ? '35261106157250000116650010000000011234567890' : '35261106157250000116550010000000011234567894'],
  })),
  protocolo: Nullable(Type.String({ description: 'Authorization protocol (nProt)' })),
  authorized_at: Nullable(Timestamp),
  danfe_url: Type.Optional(Type.String({ description: object === 'nfce' ? 'DANFE NFC-e PDF (when authorized)' : 'DANFE PDF, A4 (when authorized)' })),
  xml_url: Type.Optional(Type.String({ description: 'Signed nfeProc XML (when authorized)' })),
  totals: Type.Record(Type.String(), Money, { description: 'vProd, vDesc, vNF, vTroco, vTotTrib, vICMS, vIBS, vCBS, vIS, vNFTot ...' }),
  items: Type.Array(NoteItemSchema, { description: 'Per item: nItem and its computed values and taxes' }),
  rejection: Nullable(RejectionSchema),
  cancellation: Nullable(CancellationSchema),
  cancellation_pending: Type.Boolean({ description: 'A cancellation was requested and is being sent to the authority' }),
});

export const NfceRecordSchema = Type.Object(
  {
    ...noteRecordFields('nfce'),
    qrcode_url: Type.Optional(Type.String({ description: 'The URL the QR code encodes (when authorized or in contingency)' })),
    consumer: Nullable(Type.Object(
      {
        name: Nullable(Type.String()),
        tax_id: Nullable(Type.String({ description: 'CPF or CNPJ as sent' })),
      },
      { description: 'The consumer the sale named (null when none, or when the point of sale handed over a signed XML)' },
    )),
    contingency: Nullable(ContingencySchema),
  },
  { title: 'Nfce' },
);

export const NfceListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(Type.String({ maxLength: 64 })),
    issuer_id: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(NfceStatusSchema),
    external_ref: Type.Optional(Type.String({ maxLength: 255 })),
    'created_at[gte]': Type.Optional(Type.String({ format: 'date-time' })),
    'created_at[lt]': Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

export const NfceHistoryEntrySchema = Type.Object(
  {
    id: Type.String(),
    type: Type.String({ description: 'created, transmitted, consulted, authorized, rejected, denied, authority_unavailable, authority_in_doubt, cancellation_requested, canceled ...' }),
    at: Timestamp,
    code: Nullable(Type.String({ description: 'cStat, when the authority answered' })),
    message: Nullable(Type.String()),
    protocolo: Nullable(Type.String()),
  },
  { title: 'NfceEvent' },
);

export const CancelBody = Type.Object(
  {
    reason: Type.String({
      minLength: 15,
      maxLength: 255,
      description: 'Justification (xJust), 15 to 255 characters (the authority refuses shorter ones)',
      examples: ['Cliente desistiu da compra no caixa'],
    }),
  },
  { additionalProperties: false },
);
