// EPEC of an NFC-e (tpEvento 110140, model 65), São Paulo's variant (docs/fiscal/offline-contingency.md#epec-sp):
// sent to SP's own EPEC service (cOrgao = the state's code, not the Ambiente Nacional's 91), with the summary of
// e110140NFCe_v1.00.xsd: vNF and vICMS in detEvento itself, no vST, and dest only when the sale names its consumer
// (lot schema eventoEPEC_v1.00.xsd, dest minOccurs 0; NT nº 3 v1.01). The state later compares issuer IE, dhEmi,
// the recipient, vNF and vICMS with the note (467 otherwise).
import { leaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import { check, DATE_TIME_UTC, EventInputError, UF_CODES, type EventFieldError } from './event-input.js';
import { EPEC_TP_EVENTO, type EpecRecipient } from './epec-event.js';

export interface EpecNfceInput extends EventHead {
  /** IBGE code of the issuer's state; also cOrgao (the state's EPEC service receives it). */
  cOrgaoAutor: string;
  verAplic: string;
  /** dhEmi of the NFC-e, as written in it. */
  dhEmi: string;
  tpNF: 0 | 1;
  /** Issuer IE (2-14 digits). */
  IE: string;
  /** Absent when the sale does not identify its consumer. */
  dest?: EpecRecipient;
  /** TDec_1302 as written in the NFC-e total. */
  vNF: string;
  vICMS: string;
}

const DEC_1302 = /^(0|[1-9][0-9]{0,12})(\.[0-9]{2})$/;
const IE = /^[0-9]{2,14}$/;
const TUF = /^(A[CLMP]|BA|CE|DF|ES|GO|M[AGST]|P[ABEIR]|R[JNORS]|S[CEP]|TO|EX)$/;

export function epecNfceProblems(input: EpecNfceInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  check(errors, input.cOrgao === input.cOrgaoAutor, 'cOrgao', "must be the issuer's state code: the NFC-e EPEC goes to the state's own EPEC service");
  errors.push(...eventHeadProblems(input));
  check(errors, input.chNFe.slice(20, 22) === '65', 'chNFe', 'must be the key of a model 65 NFC-e');
  // eventoEPEC_v1.00.xsd chNFe documentation: position 35 of the key must be 4 (tpEmis 4).
  check(errors, input.chNFe.charAt(34) === '4', 'chNFe', 'must be the key of a note issued with tpEmis 4 (EPEC)');
  check(errors, UF_CODES.has(input.cOrgaoAutor) && input.chNFe.slice(0, 2) === input.cOrgaoAutor, 'cOrgaoAutor', "must be the IBGE code of the key's state");
  check(errors, input.verAplic.length >= 1 && input.verAplic.length <= 20, 'verAplic', 'must have 1 to 20 characters');
  check(errors, DATE_TIME_UTC.test(input.dhEmi), 'dhEmi', 'must be a date-time with seconds and offset');
  check(errors, IE.test(input.IE), 'IE', 'must be the issuer state registration (2 to 14 digits)');
  if (input.dest) {
    check(errors, TUF.test(input.dest.UF), 'dest.UF', 'must be a state abbreviation or EX');
    if (input.dest.IE !== undefined) check(errors, IE.test(input.dest.IE), 'dest.IE', 'must have 2 to 14 digits');
  }
  for (const f of ['vNF', 'vICMS'] as const) check(errors, DEC_1302.test(input[f]), f, 'must be a decimal with 2 places');
  return errors;
}

function recipient(dest: EpecRecipient): string {
  const id = 'CNPJ' in dest.id ? leaf('CNPJ', dest.id.CNPJ) : 'CPF' in dest.id ? leaf('CPF', dest.id.CPF) : leaf('idEstrangeiro', dest.id.idEstrangeiro);
  return `<dest>${leaf('UF', dest.UF)}${id}${dest.IE ? leaf('IE', dest.IE) : ''}</dest>`;
}

export function buildEpecNfceEvent(input: EpecNfceInput, key: SigningKey): SignedEvent {
  const errors = epecNfceProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det = leaf('descEvento', 'EPEC') + leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('tpAutor', '1') + leaf('verAplic', input.verAplic) +
    leaf('dhEmi', input.dhEmi) + leaf('tpNF', input.tpNF) + leaf('IE', input.IE) + (input.dest ? recipient(input.dest) : '') +
    leaf('vNF', input.vNF) + leaf('vICMS', input.vICMS);
  return signEvent(input, EPEC_TP_EVENTO, det, key);
}

export type EpecNfceSummary = Omit<EpecNfceInput, 'cOrgao' | 'tpAmb' | 'author' | 'dhEvento' | 'verAplic' | 'nSeqEvento'>;

/** The fields of a signed NFC-e (tpEmis 4) its EPEC summarizes; null when the note lacks one of them. */
export function epecSummaryOfNfce(nfceXml: string): EpecNfceSummary | null {
  const block = (name: string, xml: string | undefined) => (xml ? new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1] : undefined);
  const field = (name: string, xml: string | undefined) => (xml ? new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1] : undefined);
  const key = /Id="NFe([0-9A-Z]{44})"/.exec(nfceXml)?.[1];
  const ide = block('ide', nfceXml);
  const emit = block('emit', nfceXml);
  const dest = block('dest', nfceXml);
  const icmsTot = block('ICMSTot', nfceXml);
  const cUF = field('cUF', ide);
  const dhEmi = field('dhEmi', ide);
  const tpNF = field('tpNF', ide);
  const ie = field('IE', emit?.replace(/<enderEmit>[\s\S]*?<\/enderEmit>/, ''));
  const vNF = field('vNF', icmsTot);
  const vICMS = field('vICMS', icmsTot);
  if (!key || !cUF || !dhEmi || !tpNF || !ie || !vNF || !vICMS) return null;
  const summary: EpecNfceSummary = { chNFe: key, cOrgaoAutor: cUF, dhEmi, tpNF: tpNF === '0' ? 0 : 1, IE: ie, vNF, vICMS };
  if (dest === undefined) return summary;
  const cnpj = field('CNPJ', dest);
  const cpf = field('CPF', dest);
  const foreign = field('idEstrangeiro', dest);
  const id = cnpj ? { CNPJ: cnpj } : cpf ? { CPF: cpf } : foreign !== undefined ? { idEstrangeiro: foreign } : null;
  if (!id) return summary;
  // An NFC-e is an internal operation (MOC B11a-10, 707: idDest 1), so a consumer without an address is in the issuer's state.
  const uf = field('UF', block('enderDest', dest)) ?? field('UF', block('enderEmit', emit));
  if (!uf) return null;
  const destIE = field('IE', dest.replace(/<enderDest>[\s\S]*?<\/enderDest>/, ''));
  return { ...summary, dest: { UF: uf, id, ...(destIE ? { IE: destIE } : {}) } };
}
