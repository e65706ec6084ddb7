import { Type } from 'typebox';
import { ListOf, Timestamp } from './common.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

const Ambiente = Type.Enum(['homologacao', 'producao'], { description: '`homologacao` for testing, `producao` for real notes (tpAmb 2 / 1)' });
const Regime = Type.Enum(['simples', 'simples_excesso', 'normal', 'mei'], {
  description: 'Tax regime, written as CRT: `simples` 1 (Simples Nacional), `simples_excesso` 2 (over the sub-limit), `normal` 3, `mei` 4',
});

// Lengths follow TEnderEmi of the layout; formats (CEP, municipality, phone) are checked with plain-words errors.
export const AddressInput = Type.Object(
  {
    logradouro: Type.String({ minLength: 2, maxLength: 60, examples: ['Avenida Paulista'] }),
    numero: Type.String({ minLength: 1, maxLength: 60, examples: ['1000'] }),
    complemento: Type.Optional(Nullable(Type.String({ maxLength: 60 }))),
    bairro: Type.String({ minLength: 2, maxLength: 60, examples: ['Bela Vista'] }),
    codigo_municipio: Type.String({ maxLength: 7, description: '7-digit IBGE code of a municipality of `uf` (GET /v1/municipios)', examples: ['3550308'] }),
    cep: Type.String({ maxLength: 9, description: '8 digits (a hyphen is accepted)', examples: ['01310100'] }),
    telefone: Type.Optional(Nullable(Type.String({ maxLength: 20, description: '6 to 14 digits with area code', examples: ['1133334444'] }))),
  },
  { additionalProperties: false, description: 'Address of the establishment (printed on the DANFE, required before emitting)' },
);

export const CreateIssuerBody = Type.Object(
  {
    cnpj: Type.String({
      maxLength: 18,
      description: '14 positions; digits, or the 2026 alphanumeric CNPJ (12 of [0-9A-Z] + 2 check digits). Punctuation is removed.',
      examples: ['06157250000116'],
    }),
    razao_social: Type.String({ minLength: 2, maxLength: 60, description: 'Legal name', examples: ['Padaria Exemplo Ltda'] }),
    ie: Type.String({ maxLength: 20, description: 'State registration: 2 to 14 digits (ISENTO is not accepted for an NFC-e issuer)', examples: ['110042490114'] }),
    uf: Type.String({ minLength: 2, maxLength: 2, description: 'State code (GET /v1/ufs)', examples: ['SP'] }),
    ambiente: Ambiente,
    regime_tributario: Regime,
    nome_fantasia: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 60, description: 'Trade name' }))),
    endereco: Type.Optional(AddressInput),
  },
  { additionalProperties: false },
);

export const PatchIssuerBody = Type.Object(
  {
    razao_social: Type.Optional(Type.String({ minLength: 2, maxLength: 60 })),
    nome_fantasia: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 60 }))),
    ie: Type.Optional(Type.String({ maxLength: 20 })),
    regime_tributario: Type.Optional(Regime),
    endereco: Type.Optional({ ...AddressInput, description: 'Replaces the whole address' }),
    cnpj: Type.Optional(Type.String({ maxLength: 18, description: 'Cannot be changed; accepted only when equal to the current value' })),
    uf: Type.Optional(Type.String({ maxLength: 2, description: 'Cannot be changed' })),
    ambiente: Type.Optional(Type.String({ maxLength: 20, description: 'Cannot be changed: register another issuer for the other environment' })),
  },
  { additionalProperties: false },
);

export const DanfeSettingsBody = Type.Object(
  {
    danfeLogo: Type.Optional(
      Nullable(Type.String({ maxLength: 360_000, description:
          'PNG or JPEG as a data URL (`data:image/png;base64,...`), at most 256 KiB decoded, at most 1024x1024 and 262144 pixels ' +
          '(e.g. 512x512); stored normalized for printing (transparency flattened onto white, 8-bit greyscale/RGB PNG or baseline JPEG); null removes it' })),
    ),
    danfePrimaryColor: Type.Optional(Nullable(Type.String({ maxLength: 7, description: 'Color as #RRGGBB; null restores the default', examples: ['#1A73E8'] }))),
    danfeFooterText: Type.Optional(Nullable(Type.String({ maxLength: 400, description: 'Footer text, at most 200 characters; null removes it' }))),
  },
  { additionalProperties: false },
);

const CertificateStatus = Type.Object(
  {
    status: Type.Enum(['missing', 'valid', 'expired', 'not_yet_valid']),
    subject: Type.Union([Type.String(), Type.Null()]),
    cnpj: Type.Union([Type.String(), Type.Null()], { description: 'CNPJ found in the certificate' }),
    serial_number: Type.Union([Type.String(), Type.Null()]),
    not_before: Type.Union([Timestamp, Type.Null()]),
    not_after: Type.Union([Timestamp, Type.Null()]),
    storage_mode: Type.Union([Type.Enum(['envelope', 'aws-kms']), Type.Null()], { description: 'How the key is stored (see GET /v1/hsm/status)' }),
  },
  { title: 'IssuerCertificateStatus', description: 'Facts about the uploaded A1 certificate; the key and password are never returned' },
);

export const Issuer = Type.Object(
  {
    id: Type.String({ examples: ['iss_2Yb8kQ1xRz7tLm4NcP0v'] }),
    object: Type.Literal('issuer'),
    cnpj: Type.String(),
    razao_social: Type.String(),
    nome_fantasia: Type.Union([Type.String(), Type.Null()]),
    ie: Type.String(),
    uf: Type.String(),
    ambiente: Ambiente,
    regime_tributario: Regime,
    crt: Type.Integer({ description: 'CRT written in the XML (1, 2, 3 or 4)' }),
    endereco: Type.Union([
      Type.Object({
        logradouro: Type.String(),
        numero: Type.String(),
        complemento: Type.Union([Type.String(), Type.Null()]),
        bairro: Type.String(),
        codigo_municipio: Type.String(),
        municipio: Type.Union([Type.String(), Type.Null()], { description: 'Name of the municipality' }),
        cep: Type.String(),
        telefone: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ]),
    danfe_settings: Type.Object({
      danfeLogo: Type.Union([Type.String(), Type.Null()], { description: 'Data URL of the logo' }),
      danfePrimaryColor: Type.Union([Type.String(), Type.Null()]),
      danfeFooterText: Type.Union([Type.String(), Type.Null()]),
    }),
    certificate: CertificateStatus,
    csc: Type.Union([Type.Object({ id_csc: Type.String(), registered_at: Timestamp }), Type.Null()], {
      description: 'The registered CSC id; the CSC itself is never returned',
    }),
    ready: Type.Boolean({ description: 'Whether the issuer can emit: address, valid certificate and CSC present' }),
    missing: Type.Array(Type.String(), { description: 'What is still missing before emitting (endereco, certificate, csc)' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Issuer' },
);

export const IssuerList = ListOf(Issuer, 'IssuerList');

export const CertificateUploadBody = Type.Object(
  {
    pfx: Type.String({ format: 'binary', description: 'A1 certificate file (.pfx / .p12), at most 64 KiB' }),
    password: Type.String({ description: 'Password of the .pfx file; used once to open it, never stored' }),
  },
  { required: ['pfx', 'password'] },
);

export const CertificateUploaded = Type.Object(
  {
    issuer_id: Type.String(),
    status: Type.Enum(['valid', 'expired']),
    subject: Type.String(),
    cnpj: Type.Union([Type.String(), Type.Null()]),
    cpf: Type.Union([Type.String(), Type.Null()]),
    serial_number: Type.String(),
    issuer: Type.String({ description: 'Distinguished name of the certificate authority' }),
    fingerprint_sha256: Type.String(),
    not_before: Timestamp,
    not_after: Timestamp,
    storage_mode: Type.Enum(['envelope', 'aws-kms']),
    uploaded_at: Timestamp,
    warnings: Type.Array(Type.String(), { description: 'Accepted with reservations (sandbox only), e.g. a certificate without a CNPJ' }),
  },
  { title: 'CertificateUploaded' },
);

export const CscBody = Type.Object(
  {
    id_csc: Type.String({ pattern: '^[0-9]{1,6}$', description: 'CSC id given by the state (1 to 6 digits, as text)', examples: ['000001'] }),
    csc: Type.String({ pattern: '^[0-9A-Za-z]{16,36}$', description: 'The CSC (16 to 36 letters and digits); stored encrypted, never returned' }),
  },
  { additionalProperties: false },
);

export const CscRegistered = Type.Object({ id_csc: Type.String(), registered_at: Timestamp }, { title: 'CscRegistered' });
