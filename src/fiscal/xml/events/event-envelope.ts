// The generic part of every NF-e event (leiauteEvento_v1.00.xsd, docs/fiscal/events.md): evento/infEvento with
// cOrgao, tpAmb, author, chNFe, dhEvento, tpEvento, nSeqEvento, verEvento and detEvento, signed on
// infEvento (RSA-SHA1). Each event family writes only its detEvento.
import { el, leaf, NFE_NAMESPACE } from '../xml-text.js';
import { signElement, type SigningKey } from '../signature/sign.js';
import { ACCESS_KEY, check, CNPJ, CPF, DATE_TIME_UTC, type EventFieldError } from './event-input.js';

export interface SignedEvent {
  /** `<evento xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.00">...<Signature>...</evento>` */
  xml: string;
  id: string;
  digestValue: string;
}

/** What every event carries besides its detEvento. */
export interface EventHead {
  cOrgao: string;
  tpAmb: 1 | 2;
  author: { CNPJ: string } | { CPF: string };
  chNFe: string;
  /** dhEvento with an offset, e.g. 2026-03-10T12:30:00-03:00. */
  dhEvento: string;
  /** 1-20 (leiauteEvento nSeqEvento `[1-9]|1[0-9]|20`). */
  nSeqEvento?: number;
}

/** Id = "ID" + tpEvento + chNFe + nSeqEvento with 2 digits (leiauteEvento `ID[0-9]{52}`; 572 otherwise). */
export function eventId(tpEvento: string, chNFe: string, nSeqEvento: number): string {
  return `ID${tpEvento}${chNFe}${String(nSeqEvento).padStart(2, '0')}`;
}

/** Problems of the head fields other than cOrgao (whose rule depends on the event). */
export function eventHeadProblems(input: EventHead): EventFieldError[] {
  const errors: EventFieldError[] = [];
  const seq = input.nSeqEvento ?? 1;
  check(errors, 'CNPJ' in input.author ? CNPJ.test(input.author.CNPJ) : CPF.test(input.author.CPF), 'author', 'must be a CNPJ (14) or CPF (11) without punctuation');
  check(errors, ACCESS_KEY.test(input.chNFe), 'chNFe', 'must be a 44-position access key');
  check(errors, DATE_TIME_UTC.test(input.dhEvento), 'dhEvento', 'must be a date-time with seconds and offset');
  check(errors, Number.isInteger(seq) && seq >= 1 && seq <= 20, 'nSeqEvento', 'must be 1 to 20');
  return errors;
}

/** Writes evento (canonical form) with the given detEvento content and signs infEvento. */
export function signEvent(input: EventHead, tpEvento: string, detEvento: string, key: SigningKey): SignedEvent {
  const seq = input.nSeqEvento ?? 1;
  const id = eventId(tpEvento, input.chNFe, seq);
  const author = 'CNPJ' in input.author ? leaf('CNPJ', input.author.CNPJ) : leaf('CPF', input.author.CPF);
  const infEvento = el(
    'infEvento',
    leaf('cOrgao', input.cOrgao) + leaf('tpAmb', input.tpAmb) + author + leaf('chNFe', input.chNFe) + leaf('dhEvento', input.dhEvento) +
      leaf('tpEvento', tpEvento) + leaf('nSeqEvento', seq) + leaf('verEvento', '1.00') + el('detEvento', detEvento, [['versao', '1.00']]),
    [['Id', id]],
  );
  // The namespace is declared on evento itself so each signed evento stands alone (procEventoNFe).
  const out = signElement(el('evento', infEvento, [['xmlns', NFE_NAMESPACE], ['versao', '1.00']]), 'infEvento', key);
  return { xml: out.xml, id, digestValue: out.digestValue };
}
