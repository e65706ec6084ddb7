import { checkPattern, checkText, fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { isIsoCountry } from '../../../fiscal/layout/countries.js';
import { municipality } from '../../../fiscal/layout/ibge.js';
import { cleanTaxId, isValidCnpj, isValidCpf } from '../../../kernel/tax-id.js';
import type { NfseParty } from './nfse-request.js';

// The taker (toma) and the intermediary (interm), Anexo I RN DPS_NFS-e (E0188-E0300).

export type PartyRole = 'tomador' | 'intermediario';

/** The Anexo I code of a rule for the taker or the intermediary (each rule has one code per party). */
const code = (at: PartyRole, taker: string, intermediary: string) => (at === 'tomador' ? taker : intermediary);

/** The identification a party carries, once checked. */
export type PartyKind = 'cpf' | 'cnpj' | 'foreign' | undefined;

export function checkParty(errors: Errors, at: PartyRole, p: NfseParty, providerTaxId: string): PartyKind {
  const ids = (['cnpj', 'cpf', 'nif', 'no_nif_reason'] as const).filter((k) => p[k] !== undefined);
  // XSD TCInfoPessoa: xs:choice of CNPJ, CPF, NIF, cNaoNIF.
  if (ids.length !== 1) {
    fail(errors, at, 'must have exactly one of cnpj, cpf, nif or no_nif_reason');
    return undefined;
  }
  let kind: PartyKind = 'foreign';
  if (p.cnpj !== undefined) {
    kind = 'cnpj';
    const cnpj = cleanTaxId(p.cnpj);
    // Anexo I E0188 (toma) / E0248 (interm): CNPJ invalid (check digits).
    if (!isValidCnpj(cnpj)) fail(errors, `${at}.cnpj`, `is not a valid CNPJ: check the 14 characters and the two check digits (Anexo I ${code(at, 'E0188', 'E0248')})`, code(at, 'E0188', 'E0248'));
    // Anexo I E0202 / E0262: the party may not be the provider (same CNPJ root, 8 first characters).
    else if (providerTaxId.length === 14 && cnpj.slice(0, 8) === providerTaxId.slice(0, 8)) fail(errors, `${at}.cnpj`, `must not be the provider itself (same CNPJ root, Anexo I ${code(at, 'E0202', 'E0262')})`, code(at, 'E0202', 'E0262'));
  } else if (p.cpf !== undefined) {
    kind = 'cpf';
    // Anexo I E0206 / E0266: CPF invalid (check digits).
    if (!isValidCpf(cleanTaxId(p.cpf))) fail(errors, `${at}.cpf`, `is not a valid CPF: check the 11 digits and the two check digits (Anexo I ${code(at, 'E0206', 'E0266')})`, code(at, 'E0206', 'E0266'));
    // E0202/E0262 compare CNPJ roots only; Anexo I has no such rule for a CPF.
  } else if (p.nif !== undefined) {
    checkText(errors, `${at}.nif`, p.nif, 1, 40); // TSNIF
  }
  checkText(errors, `${at}.name`, p.name, 1, 300); // TSNomeRazaoSocial; E0233/E0292: name required with NIF
  checkText(errors, `${at}.municipal_registration`, p.municipal_registration, 1, 15, false); // TSInscMun
  // Anexo I E0247 / E0300: e-mail with the structure of an address (an @ and a dot).
  if (p.email !== undefined) {
    checkText(errors, `${at}.email`, p.email, 1, 80);
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(p.email)) fail(errors, `${at}.email`, 'is not an e-mail address (name@domain.tld)', code(at, 'E0247', 'E0300'));
  }
  checkPattern(errors, `${at}.phone`, p.phone, /^[0-9]{6,20}$/, 'must be 6 to 20 digits', false);
  checkAddress(errors, at, p, kind);
  return kind;
}

function checkAddress(errors: Errors, at: PartyRole, p: NfseParty, kind: PartyKind): void {
  const a = p.address;
  const base = `${at}.address`;
  if (!a) {
    // Anexo I E0235: a taker identified by CNPJ needs a national address (tpEmit 1).
    if (at === 'tomador' && kind === 'cnpj') fail(errors, base, 'is required for a taker identified by CNPJ (Anexo I E0235)');
    // E0242 / E0298: a party identified by NIF needs an address abroad when the issuer has a CNPJ; asked always here.
    if (p.nif !== undefined) fail(errors, base, `is required abroad (country_code, postal_code, city, state_region) for a party identified by NIF (Anexo I ${code(at, 'E0242', 'E0298')})`, code(at, 'E0242', 'E0298'));
    return;
  }
  checkText(errors, `${base}.street`, a.street, 1, 255);
  checkText(errors, `${base}.number`, a.number, 1, 60);
  checkText(errors, `${base}.complement`, a.complement, 1, 156, false);
  checkText(errors, `${base}.district`, a.district, 1, 60);
  const abroad = a.country_code !== undefined;
  if (abroad) {
    if (a.city_code !== undefined || a.cep !== undefined) fail(errors, base, 'give either city_code and cep (Brazil) or country_code (abroad), not both');
    // Anexo I E0246 / E0299: an existing country (ISO 3166-1 alpha-2) other than Brazil.
    if (checkPattern(errors, `${base}.country_code`, a.country_code, /^[A-Z]{2}$/, 'must be an ISO alpha-2 country code other than BR') && (a.country_code === 'BR' || !isIsoCountry(a.country_code!))) {
      fail(errors, `${base}.country_code`, `must be an ISO 3166-1 alpha-2 country code other than BR (Anexo I ${code(at, 'E0246', 'E0299')})`, code(at, 'E0246', 'E0299'));
    }
    checkText(errors, `${base}.postal_code`, a.postal_code, 1, 11);
    checkText(errors, `${base}.city`, a.city, 1, 60);
    checkText(errors, `${base}.state_region`, a.state_region, 1, 60);
    // Anexo I E0223 / E0281: an address abroad needs NIF or cNaoNIF.
    if (kind !== 'foreign') fail(errors, base, `an address abroad needs a party identified by nif or no_nif_reason (Anexo I ${code(at, 'E0223', 'E0281')})`, code(at, 'E0223', 'E0281'));
  } else {
    // Anexo I E0238 (toma) / E0294 (interm): a municipality of the IBGE table.
    if (checkPattern(errors, `${base}.city_code`, a.city_code, /^[0-9]{7}$/, 'must be the 7-digit IBGE municipality code (or give country_code for an address abroad)') && !municipality(a.city_code!)) {
      fail(errors, `${base}.city_code`, `is not a municipality of the IBGE table (Anexo I ${code(at, 'E0238', 'E0294')})`, code(at, 'E0238', 'E0294'));
    }
    checkPattern(errors, `${base}.cep`, a.cep, /^[0-9]{8}$/, 'must be 8 digits');
    if (p.nif !== undefined) fail(errors, `${base}.country_code`, `is required: a party identified by NIF has an address abroad (Anexo I ${code(at, 'E0242', 'E0298')})`, code(at, 'E0242', 'E0298'));
  }
}
