import { Type } from 'typebox';
import { ListOf } from './common.js';

export const UfSchema = Type.Object(
  {
    code: Type.String({ description: 'Two-letter state code (UF)', examples: ['SP'] }),
    ibge_code: Type.String({ description: 'IBGE state code (cUF, first 2 digits of the access key)', examples: ['35'] }),
    name: Type.String({ examples: ['São Paulo'] }),
    status: Type.Union([Type.Literal('supported'), Type.Literal('configured')], {
      description:
        '`supported`: its data is complete (authorizers, endpoints, QR and consultation URLs, rules) and the sandbox simulator plays its rules, ' +
        'with a sale authorized and cancelled there end to end; `configured`: `missing` says what is not there yet',
    }),
    missing: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Only for `configured`: state_facts, nfe_endpoints, nfce_endpoints, nfce_qr_urls, authorizer (the endpoint table disagrees), ie_check_digits, end_to_end_test',
      }),
    ),
    rules: Type.Optional(
      Type.Object(
        {
          nfe_authorizer: Type.String({ description: 'Who authorizes its NF-e: the state itself, SVRS or SVAN', examples: ['SP'] }),
          nfce_authorizer: Type.String({ description: 'Who authorizes its NFC-e', examples: ['SVRS'] }),
          svc: Type.Union([Type.Literal('SVC-AN'), Type.Literal('SVC-RS')], { description: 'NF-e contingency authority (tpEmis 6 SVC-AN, 7 SVC-RS)' }),
          resp_tec_required: Type.Boolean({ description: 'The technical responsible (infRespTec) is required (MOC ZD01-10): set PUT /v1/account/technical-responsible' }),
          nfce_cancel_minutes: Type.Integer({ description: 'NFC-e cancellation window after authorization' }),
          nfe_cancel_hours: Type.Integer({ description: 'NF-e cancellation window after authorization' }),
        },
        { description: 'What the state adds to the national rules (docs/fiscal/states.md)' },
      ),
    ),
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
