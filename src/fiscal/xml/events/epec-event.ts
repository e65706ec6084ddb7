// EPEC, Evento Prévio de Emissão em Contingência (tpEvento 110140, docs/fiscal/epec.md): a summary of an
// NF-e issued with tpEmis 4, registered at the Ambiente Nacional (cOrgao 91) while the issuer's state
// cannot authorize. Layout: leiauteEPEC_v1.00.xsd / e110140NFe_v1.00.xsd (envelope envEPEC_v1.00.xsd).
// The summary carries exactly what MOC 7.0 Anexo I rule 2AB08-30 (*1) compares at the state later:
// issuer IE, dhEmi, tpNF, the recipient's UF, id and IE, vNF, vICMS and vST.
import { leaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import { check, DATE_TIME_UTC, EventInputError, UF_CODES, type EventFieldError } from './event-input.js';

export const EPEC_TP_EVENTO = '110140';
/** leiauteEPEC_v1.00.xsd infEvento/cOrgao documentation: the EPEC of an NF-e goes to the Ambiente Nacional. */
export const EPEC_CORGAO = '91';

export interface EpecRecipient {
  /** TUf of the recipient; "EX" abroad. */
  UF: string;
  id: { CNPJ: string } | { CPF: string } | { idEstrangeiro: string };
  /** Only when the recipient has a state registration (leiauteEPEC IE documentation). */
  IE?: string;
}

export interface EpecInput extends EventHead {
  /** IBGE code of the issuer's state (TCodUfIBGE). */
  cOrgaoAutor: string;
  verAplic: string;
  /** dhEmi of the NF-e, as written in it. */
  dhEmi: string;
  tpNF: 0 | 1;
  /** Issuer IE (2-14 digits). */
  IE: string;
  dest: EpecRecipient;
  /** TDec_1302 as written in the NF-e total (e.g. "150.00"). */
  vNF: string;
  vICMS: string;
  vST: string;
}

const DEC_1302 = /^(0|[1-9][0-9]{0,12})(\.[0-9]{2})$/;
const IE = /^[0-9]{2,14}$/;
const TUF = new Set(['AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA', 'PB', 'PE', 'PI', 'PR', 'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO', 'EX']);

export function epecProblems(input: EpecInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  check(errors, input.cOrgao === EPEC_CORGAO, 'cOrgao', 'must be 91 (Ambiente Nacional) for the EPEC of an NF-e');
  errors.push(...eventHeadProblems(input));
  check(errors, input.chNFe.slice(20, 22) === '55', 'chNFe', 'must be the key of a model 55 NF-e');
  check(errors, input.chNFe.charAt(34) === '4', 'chNFe', 'must be the key of a note issued with tpEmis 4 (EPEC)');
  check(errors, UF_CODES.has(input.cOrgaoAutor), 'cOrgaoAutor', 'must be the IBGE code of a state');
  check(errors, input.verAplic.length >= 1 && input.verAplic.length <= 20, 'verAplic', 'must have 1 to 20 characters');
  check(errors, DATE_TIME_UTC.test(input.dhEmi), 'dhEmi', 'must be a date-time with seconds and offset');
  check(errors, IE.test(input.IE), 'IE', 'must be the issuer state registration (2 to 14 digits)');
  check(errors, TUF.has(input.dest.UF), 'dest.UF', 'must be a state abbreviation or EX');
  if (input.dest.IE !== undefined) check(errors, IE.test(input.dest.IE), 'dest.IE', 'must have 2 to 14 digits');
  for (const f of ['vNF', 'vICMS', 'vST'] as const) check(errors, DEC_1302.test(input[f]), f, 'must be a decimal with 2 places');
  return errors;
}

function recipientId(id: EpecRecipient['id']): string {
  if ('CNPJ' in id) return leaf('CNPJ', id.CNPJ);
  if ('CPF' in id) return leaf('CPF', id.CPF);
  return leaf('idEstrangeiro', id.idEstrangeiro);
}

export function buildEpecEvent(input: EpecInput, key: SigningKey): SignedEvent {
  const errors = epecProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const dest = leaf('UF', input.dest.UF) + recipientId(input.dest.id) + (input.dest.IE ? leaf('IE', input.dest.IE) : '') +
    leaf('vNF', input.vNF) + leaf('vICMS', input.vICMS) + leaf('vST', input.vST);
  const det = leaf('descEvento', 'EPEC') + leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('tpAutor', '1') + leaf('verAplic', input.verAplic) +
    leaf('dhEmi', input.dhEmi) + leaf('tpNF', input.tpNF) + leaf('IE', input.IE) + `<dest>${dest}</dest>`;
  return signEvent(input, EPEC_TP_EVENTO, det, key);
}

/** The fields of a signed NF-e (tpEmis 4) that its EPEC summarizes; null when the note lacks one of them. */
export function epecSummaryOfNfe(nfeXml: string): Omit<EpecInput, 'cOrgao' | 'tpAmb' | 'author' | 'dhEvento' | 'verAplic' | 'nSeqEvento'> | null {
  const block = (name: string, xml: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1];
  const field = (name: string, xml: string | undefined) => (xml ? new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] : undefined);
  const key = /Id="NFe([0-9A-Z]{44})"/.exec(nfeXml)?.[1];
  const ide = block('ide', nfeXml);
  const emit = block('emit', nfeXml);
  const dest = block('dest', nfeXml);
  const icmsTot = block('ICMSTot', nfeXml);
  const cUF = field('cUF', ide);
  const dhEmi = field('dhEmi', ide);
  const tpNF = field('tpNF', ide);
  const ie = field('IE', emit?.replace(/<enderEmit>[\s\S]*?<\/enderEmit>/, ''));
  const vNF = field('vNF', icmsTot);
  const vICMS = field('vICMS', icmsTot);
  const vST = field('vST', icmsTot);
  if (!key || !cUF || !dhEmi || !tpNF || !ie || !dest || !vNF || !vICMS || !vST) return null;
  const destUF = field('UF', block('enderDest', dest)) ?? (field('idEstrangeiro', dest) !== undefined ? 'EX' : undefined);
  const cnpj = field('CNPJ', dest);
  const cpf = field('CPF', dest);
  const foreign = field('idEstrangeiro', dest);
  const destIE = field('IE', dest.replace(/<enderDest>[\s\S]*?<\/enderDest>/, ''));
  if (!destUF) return null;
  const id = cnpj ? { CNPJ: cnpj } : cpf ? { CPF: cpf } : foreign !== undefined ? { idEstrangeiro: foreign } : null;
  if (!id) return null;
  return {
    chNFe: key, cOrgaoAutor: cUF, dhEmi, tpNF: tpNF === '0' ? 0 : 1, IE: ie,
    dest: { UF: destUF, id, ...(destIE ? { IE: destIE } : {}) }, vNF, vICMS, vST,
  };
}
