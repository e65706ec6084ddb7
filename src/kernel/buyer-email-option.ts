import { Type, type Static } from 'typebox';

/**
 * `email` of a sale (POST /v1/nfce, /v1/nfe, /v1/nfse): this note's e-mail to its buyer, over the
 * issuer's setting (PUT /v1/issuers/:id/buyer-email; docs/guides/email.md). One schema for the three
 * families, so the field reads the same in each.
 */
export const BuyerEmailOptionSchema = Type.Object(
  {
    send: Type.Optional(Type.Boolean({
      description: 'false: no e-mail for this note (neither the authorization nor the cancellation), whatever the issuer\'s setting; true: send them even where the issuer has buyer e-mail off. Left out: the issuer\'s setting decides.',
      examples: [false],
    })),
    to: Type.Optional(Type.String({
      maxLength: 254,
      pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
      description: 'Send to this address instead of the buyer\'s e-mail of the note (destinatario.email, consumer.email or tomador.email); it is not written in the XML.',
      examples: ['compras@cliente.com.br'],
    })),
  },
  {
    additionalProperties: false,
    description: 'The buyer e-mail of this note: the DANFE and the authorized XML, then a notice if it is canceled (docs/guides/email.md).',
  },
);

export type BuyerEmailOption = Static<typeof BuyerEmailOptionSchema>;
