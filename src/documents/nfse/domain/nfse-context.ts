import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import type { SigningKey } from '../../../fiscal/xml/signature/sign.js';
import type { DpsSignatureProfileName } from '../../../fiscal/xml/nfse/sign-dps.js';

/** The issuer's NFS-e data the domain needs (stored on the issuer; documents/nfse/services/nfse-issuer.ts maps it). */
export interface NfseIssuer {
  /** CNPJ (14) or CPF (11) of the provider (prest). */
  taxId: string;
  /** IM: municipal registration (TSInscMun, 1-15), when the municipality has one. */
  municipalRegistration?: string;
  /** opSimpNac: 1 not opting for Simples Nacional, 2 MEI, 3 ME/EPP. */
  simplesNacional: 1 | 2 | 3;
  /** regApTribSN (ME/EPP only, E0166/E0162). */
  simplesRegime?: 1 | 2 | 3;
  /** regEspTrib: 0 none, 1-6, 9. */
  specialRegime: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 9;
  /** cLocEmi: IBGE code (7 digits) of the issuer's municipality. */
  cityCode: string;
  phone?: string;
  email?: string;
}

/** What a DPS's content depends on, known before its number is reserved (prepareNfse). */
export interface NfseContext {
  issuer: NfseIssuer;
  tpAmb: 1 | 2;
  /** The account's taxRegime is reform_2026: the IBSCBS group may be written. */
  taxReform: boolean;
  /** The issuer's local date (YYYY-MM-DD): competence_date may not be after it (E0015). */
  today?: string;
  /** The 50-digit key of the NFS-e `substitutes.nfse_id` names (the service looks it up). */
  substitutedKey?: string;
  /** The request of that NFS-e: what a substitute may not change (Anexo I E0060, E0061). */
  substituted?: SubstitutedRequest;
  /** The reform tables in force (CST, cClassTrib, rates), when their data is installed: E0958, E0965, the IBS/CBS figures. */
  reformTables?: ReformTables;
}

/** The fields of the replaced NFS-e's request that Anexo I E0060 / E0061 compare. */
export interface SubstitutedRequest {
  competence_date: string;
  service: { national_code: string; municipal_code?: string; place_of_provision: { city_code?: string; country_code?: string } };
  tomador?: { cnpj?: string; cpf?: string };
  values: { service_amount: number };
}

/** What one numbered DPS adds (buildPreparedDps). */
export interface NfseDocumentContext {
  serie: string;
  nDPS: string;
  emittedAt: Date;
  signingKey: SigningKey;
  profile?: DpsSignatureProfileName;
  verAplic?: string;
  /** As NfseContext.reformTables: the IBS/CBS figures of the built DPS. */
  reformTables?: ReformTables;
}
