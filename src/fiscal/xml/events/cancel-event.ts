// Cancellation events of an NFC-e (docs/fiscal/events.md; e110111_v1.00.xsd, e110112_v1.00.xsd, leiauteEvento*):
//   110111 Cancelamento: nProt + xJust (NFC-e: within 30 minutes, Ajuste SINIEF 19/16 cl. 15)
//   110112 Cancelamento por substituicao: the NFC-e replaced by one issued in offline contingency
//          (cl. 15-A, within 168 hours): adds cOrgaoAutor, tpAutor=1, verAplic and chNFeRef.
// Written directly in canonical form and signed with signElement (infEvento, RSA-SHA1).
import { el, leaf, NFE_NAMESPACE } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import {
  ACCESS_KEY, check, EventInputError, justificationProblem, normalizeJustification, PROTOCOL, UF_CODES, type EventFieldError,
} from './event-input.js';

export { eventId, type SignedEvent } from './event-envelope.js';

/** cOrgao: IBGE code of the authorising state; author: the issuer; nSeqEvento 1 (a retry after a rejection keeps it). */
export interface CancellationInput extends EventHead {
  /** Authorization protocol of the note being cancelled. */
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

export function cancellationProblems(input: CancellationInput | SubstitutionCancellationInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  check(errors, UF_CODES.has(input.cOrgao), 'cOrgao', 'must be the IBGE code of a state');
  errors.push(...eventHeadProblems(input));
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

export function buildCancellationEvent(input: CancellationInput, key: SigningKey): SignedEvent {
  const errors = cancellationProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det = leaf('descEvento', 'Cancelamento') + leaf('nProt', input.nProt) + leaf('xJust', normalizeJustification(input.xJust));
  return signEvent(input, '110111', det, key);
}

export function buildSubstitutionCancellationEvent(input: SubstitutionCancellationInput, key: SigningKey): SignedEvent {
  const errors = cancellationProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det =
    leaf('descEvento', 'Cancelamento por substituicao') + leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('tpAutor', '1') +
    leaf('verAplic', input.verAplic) + leaf('nProt', input.nProt) + leaf('xJust', normalizeJustification(input.xJust)) + leaf('chNFeRef', input.chNFeRef);
  return signEvent(input, '110112', det, key);
}

/** envEvento (versao 1.00): idLote (1-15 digits) + 1 to 20 signed evento elements. */
export function buildEnvEvento(idLote: string | number, eventos: ReadonlyArray<SignedEvent | string>): string {
  const lote = String(idLote);
  if (!/^[0-9]{1,15}$/.test(lote)) throw new Error('idLote must have 1 to 15 digits');
  if (eventos.length < 1 || eventos.length > 20) throw new Error('envEvento carries 1 to 20 events');
  const body = eventos.map((e) => (typeof e === 'string' ? e : e.xml)).join('');
  return el('envEvento', leaf('idLote', lote) + body, [['xmlns', NFE_NAMESPACE], ['versao', '1.00']]);
}
