import { Type } from 'typebox';
import { ListOf } from './common.js';

export const UfSchema = Type.Object(
  {
    code: Type.String({ description: 'Two-letter state code (UF)', examples: ['SP'] }),
    ibge_code: Type.String({ description: 'IBGE state code (cUF, first 2 digits of the access key)', examples: ['35'] }),
    name: Type.String({ examples: ['São Paulo'] }),
    status: Type.Union([Type.Literal('supported'), Type.Literal('configured')], {
      description: '`supported`: in production use; `configured`: addresses and state codes ready, promoted to supported over time',
    }),
  },
  { title: 'Uf' },
);

export const UfList = Type.Object({ data: Type.Array(UfSchema) }, { title: 'UfList' });

export const MunicipioSchema = Type.Object(
  {
    ibge_code: Type.String({ description: '7-digit IBGE municipality code (cMun); use it as endereco.codigo_municipio', examples: ['3550308'] }),
    name: Type.String({ examples: ['São Paulo'] }),
    uf: Type.String({ examples: ['SP'] }),
    capital: Type.Boolean({ description: 'State capital' }),
    timezone: Type.String({ description: 'IANA time zone of the municipality', examples: ['America/Sao_Paulo'] }),
  },
  { title: 'Municipio' },
);

export const MunicipioList = ListOf(MunicipioSchema, 'MunicipioList');

export const MunicipioQuery = Type.Object(
  {
    uf: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Only municipalities of this state', examples: ['SP'] })),
    q: Type.Optional(
      Type.String({ maxLength: 100, description: 'Prefix of the name; accents, case and punctuation are ignored', examples: ['sao jo'] }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)' })),
    starting_after: Type.Optional(
      Type.String({ pattern: '^[0-9]{7}$', description: 'ibge_code of the last municipality of the previous page' }),
    ),
  },
  { additionalProperties: false },
);
