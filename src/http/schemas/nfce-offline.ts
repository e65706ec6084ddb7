import { Type, type Static } from 'typebox';
import { SaleSchema } from '../../documents/nfce/domain/sale.js';

// POST /v1/nfce/offline: an NFC-e the point of sale issued itself in offline
// contingency (docs/fiscal/offline-contingency.md), in one of two forms.

/** The values the point of sale printed; the gateway builds the document with exactly these. */
export const OfflineParamsSchema = Type.Object(
  {
    serie: Type.Integer({ minimum: 0, maximum: 999, description: "The point of sale's own series (not the gateway's series 1; below 890, FACTS 1).", examples: [600] }),
    number: Type.Integer({ minimum: 1, maximum: 999_999_999, description: 'nNF the point of sale gave the sale in its series.', examples: [1042] }),
    cnf: Type.String({ pattern: '^[0-9]{8}$', description: 'cNF, the 8 random digits of the access key the point of sale drew.', examples: ['48213907'] }),
    issued_at: Type.String({ format: 'date-time', description: "dhEmi: when the sale was issued (ISO 8601 with offset; written in the issuer's time zone, whole seconds).", examples: ['2026-11-26T14:03:11-03:00'] }),
    contingency_at: Type.String({ format: 'date-time', description: 'dhCont: when the point of sale entered contingency (not after issued_at).', examples: ['2026-11-26T13:58:00-03:00'] }),
    reason: Type.String({ minLength: 15, maxLength: 256, description: 'xJust: why the authority could not be reached, 15-256 characters.', examples: ['Sem conexao com a internet no caixa 3'] }),
    access_key: Type.Optional(Type.String({ pattern: '^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$', description: 'The key the point of sale printed: checked against the one these values give.' })),
  },
  { additionalProperties: false },
);

// The point of sale numbered the sale in its own series (offline.serie) and it is already a fiscal
// document: the gateway's series and the external_ref guard do not apply.
const { series: _series, allow_duplicate_external_ref: _allow, ...offlineSaleFields } = SaleSchema.properties;

export const OfflineSaleBody = Type.Object(
  { ...offlineSaleFields, offline: OfflineParamsSchema },
  { additionalProperties: false, title: 'OfflineNfceSale', description: 'The sale as for POST /v1/nfce, plus the values the point of sale printed.' },
);

export const OfflineXmlBody = Type.Object(
  {
    xml: Type.String({ minLength: 1, maxLength: 5_000_000, description: 'The NFe (tpEmis 9) as the point of sale printed it: signed with the issuer certificate (kept byte for byte), or unsigned (the gateway signs it).' }),
    issuer_id: Type.Optional(Type.String({ description: 'Issuer id; when absent, the issuer with the CNPJ of emit (and the tpAmb of the document).' })),
    external_ref: Type.Optional(Type.String({ description: 'Your own order reference.' })),
  },
  { additionalProperties: false, title: 'OfflineNfceXml' },
);

export const OfflineNfceBody = Type.Union([OfflineXmlBody, OfflineSaleBody], {
  description: 'Either `{xml}` (the signed NFe) or the sale JSON with `offline` (the gateway builds and signs it).',
});

export type OfflineSaleBodyType = Static<typeof OfflineSaleBody>;
