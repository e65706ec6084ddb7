// Cancellation events of an NFC-e (FACTS 5; e110111_v1.00.xsd, e110112_v1.00.xsd, leiauteEvento*):
//   110111 Cancelamento: nProt + xJust (NFC-e: within 30 minutes, Ajuste SINIEF 19/16 cl. 15)
//   110112 Cancelamento por substituicao: the NFC-e replaced by one issued in offline contingency
//          (cl. 15-A, within 168 hours): adds cOrgaoAutor, tpAutor=1, verAplic and chNFeRef.
// Written directly in canonical form and signed with signElement (infEvento, RSA-SHA1).
import { el, leaf, NFE_NAMESPACE } from '../xml-text.js';
import { signElement, type SigningKey } from '../signature/sign.js';
import {
  ACCESS_KEY, check, CNPJ, CPF, DATE_TIME_UTC, EventInputError, justificationProblem, normalizeJustification, PROTOCOL, UF_CODES,
  type EventFieldError,
} from './event-input.js';

export interface CancellationInput {
  /** cOrgao: IBGE code of the authorising state (the issuer's UF for NFC-e). */
  cOrgao: string;
  tpAmb: 1 | 2;
  /** Author of the event: the issuer. */
  author: { CNPJ: string } | { CPF: string };
  chNFe: string;
  /** dhEvento with the issuer's offset, e.g. 2026-03-10T12:30:00-03:00. */
  dhEvento: string;
  /** 1-20; a new attempt after a rejection keeps 1 (FACTS 5). */
  nSeqEvento?: number;
  /** Authorization protocol of the NFC-e being cancelled. */
  nProt: string;
  xJust: string;
}

export interface SubstitutionCancellationInput extends CancellationInput {
  /** UF of the author (TCodUfIBGE). */
  cOrgaoAutor: string;
  /** Version of the application sending the event. */
  verAplic: string;
  /** Key of the NFC-e issued in contingency that replaced this one. */
  chNFeRef: string;
}

export interface SignedEvent {
  /** `<evento xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.00">...<Signature>...</evento>` */
  xml: string;
  id: string;
  digestValue: string;
}

/** Id = "ID" + tpEvento + chNFe + nSeqEvento with 2 digits (leiauteEvento `ID[0-9]{52}`; 572 otherwise). */
export function eventId(tpEvento: string, chNFe: string, nSeqEvento: number): string {
  return `ID${tpEvento}${chNFe}${String(nSeqEvento).padStart(2, '0')}`;
}

export function cancellationProblems(input: CancellationInput | SubstitutionCancellationInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  const seq = input.nSeqEvento ?? 1;
  check(errors, UF_CODES.has(input.cOrgao), 'cOrgao', 'must be the IBGE code of a state');
  check(errors, 'CNPJ' in input.author ? CNPJ.test(input.author.CNPJ) : CPF.test(input.author.CPF), 'author', 'must be a CNPJ (14) or CPF (11) without punctuation');
  check(errors, ACCESS_KEY.test(input.chNFe), 'chNFe', 'must be a 44-position access key');
  check(errors, DATE_TIME_UTC.test(input.dhEvento), 'dhEvento', 'must be a date-time with seconds and offset');
  check(errors, Number.isInteger(seq) && seq >= 1 && seq <= 20, 'nSeqEvento', 'must be 1 to 20');
  check(errors, PROTOCOL.test(input.nProt), 'nProt', 'must be the 15-digit authorization protocol');
  const just = justificationProblem(input.xJust);
  if (just) errors.push(just);
  if ('chNFeRef' in input) {
    check(errors, UF_CODES.has(input.cOrgaoAutor), 'cOrgaoAutor', 'must be the IBGE code of a state');
    check(errors, input.verAplic.length >= 1 && input.verAplic.length <= 20, 'verAplic', 'must have 1 to 20 characters');
    check(errors, ACCESS_KEY.test(input.chNFeRef), 'chNFeRef', 'must be a 44-position access key');
    check(errors, input.chNFeRef !== input.chNFe, 'chNFeRef', 'must be the key of the replacing NFC-e, not of the cancelled one');
  }
  return errors;
}

function eventXml(input: CancellationInput, tpEvento: string, detEvento: string): { xml: string; id: string } {
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
  return { xml: el('evento', infEvento, [['xmlns', NFE_NAMESPACE], ['versao', '1.00']]), id };
}

function signed(built: { xml: string; id: string }, key: SigningKey): SignedEvent {
  const out = signElement(built.xml, 'infEvento', key);
  return { xml: out.xml, id: built.id, digestValue: out.digestValue };
}

export function buildCancellationEvent(input: CancellationInput, key: SigningKey): SignedEvent {
  const errors = cancellationProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det = leaf('descEvento', 'Cancelamento') + leaf('nProt', input.nProt) + leaf('xJust', normalizeJustification(input.xJust));
  return signed(eventXml(input, '110111', det), key);
}

export function buildSubstitutionCancellationEvent(input: SubstitutionCancellationInput, key: SigningKey): SignedEvent {
  const errors = cancellationProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det =
    leaf('descEvento', 'Cancelamento por substituicao') + leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('tpAutor', '1') +
    leaf('verAplic', input.verAplic) + leaf('nProt', input.nProt) + leaf('xJust', normalizeJustification(input.xJust)) + leaf('chNFeRef', input.chNFeRef);
  return signed(eventXml(input, '110112', det), key);
}

/** envEvento (versao 1.00): idLote (1-15 digits) + 1 to 20 signed evento elements. */
export function buildEnvEvento(idLote: string | number, eventos: ReadonlyArray<SignedEvent | string>): string {
  const lote = String(idLote);
  if (!/^[0-9]{1,15}$/.test(lote)) throw new Error('idLote must have 1 to 15 digits');
  if (eventos.length < 1 || eventos.length > 20) throw new Error('envEvento carries 1 to 20 events');
  const body = eventos.map((e) => (typeof e === 'string' ? e : e.xml)).join('');
  return el('envEvento', leaf('idLote', lote) + body, [['xmlns', NFE_NAMESPACE], ['versao', '1.00']]);
}
