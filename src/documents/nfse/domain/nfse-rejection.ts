import { nfseCode } from '../../../fiscal/nfse-codes/nfse-codes.js';
import { dpsPathToField } from './dps-path-to-field.js';

// Sefin's `erros` (docs/fiscal/nfse-national.md#calls: {codigo, descricao, complemento}) -> the note's rejection object
// (docs/decisions.md#api-conventions: code, the authority's message, the request field to fix, a hint). The field comes from the
// XML path Anexo I gives the code, or for a schema failure (E1235) from the path in the complement.

export interface NfseRejection {
  code: string;
  message: string;
  field: string | null;
  hint: string | null;
  /** Every error Sefin listed, when it listed more than one. */
  errors?: Array<{ code: string; message: string; field: string | null }>;
}

interface AuthorityError {
  code: string;
  description: string;
  complement?: string | undefined;
}

// What to do about the codes a caller meets first; the rest get the official message and the field.
export const NFSE_HINTS: Record<string, string> = {
  E0714: 'Sefin refused the DPS signature. Check that the issuer\'s certificate is valid; if it is, switch the signature profile (PATCH /v1/issuers/:id with nfse.signature_profile "rsa-sha256-exc-c14n" or "rsa-sha1-c14n", FACTS 16.6) and send the sale again.',
  E0715: 'The certificate is expired, revoked or its chain cannot be checked: upload a current ICP-Brasil A1 (POST /v1/issuers/:id/certificate).',
  E0716: 'The certificate is not an ICP-Brasil e-CNPJ/e-CPF: upload one whose holder is the provider.',
  E0717: 'The DPS must be signed: upload the issuer\'s certificate (POST /v1/issuers/:id/certificate).',
  E0718: 'The DPS was signed with a certificate of someone other than the provider: upload the provider\'s own e-CNPJ.',
  E1235: 'The DPS failed the national XSD at the element named in the message; correct that field and send the sale again.',
  E0014: 'This series and number already produced an NFS-e. The gateway recovers that NFS-e by its DPS Id; if this persists, the number was used outside the gateway: move nfse.dps_series.',
  E0004: 'The DPS Id does not match its fields: this is the gateway\'s fault; report it with the note id.',
};

function one(e: AuthorityError): { code: string; message: string; field: string | null } {
  const code = e.code.trim().toUpperCase();
  const official = nfseCode(code);
  const message = [e.description?.trim() || official?.message || `Sefin answered ${code || 'an error without a code'}`, e.complement?.trim()].filter(Boolean).join(' - ');
  // E1235's complement carries libxml2's path or element name ("Element '{...}CEP': ...").
  const schemaElement = code === 'E1235' ? /(?:\/DPS\/[^\s:'"]+)|Element '\{[^}]*\}(\w+)'/.exec(e.complement ?? '') : null;
  const field = schemaElement
    ? schemaElement[1]
      ? null
      : dpsPathToField(schemaElement[0])
    : official?.xmlPath
      ? dpsPathToField(official.xmlPath)
      : null;
  return { code, message, field };
}

export function explainNfseRejection(errors: readonly AuthorityError[]): NfseRejection {
  const list = errors.length > 0 ? errors.map(one) : [{ code: 'E0000', message: 'Sefin refused the DPS without saying why', field: null }];
  const first = list[0]!;
  const hint = NFSE_HINTS[first.code] ?? (first.field ? `Correct ${first.field} (${first.code}: Anexo I/II of the national NFS-e) and send the sale again.` : null);
  return { ...first, hint, ...(list.length > 1 ? { errors: list } : {}) };
}
