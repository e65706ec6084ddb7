import { cleanTaxId, cnpjProblem, issuerIeProblem, issuerIeStateProblem } from '../../fiscal/tax-id.js';
import { ApiError, type ErrorDetail } from '../../kernel/errors.js';
import { municipioByCode } from '../../fiscal/catalog/municipio-catalog.js';
import { checkText, type Errors } from '../../fiscal/layout/field-rules.js';
import { ufByCode } from '../../fiscal/catalog/uf-catalog.js';
import type { NfseSettingsInput } from './issuer-nfse-input.js';
import type { Ambiente, IssuerAddress, RegimeTributario } from '../../kernel/issuer.js';

export interface AddressInput {
  logradouro: string;
  numero: string;
  complemento?: string | null | undefined;
  bairro: string;
  codigo_municipio: string;
  cep: string;
  telefone?: string | null | undefined;
}

export interface NewIssuerInput {
  cnpj: string;
  razao_social: string;
  ie: string;
  uf: string;
  ambiente: Ambiente;
  regime_tributario: RegimeTributario;
  nome_fantasia?: string | null | undefined;
  endereco?: AddressInput | null | undefined;
  nfse?: NfseSettingsInput | null | undefined;
  contingency?: { mode: 'off' | 'offline' | 'epec'; wait_seconds?: number | undefined } | null | undefined;
  /** NF-e contingency while the state's authorizer is down (docs/fiscal/epec.md): svc (default) or epec. */
  nfe_contingency?: 'svc' | 'epec' | undefined;
}

/** CRT of the layout (docs/fiscal/icms-groups.md): 1 Simples Nacional, 2 SN over the sub-limit, 3 normal, 4 MEI. */
export const CRT_BY_REGIME: Record<RegimeTributario, 1 | 2 | 3 | 4> = { simples: 1, simples_excesso: 2, normal: 3, mei: 4 };

/** Collects every problem of a request before answering, so the client fixes them in one go. */
export class FieldProblems {
  readonly details: ErrorDetail[] = [];
  add(field: string, message: string | null, rule?: string): void {
    if (message) this.details.push(rule ? { field, message, rule } : { field, message });
  }
  throwIfAny(): void {
    if (this.details.length === 0) return;
    const first = this.details[0]!;
    const more = this.details.length > 1 ? ` (and ${this.details.length - 1} more)` : '';
    throw new ApiError('validation_error', `${first.field} ${first.message}${more}`, this.details);
  }
}

/**
 * Issuer text goes into every note (emit/xNome, xFant, enderEmit/*), so it obeys the rules of item
 * text (TString: Latin-1 after the usual normalization, lengths of the layout) when it is stored,
 * not when the first sale fails on it. Null and undefined are left to the
 * request schema (required fields) and mean "none" for optional ones.
 */
export function checkIssuerText(problems: FieldProblems, field: string, value: string | null | undefined, min: number, max: number): void {
  if (value === undefined || value === null) return;
  const errors: Errors = [];
  checkText(errors, field, value, min, max);
  for (const e of errors) problems.add(e.field, e.message);
}

/** Name fields of emit, with the lengths of xNome (2-60) and xFant (1-60). */
export function checkIssuerNames(problems: FieldProblems, names: { razao_social?: string | undefined; nome_fantasia?: string | null | undefined }): void {
  checkIssuerText(problems, 'razao_social', names.razao_social, 2, 60);
  // An empty or blank trade name is stored as none (see createIssuer), so only a present one is checked.
  if (names.nome_fantasia?.trim()) checkIssuerText(problems, 'nome_fantasia', names.nome_fantasia, 1, 60);
}

// People paste tax ids and phone numbers formatted; we store what the layout wants.
const digitsOnly = (v: string) => v.replace(/[.\-/\s()]/g, '');

export function normalizeCnpj(cnpj: string, problems: FieldProblems): string {
  const clean = cleanTaxId(cnpj);
  problems.add('cnpj', cnpjProblem(clean));
  return clean;
}

export function normalizeIe(ie: string, problems: FieldProblems, uf?: string): string {
  const clean = digitsOnly(ie).toUpperCase();
  const format = issuerIeProblem(clean);
  problems.add('ie', format);
  // MOC C17-20 (209): the IE must be one of the issuer's state (size, composition, check digits).
  if (!format && uf && ufByCode(uf)) problems.add('ie', issuerIeStateProblem(uf, clean), 'C17-20');
  return clean;
}

export function normalizeUf(uf: string, problems: FieldProblems): string {
  const clean = uf.trim().toUpperCase();
  problems.add('uf', ufByCode(clean) ? null : `${uf} is not a Brazilian state code (UF)`);
  return clean;
}

/** Address of the issuer (TEnderEmi): the municipality must exist and belong to the issuer's UF. */
export function normalizeAddress(a: AddressInput, uf: string, problems: FieldProblems): IssuerAddress {
  // Lengths of TEnderEmi: xLgr 2-60, nro 1-60, xCpl 1-60, xBairro 2-60.
  checkIssuerText(problems, 'endereco.logradouro', a.logradouro, 2, 60);
  checkIssuerText(problems, 'endereco.numero', a.numero, 1, 60);
  if (a.complemento?.trim()) checkIssuerText(problems, 'endereco.complemento', a.complemento, 1, 60);
  checkIssuerText(problems, 'endereco.bairro', a.bairro, 2, 60);
  const cep = digitsOnly(a.cep);
  problems.add('endereco.cep', /^[0-9]{8}$/.test(cep) ? null : 'must be 8 digits');
  const municipio = municipioByCode(a.codigo_municipio);
  if (!/^[0-9]{7}$/.test(a.codigo_municipio)) problems.add('endereco.codigo_municipio', 'must be the 7-digit IBGE code (see GET /v1/municipios)');
  else if (!municipio) problems.add('endereco.codigo_municipio', `${a.codigo_municipio} is not an IBGE municipality code (see GET /v1/municipios)`);
  else if (ufByCode(uf) && municipio.uf !== uf) {
    problems.add('endereco.codigo_municipio', `${a.codigo_municipio} (${municipio.name}) is in ${municipio.uf}, not in ${uf}`);
  }
  const telefone = a.telefone ? digitsOnly(a.telefone) : null;
  // TFone: 6 to 14 digits (area code included).
  if (telefone !== null) problems.add('endereco.telefone', /^[0-9]{6,14}$/.test(telefone) ? null : 'must be 6 to 14 digits including the area code');
  return {
    logradouro: a.logradouro.trim(),
    numero: a.numero.trim(),
    complemento: a.complemento?.trim() || null,
    bairro: a.bairro.trim(),
    codigo_municipio: a.codigo_municipio,
    cep,
    telefone,
  };
}
