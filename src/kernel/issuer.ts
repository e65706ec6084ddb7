// The issuer: the company an account issues notes for, as the use cases speak of it (identity, address,
// regime, environment, its NFS-e, contingency and DANFE settings, and a summary of its certificate and CSC).
// In the kernel because both the platform (which registers and shows issuers) and the document families
// (which issue from one) read it, the platform never imports the documents, and the issuers repository
// (infra/storage/repositories/issuer-repository.ts) maps its rows to it; the kernel is the one floor all
// three stand on. Its table's row type stays inside that repository.

export type Ambiente = 'homologacao' | 'producao';
export type RegimeTributario = 'simples' | 'simples_excesso' | 'normal' | 'mei';

/** Where a secret's master key is kept (infra/security/key-provider.ts takes this list from here). */
export type KeyStorageMode = 'envelope' | 'pkcs11' | 'aws-kms';

export interface IssuerAddress {
  logradouro: string;
  numero: string;
  complemento?: string | null;
  bairro: string;
  codigo_municipio: string;
  cep: string;
  telefone?: string | null;
}

/** The issuer's NFS-e settings (migration 16), stored whole with defaults applied. */
export interface IssuerNfseSettings {
  /** IM (TSInscMun, 1-15), when the municipality has one. */
  municipal_registration: string | null;
  /** regApTribSN 1-3: only for a Simples Nacional ME/EPP. */
  simples_regime: 1 | 2 | 3 | null;
  /** regEspTrib: 0 none, 1-6, 9. */
  special_regime: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 9;
  /** DPS series, 1-49999 (own software, Anexo I E0010). */
  dps_series: number;
  signature_profile: 'rsa-sha1-c14n' | 'rsa-sha256-exc-c14n';
}

/**
 * NFC-e contingency: `offline` lets the gateway issue tpEmis 9 when the authority does not answer; `epec` (only
 * where the state runs an NFC-e EPEC, SP) issues tpEmis 4 and registers its EPEC with the state's EPEC service.
 */
export interface IssuerContingencySettings {
  mode: 'off' | 'offline' | 'epec';
  /** How long a sale waits for the authority before it is issued in contingency (1-10 s). */
  wait_seconds: number;
}

/** How the issuer's DANFE looks: each null is the default. */
export interface IssuerDanfeSettings {
  primary_color: string | null;
  footer_text: string | null;
  logo_type: string | null;
  logo: Buffer | null;
}

/** What is known of the issuer's A1 certificate without opening it (never the key or the password). */
export interface IssuerCertificateSummary {
  /** Bumped by every replacement: the signing material kept in memory is reused while it holds. */
  version: number;
  subject: string;
  cnpj: string | null;
  serial_number: string;
  not_before: Date;
  not_after: Date;
  storage_mode: KeyStorageMode;
}

/** What is known of the issuer's CSC (NFC-e QR code) without opening it. */
export interface IssuerCscSummary {
  version: number;
  id_csc: string;
  registered_at: Date;
}

/** An issuer registered with the gateway. */
export interface RegisteredIssuer {
  id: string;
  account_id: string;
  cnpj: string;
  razao_social: string;
  nome_fantasia: string | null;
  ie: string;
  uf: string;
  ambiente: Ambiente;
  regime_tributario: RegimeTributario;
  endereco: IssuerAddress | null;
  /** Null while NFS-e is not configured. */
  nfse: IssuerNfseSettings | null;
  /** Null: the environment's default (offline in the sandbox, off in production). */
  contingency: IssuerContingencySettings | null;
  /** NF-e contingency while the state's authorizer is down (migration 55): SVC (default) or EPEC (docs/fiscal/epec.md). */
  nfe_contingency?: 'svc' | 'epec';
  danfe: IssuerDanfeSettings;
  /** Set while the issuer is archived (read-only, not counted by the plan). */
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Null until a certificate is uploaded. */
  certificate: IssuerCertificateSummary | null;
  /** Null until a CSC is registered. */
  csc: IssuerCscSummary | null;
}

/** The technical responsible (infRespTec) a sale of the issuer carries: its own, else its account's. */
export interface IssuerRespTec {
  owner_id: string;
  issuer_id: string | null;
  version: string;
  cnpj: string;
  contact: string;
  email: string;
  phone: string;
  csrt_id: string | null;
  /** Envelope blob of the CSRT (SecretBox); never leaves the emission path. */
  csrt_blob: string | null;
}

/**
 * The issuer as a sale is built from it: with its account's tax regime, the technical responsible
 * and `basis`, the text the statement storing the note checks unchanged (EMISSION_BASIS_SQL).
 */
export interface IssuerForEmission extends RegisteredIssuer {
  account_tax_regime: string;
  basis: string;
  resp_tec?: IssuerRespTec | null;
}
