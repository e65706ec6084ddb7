// Inutilização (voiding a range of numbers never used), inutNFe 4.00 (docs/fiscal/inutilizacao.md; leiauteInutNFe_v4.00.xsd).
// Numbers used in offline contingency may not be voided (Ajuste SINIEF 19/16 cl. 11 §2) - the caller's rule.
import { el, leaf, NFE_NAMESPACE } from '../xml-text.js';
import { signElement, type SigningKey } from '../signature/sign.js';
import { check, CNPJ, EventInputError, justificationProblem, normalizeJustification, UF_CODES, type EventFieldError } from './event-input.js';

export interface InutilizationInput {
  tpAmb: 1 | 2;
  /** IBGE code of the issuer's state. */
  cUF: string;
  /** Year of the voided numbers, 2 digits (Tano). */
  ano: string;
  CNPJ: string;
  mod: 55 | 65;
  serie: number;
  nNFIni: number;
  nNFFin: number;
  xJust: string;
}

export interface SignedInutilization {
  /** `<inutNFe xmlns="http://www.portalfiscal.inf.br/nfe" versao="4.00">...<Signature>...</inutNFe>` */
  xml: string;
  id: string;
  digestValue: string;
}

/** Id = "ID" + cUF + ano + CNPJ + mod + serie(3) + nNFIni(9) + nNFFin(9) (`ID[0-9]{41}` in PL_009). */
export function inutilizationId(i: Pick<InutilizationInput, 'cUF' | 'ano' | 'CNPJ' | 'mod' | 'serie' | 'nNFIni' | 'nNFFin'>): string {
  const pad = (n: number, len: number) => String(n).padStart(len, '0');
  return `ID${i.cUF}${i.ano}${i.CNPJ}${i.mod}${pad(i.serie, 3)}${pad(i.nNFIni, 9)}${pad(i.nNFFin, 9)}`;
}

export function inutilizationProblems(input: InutilizationInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  const isNumber = (n: number) => Number.isInteger(n) && n >= 1 && n <= 999_999_999;
  check(errors, UF_CODES.has(input.cUF), 'cUF', 'must be the IBGE code of a state');
  check(errors, /^[0-9]{2}$/.test(input.ano), 'ano', 'must be the year with 2 digits');
  check(errors, CNPJ.test(input.CNPJ), 'CNPJ', 'must be a CNPJ without punctuation');
  check(errors, input.mod === 55 || input.mod === 65, 'mod', 'must be 55 or 65');
  check(errors, Number.isInteger(input.serie) && input.serie >= 0 && input.serie <= 999, 'serie', 'must be 0 to 999');
  check(errors, isNumber(input.nNFIni), 'nNFIni', 'must be 1 to 999999999');
  check(errors, isNumber(input.nNFFin) && input.nNFFin >= input.nNFIni, 'nNFFin', 'must be 1 to 999999999 and not below nNFIni');
  const just = justificationProblem(input.xJust);
  if (just) errors.push(just);
  return errors;
}

export function buildInutilization(input: InutilizationInput, key: SigningKey): SignedInutilization {
  const errors = inutilizationProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const id = inutilizationId(input);
  const infInut = el(
    'infInut',
    leaf('tpAmb', input.tpAmb) + leaf('xServ', 'INUTILIZAR') + leaf('cUF', input.cUF) + leaf('ano', input.ano) + leaf('CNPJ', input.CNPJ) +
      leaf('mod', input.mod) + leaf('serie', input.serie) + leaf('nNFIni', input.nNFIni) + leaf('nNFFin', input.nNFFin) +
      leaf('xJust', normalizeJustification(input.xJust)),
    [['Id', id]],
  );
  const out = signElement(el('inutNFe', infInut, [['xmlns', NFE_NAMESPACE], ['versao', '4.00']]), 'infInut', key);
  return { xml: out.xml, id, digestValue: out.digestValue };
}
