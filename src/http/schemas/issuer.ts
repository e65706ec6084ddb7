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

// What an issuer needs to issue NFS-e (DPS XSD TCInfoPrestador / TCRegTrib; docs/fiscal/nfse-national.md#dps, docs/fiscal/nfse-national.md#signature).
const SimplesRegime = Type.Enum([1, 2, 3], {
  type: 'integer',
  description:
    'regApTribSN, only for a Simples Nacional ME/EPP (`regime_tributario` simples or simples_excesso), where it is required (Anexo I E0162, E0166): ' +
    '1 federal taxes and ISSQN through the SN, 2 federal taxes through the SN and ISSQN outside it, 3 both outside the SN',
});
const SpecialRegime = Type.Enum([0, 1, 2, 3, 4, 5, 6, 9], {
  type: 'integer',
  description: 'regEspTrib: 0 none, 1 cooperative act, 2 estimate, 3 municipal micro-enterprise, 4 notary or registrar, 5 self-employed professional, 6 professional partnership, 9 other. 0 for a MEI (E0174) and for an ME/EPP with simples_regime 1 (E0175)',
});
const DpsSeries = Type.Integer({ minimum: 1, maximum: 49_999, description: "Series of the DPS: 1 to 49999, the range of the taxpayer's own software (Anexo I E0010)" });
const SignatureProfile = Type.Enum(['rsa-sha1-c14n', 'rsa-sha256-exc-c14n'], {
  description: 'How the DPS is signed: `rsa-sha1-c14n` (RSA-SHA1, inclusive C14N: the profile of DPS seen accepted by Sefin) or `rsa-sha256-exc-c14n` (RSA-SHA256, exclusive C14N)',
});

export const NfseSettingsInput = Type.Object(
  {
    municipal_registration: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 15, description: 'IM: municipal registration (1 to 15 characters), only where the municipality has one; null removes it', examples: ['12345'] })),
    ),
    simples_regime: Type.Optional(Type.Union([SimplesRegime, Type.Null()])),
    special_regime: Type.Optional(SpecialRegime),
    dps_series: Type.Optional(DpsSeries),
    signature_profile: Type.Optional(SignatureProfile),
  },
  {
    additionalProperties: false,
    description:
      'NFS-e settings of the issuer. The fields sent replace the stored ones and the others stay (on PATCH, `{"dps_series": 2}` changes only the series); ' +
      'a first configuration starts from special_regime 0, dps_series 1, signature_profile rsa-sha1-c14n, no municipal_registration or simples_regime. ' +
      '`nfse: null` on PATCH removes the settings (NFS-e not configured).',
  },
);

export const ContingencySettings = Type.Object(
  {
    mode: Type.Union([Type.Literal('off'), Type.Literal('offline'), Type.Literal('epec')], {
      description: 'offline: when the authority does not answer a sale in time, or is known to be down, the gateway issues it as an offline contingency NFC-e (tpEmis 9) and transmits it later (FACTS 10); ' +
        "epec (SP issuers only): the sale is issued with tpEmis 4, its EPEC registered with SP's EPEC service, and the note sent to SP under the same key once SP answers (docs/guides/nfce.md); off: the sale waits for the authority",
      examples: ['offline'],
    }),
    wait_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 3, description: 'How long a sale waits for the authority before contingency, unless the request says `Prefer: wait=N`', examples: [3] })),
  },
  { additionalProperties: false, description: 'NFC-e offline contingency (docs/guides/nfce.md). Null: the environment\'s default (offline in the sandbox, off in production).' },
);

export const NfeContingency = Type.Union([Type.Literal('svc'), Type.Literal('epec')], {
  description: "NF-e contingency while the state's authorizer is down (its breaker open): svc (default) sends the note to the state's SVC (tpEmis 6/7, another key); " +
    'epec issues it with tpEmis 4, registers its EPEC (event 110140) at the Ambiente Nacional, and sends it to the state under the same key when the state is back (docs/guides/nfe.md#epec-evento-prévio-de-emissão-em-contingência)',
  examples: ['epec'],
});

export const CreateIssuerBody = Type.Object(
  {
    cnpj: Type.String({
      maxLength: 18,
      description: '14 positions; digits, or the 2026 alphanumeric CNPJ (12 of [0-9A-Z] + 2 check digits). Punctuation is removed.',
      examples: ['06157250000116'],
    }),
    razao_social: Type.String({ minLength: 2, maxLength: 60, description: 'Legal name', examples: ['Padaria Exemplo Ltda'] }),
    ie: Type.String({ maxLength: 20, description: 'State registration: 2 to 14 digits, valid for the issuer uf (size and check digits by the algorithm of that state, MOC C17-20; ISENTO is not accepted for an NFC-e issuer)', examples: ['110042490114'] }),
    uf: Type.String({ minLength: 2, maxLength: 2, description: 'State code (GET /v1/ufs)', examples: ['SP'] }),
    ambiente: Ambiente,
    regime_tributario: Regime,
    nome_fantasia: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 60, description: 'Trade name' }))),
    endereco: Type.Optional(AddressInput),
    nfse: Type.Optional(NfseSettingsInput),
    contingency: Type.Optional(ContingencySettings),
    nfe_contingency: Type.Optional(NfeContingency),
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
    nfse: Type.Optional(Type.Union([NfseSettingsInput, Type.Null()], { description: 'Merged into the stored NFS-e settings; null removes them' })),
    contingency: Type.Optional(Type.Union([ContingencySettings, Type.Null()], { description: 'Replaces the contingency settings; null returns to the environment\'s default' })),
    nfe_contingency: Type.Optional(NfeContingency),
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

/** Where a certificate's key is wrapped (infra/security/key-provider.ts KEY_STORAGE_MODES). */
export const StorageMode = Type.Enum(['envelope', 'pkcs11', 'aws-kms'], {
  description: '`envelope`: under the local master key; `pkcs11`: under a key inside an HSM token; `aws-kms`: under an AWS KMS key',
});

const CertificateStatus = Type.Object(
  {
    status: Type.Enum(['missing', 'valid', 'expired', 'not_yet_valid']),
    subject: Type.Union([Type.String(), Type.Null()]),
    cnpj: Type.Union([Type.String(), Type.Null()], { description: 'CNPJ found in the certificate' }),
    serial_number: Type.Union([Type.String(), Type.Null()]),
    not_before: Type.Union([Timestamp, Type.Null()]),
    not_after: Type.Union([Timestamp, Type.Null()]),
    storage_mode: Type.Union([StorageMode, Type.Null()], { description: 'How the key is stored (see GET /v1/hsm/status)' }),
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
    nfse: Type.Union(
      [
        Type.Object({
          municipal_registration: Type.Union([Type.String(), Type.Null()]),
          simples_regime: Type.Union([SimplesRegime, Type.Null()]),
          special_regime: SpecialRegime,
          dps_series: DpsSeries,
          signature_profile: SignatureProfile,
        }),
        Type.Null(),
      ],
      { description: 'NFS-e settings; null while NFS-e is not configured (PATCH /v1/issuers/{id} with `nfse`)' },
    ),
    contingency: Type.Union([Type.Object({ mode: Type.Union([Type.Literal('off'), Type.Literal('offline'), Type.Literal('epec')]), wait_seconds: Type.Integer() }), Type.Null()], {
      description: "NFC-e offline contingency settings; null: the environment's default (offline in the sandbox, off in production)",
    }),
    nfe_contingency: NfeContingency,
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
    archived_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the issuer was archived (read-only: issues nothing, changes no setting, not counted by the plan); null when active',
    }),
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
    storage_mode: StorageMode,
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

/** GET /v1/issuers: the page, optionally only archived (`true`) or only active (`false`) issuers. */
export const IssuerListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100)' })),
    starting_after: Type.Optional(Type.String({ maxLength: 64, description: 'Id of the last item of the previous page' })),
    archived: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: '`true`: only archived issuers; `false`: only active ones; absent: all' })),
  },
  { additionalProperties: false },
);
