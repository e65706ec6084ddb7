import { formatCents, toCents } from '../../../kernel/decimal.js';
import { cleanTaxId, isValidCnpj, isValidCpf } from '../../../kernel/tax-id.js';
import { checkAddressLines, checkNumber, checkPattern, checkText, fail, MONEY, OPTIONAL_MONEY, type Errors } from '../../../fiscal/layout/field-rules.js';
import { municipality, ufCode } from '../../../fiscal/layout/ibge.js';
import { checkCarrier, freightModeOf } from '../../goods/domain/transport.js';
import { INDICADORES_IE, type NfeAddress, type NfeRequest } from './nfe-request.js';
import { destinationOf, isAbroad } from './operation.js';
import { checkRecipientIe } from './validate-nfe-registrations.js';

// Checks of the NF-e parts around the items: recipient, freight, billing and
// authorized downloaders. Each error names the request field and says what to do.

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkAddress(errors: Errors, at: string, a: NfeAddress): void {
  checkAddressLines(errors, at, a);
  if (checkPattern(errors, `${at}.country_code`, a.country_code, /^[0-9]{1,4}$/, 'must be the BACEN country code (1-4 digits; 1058 Brazil)', false) && isAbroad(a)) {
    checkText(errors, `${at}.country`, a.country, 2, 60);
    // Abroad, cMun is 9999999 and UF is EX (TEndereco documentation): no Brazilian state or city code.
    if (a.uf !== undefined) fail(errors, `${at}.uf`, 'is not used for an address abroad (the layout writes EX)');
    if (a.city_code !== undefined) fail(errors, `${at}.city_code`, 'is not used for an address abroad (the layout writes 9999999)');
    return;
  }
  checkText(errors, `${at}.country`, a.country, 2, 60, false);
  if (!a.uf || !ufCode(a.uf)) return fail(errors, `${at}.uf`, 'must be a two-letter Brazilian state (e.g. RJ), or give country_code for an address abroad');
  if (checkPattern(errors, `${at}.city_code`, a.city_code, /^[0-9]{7}$/, 'must be the 7-digit IBGE municipality code')) {
    const m = municipality(a.city_code!);
    if (!m) fail(errors, `${at}.city_code`, 'is not an IBGE municipality code (MOC E10-10, 274)', 'E10-10');
    else if (m.cUF !== ufCode(a.uf)) fail(errors, `${at}.city_code`, `belongs to another state than ${a.uf}: give a municipality of ${a.uf} (MOC E10-20, 275)`, 'E10-20');
  }
}

/** Recipient checks (MOC E01-E17); returns idDest when the address says it. */
export function checkDestinatario(errors: Errors, req: NfeRequest, issuerUf: string): 1 | 2 | 3 | undefined {
  const d = req.destinatario;
  if (!d || typeof d !== 'object') {
    fail(errors, 'destinatario', 'is required: an NF-e identifies its recipient (MOC E01-10, 719): name, CNPJ/CPF (or id_estrangeiro abroad), IE indicator and address', 'E01-10');
    return undefined;
  }
  const ids = [d.cnpj, d.cpf, d.id_estrangeiro].filter((v) => v !== undefined).length;
  if (ids > 1) fail(errors, 'destinatario', 'give only one of cnpj, cpf or id_estrangeiro');
  if (d.cnpj !== undefined && !isValidCnpj(d.cnpj)) fail(errors, 'destinatario.cnpj', 'is not a valid CNPJ (14 characters, check digits must match; MOC E02-10, 208)', 'E02-10');
  if (d.cpf !== undefined && !isValidCpf(d.cpf)) fail(errors, 'destinatario.cpf', 'is not a valid CPF (11 digits, check digits must match; MOC E03-10, 237)', 'E03-10');
  if (d.id_estrangeiro !== undefined && !/^([!-ÿ]{5,20})?$/.test(d.id_estrangeiro)) fail(errors, 'destinatario.id_estrangeiro', 'must be empty or 5 to 20 characters without spaces');
  // MOC E03a-60 (372): letters, digits and : . + - / only (the XSD admits any other visible character).
  else if (d.id_estrangeiro !== undefined && !/^[0-9A-Za-z:.+\-/()]*$/.test(d.id_estrangeiro)) {
    fail(errors, 'destinatario.id_estrangeiro', 'may hold only letters, digits and the characters : . + - / ( ) (MOC E03a-60, 372)', 'E03a-60');
  }
  // MOC E04-10 (724): an NF-e names its recipient.
  if (d.name === undefined || d.name === null) fail(errors, 'destinatario.name', 'is required: the recipient\'s name or company name (MOC E04-10, 724)', 'E04-10');
  else checkText(errors, 'destinatario.name', d.name, 2, 60);
  checkText(errors, 'destinatario.email', d.email, 1, 60, false);
  if (typeof d.email === 'string' && !EMAIL.test(d.email.trim())) fail(errors, 'destinatario.email', 'is not an e-mail address');
  if (!d.address || typeof d.address !== 'object') {
    fail(errors, 'destinatario.address', 'is required in an NF-e (MOC E05-10, 726)', 'E05-10');
    return undefined;
  }
  const before = errors.length;
  checkAddress(errors, 'destinatario.address', d.address);
  if (errors.length > before) return undefined;
  const idDest = destinationOf(issuerUf, d.address);
  const ind = Object.hasOwn(INDICADORES_IE, d.indicador_ie) ? INDICADORES_IE[d.indicador_ie] : undefined;
  if (ind === undefined) fail(errors, 'destinatario.indicador_ie', `must be one of ${Object.keys(INDICADORES_IE).join(', ')}`);
  if (idDest === 3) {
    if (d.id_estrangeiro === undefined) fail(errors, 'destinatario.id_estrangeiro', 'is required for a recipient abroad (MOC E03a-10, 720; may be empty when the buyer has none)', 'E03a-10');
    if (ind !== undefined && ind !== 9) fail(errors, 'destinatario.indicador_ie', 'must be nao_contribuinte for a recipient abroad (MOC E16a-20, 790)', 'E16a-20');
    // The gateway writes idEstrangeiro for every recipient abroad: with an IE the authority answers E03a-30 (925) before E17-40 (792).
    if (d.ie !== undefined) fail(errors, 'destinatario.ie', 'is not used for a recipient abroad: a foreign recipient has no IE (MOC E03a-30, 925; E17-40, 792)', 'E03a-30');
    return idDest;
  }
  // MOC E03a-20 (721) refuses idEstrangeiro in Brazil when the buyer is not a final consumer (indFinal 0);
  // the gateway asks for cnpj or cpf in Brazil in every case (a foreign final consumer is not offered yet).
  const finalConsumer = req.consumidor_final ?? d.indicador_ie === 'nao_contribuinte';
  if (d.id_estrangeiro !== undefined) fail(errors, 'destinatario.id_estrangeiro', 'is only used for a recipient abroad (MOC E03a-20, 721); give cnpj or cpf', finalConsumer ? undefined : 'E03a-20');
  else if (ids === 0) fail(errors, 'destinatario.cnpj', 'is required (or destinatario.cpf) for a recipient in Brazil');
  if (ind === 1 && d.ie === undefined) fail(errors, 'destinatario.ie', 'is required for a contribuinte recipient: its IE, 2-14 digits (MOC E17-20, 728)', 'E17-20');
  else if (ind === 1 && checkPattern(errors, 'destinatario.ie', d.ie, /^[0-9]{2,14}$/, 'must be the recipient\'s IE, 2-14 digits (required for a contribuinte, MOC E17-20, 728)')) {
    checkRecipientIe(errors, d.address.uf!, d.ie!);
  }
  else if (d.ie !== undefined) fail(errors, 'destinatario.ie', `is only given for a contribuinte recipient (MOC E17-30, 791); this one is ${d.indicador_ie}`, ind === 2 ? 'E17-30' : undefined);
  return idDest;
}

export function checkAutXml(errors: Errors, req: NfeRequest): void {
  const list = req.aut_xml ?? [];
  if (list.length > 10) return fail(errors, 'aut_xml', `must have at most 10 entries (XSD autXML maxOccurs); has ${list.length}`);
  list.forEach((v, i) => {
    const at = `aut_xml[${i}]`;
    if (typeof v !== 'string') return fail(errors, at, 'must be a string');
    // MOC GA03-10 (325) / GA02-10 (323): a CPF or CNPJ with zeros or wrong check digits.
    if (v.length === 11) {
      if (!isValidCpf(v)) return fail(errors, at, 'is not a valid CPF (11 digits, check digits must match; MOC GA03-10, 325)', 'GA03-10');
      // MOC GA03-20 (326): the recipient may download its note anyway; its CPF is not listed.
      if (v === req.destinatario?.cpf) fail(errors, at, 'is the recipient\'s CPF, which may download the note already (MOC GA03-20, 326); remove it', 'GA03-20');
      return;
    }
    if (!isValidCnpj(cleanTaxId(v))) fail(errors, at, 'must be a valid CNPJ (14 characters, check digits must match; MOC GA02-10, 323) or CPF (11 digits)', /^[0-9A-Z]{12}[0-9]{2}$/.test(cleanTaxId(v)) ? 'GA02-10' : undefined);
  });
}

const WEIGHT = { places: 3, sign: 'non-negative', max: 999_999_999_999.999, required: false } as const;

export function checkTransporte(errors: Errors, req: NfeRequest): void {
  const t = req.transporte;
  if (!t) return;
  freightModeOf(errors, 'transporte.modalidade', t.modalidade);
  if (t.transportadora) checkCarrier(errors, 'transporte.transportadora', t.transportadora);
  const v = t.veiculo;
  if (v) {
    checkPattern(errors, 'transporte.veiculo.placa', v.placa, /^([A-Z]{2,3}[0-9]{4}|[A-Z]{3,4}[0-9]{3}|[A-Z0-9]{7})$/, 'must be a plate in capitals without separators (e.g. ABC1234 or ABC1D23)');
    if (v.uf !== undefined && !ufCode(v.uf)) fail(errors, 'transporte.veiculo.uf', 'must be a two-letter Brazilian state');
    checkText(errors, 'transporte.veiculo.rntc', v.rntc, 1, 20, false);
  }
  (t.volumes ?? []).forEach((vol, i) => {
    const at = `transporte.volumes[${i}]`;
    if (vol.quantity !== undefined && !(Number.isInteger(vol.quantity) && vol.quantity >= 0 && vol.quantity < 1e15)) fail(errors, `${at}.quantity`, 'must be a whole number from 0');
    checkText(errors, `${at}.species`, vol.species, 1, 60, false);
    checkText(errors, `${at}.brand`, vol.brand, 1, 60, false);
    checkText(errors, `${at}.numbering`, vol.numbering, 1, 60, false);
    checkNumber(errors, `${at}.net_weight`, vol.net_weight, WEIGHT);
    checkNumber(errors, `${at}.gross_weight`, vol.gross_weight, WEIGHT);
  });
}

/** Billing (MOC Y01-Y10): invoice discount <= original (901); installments dated in order (900/850) and adding up to the net value (851). */
export function checkCobranca(errors: Errors, req: NfeRequest, vNF: number | undefined, today: string | undefined): void {
  const c = req.cobranca;
  if (!c) return;
  const f = c.fatura;
  let vLiq = vNF;
  if (f) {
    checkText(errors, 'cobranca.fatura.numero', f.numero, 1, 60, false);
    const origOk = checkNumber(errors, 'cobranca.fatura.valor_original', f.valor_original, MONEY);
    const descOk = f.desconto === undefined || checkNumber(errors, 'cobranca.fatura.desconto', f.desconto, OPTIONAL_MONEY);
    if (origOk && descOk) {
      const desc = f.desconto === undefined ? 0 : toCents(f.desconto);
      if (desc > toCents(f.valor_original)) fail(errors, 'cobranca.fatura.desconto', 'is larger than valor_original (MOC Y05-10, 901)', 'Y05-10');
      vLiq = toCents(f.valor_original) - desc;
    } else vLiq = undefined;
  }
  const dups = c.duplicatas ?? [];
  if (dups.length > 120) return fail(errors, 'cobranca.duplicatas', `must have at most 120 installments (XSD dup maxOccurs); has ${dups.length}`);
  let previous = today;
  let sum = 0;
  let ok = true;
  dups.forEach((d, i) => {
    const at = `cobranca.duplicatas[${i}]`;
    if (checkPattern(errors, `${at}.vencimento`, d.vencimento, /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/, 'must be a date YYYY-MM-DD')) {
      if (previous !== undefined && d.vencimento < previous) {
        fail(errors, `${at}.vencimento`, i === 0 ? `must not be before the emission date ${today} (MOC Y09-20, 900)` : `must not be before the previous installment's ${previous} (MOC Y09-30, 850)`, i === 0 ? 'Y09-20' : 'Y09-30');
      }
      previous = d.vencimento;
    }
    if (checkNumber(errors, `${at}.valor`, d.valor, MONEY)) sum += toCents(d.valor);
    else ok = false;
  });
  if (ok && dups.length > 0 && vLiq !== undefined && sum !== vLiq) {
    fail(errors, 'cobranca.duplicatas', `add up to R$ ${formatCents(sum)} but the invoice net value is R$ ${formatCents(vLiq)} (MOC Y10-10, 851)${f ? '' : '; without fatura the invoice is the note total'}`, 'Y10-10');
  }
}
