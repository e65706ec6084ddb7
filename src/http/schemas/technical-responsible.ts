import { Type } from 'typebox';
import { Timestamp } from './common.js';

// infRespTec (MOC ZD01-ZD09, NT 2018.005; docs/fiscal/technical-responsible.md). Lengths are the
// layout's; formats (CNPJ check digits, e-mail, phone digits) answer 422 naming the field.
const Csrt = Type.Object(
  {
    id: Type.String({ maxLength: 2, description: 'idCSRT: the CSRT id the state gave (01 to 99)', examples: ['01'] }),
    secret: Type.String({ maxLength: 100, description: 'The CSRT itself; stored encrypted like the CSC and never returned. Each note carries hashCSRT = base64(SHA-1(CSRT + access key))' }),
  },
  { additionalProperties: false },
);

export const TechnicalResponsibleBody = Type.Object(
  {
    cnpj: Type.String({ maxLength: 18, description: 'CNPJ of the software house (14 digits; punctuation is removed)', examples: ['11222333000181'] }),
    contact: Type.String({ maxLength: 60, description: 'xContato: the person to contact (2 to 60 characters)', examples: ['Maria Souza'] }),
    email: Type.String({ maxLength: 60, description: 'E-mail of the contact (6 to 60 characters)', examples: ['fiscal@softwarehouse.com.br'] }),
    phone: Type.String({ maxLength: 20, description: 'Phone with area code, 6 to 14 digits', examples: ['4133334444'] }),
    csrt: Type.Optional(
      Type.Union([Csrt, Type.Null()], {
        description: 'The CSRT, where the state issues one. Omitted: the stored one is kept; null: removed',
      }),
    ),
  },
  { additionalProperties: false, title: 'TechnicalResponsibleBody' },
);

export const TechnicalResponsible = Type.Object(
  {
    object: Type.Literal('technical_responsible'),
    scope: Type.Enum(['account', 'issuer'], { description: '`account`: every issuer without its own; `issuer`: this issuer only' }),
    issuer_id: Type.Union([Type.String(), Type.Null()]),
    cnpj: Type.String(),
    contact: Type.String(),
    email: Type.String(),
    phone: Type.String(),
    csrt: Type.Union([Type.Object({ id: Type.String() }), Type.Null()], { description: 'The CSRT id when one is stored; the secret is never shown' }),
    updated_at: Timestamp,
  },
  {
    title: 'TechnicalResponsible',
    description:
      'The technical responsible (infRespTec) every NF-e and NFC-e carries: the software house that wrote the issuing system. ' +
      'AM, MS, PE, PR, SC and TO reject a note without it (MOC ZD01-10, cStat 972); there the gateway refuses the sale first (422, rule ZD01-10).',
  },
);

/** GET: the technical responsible, or null when none is set (then no note carries infRespTec). */
export const TechnicalResponsibleOrNone = Type.Union([TechnicalResponsible, Type.Null()], { description: 'null: none is set' });
