// Cancelamento de Evento, event 110001 (NT 2025.002-RTC section 8.14; e110001_v1.00.xsd in
// assets/fiscal/schemas/PL_010_V1.30): the author of an authorized reform event cancels it. detEvento
// holds descEvento, cOrgaoAutor (TCodUfIBGE), verAplic (TVerAplic), tpEventoAut (the cancelled event's
// type, one of the 16 the XSD enumerates: never 110001 itself, NT P23) and nProtEvento (TProt, its
// authorization protocol). No tpAutor: the XSD has none. The NT's P19 says "Evento de Cancelamento" but
// the XSD enumerates only "Cancelamento de Evento", which is what the schema check (493) accepts.
// nSeqEvento is the cancelled event's sequence (NT P15), so the Id (P07) is "ID110001" + key + that sequence.
import { leaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import { check, EventInputError, PROTOCOL, UF_CODES, type EventFieldError } from './event-input.js';

export const EVENT_CANCELLATION_TP_EVENTO = '110001';
/** descEvento: the single value e110001_v1.00.xsd enumerates. */
export const EVENT_CANCELLATION_DESC = 'Cancelamento de Evento';
/** tpEventoAut: the event types e110001_v1.00.xsd lets be cancelled (NT 2025.002-RTC 8.1 list). */
export const CANCELLABLE_EVENT_TYPES: ReadonlySet<string> = new Set([
  '112110', '112120', '112130', '112140', '112150', '211110', '211120', '211124', '211128', '211130', '211140', '211150',
  '212110', '212120', '412120', '412130',
]);

export interface EventCancellationInput extends EventHead {
  /** cOrgaoAutor: the author's state, the same as the cancelled event's (NT rule 1P20-10, cStat 1178). */
  cOrgaoAutor: string;
  verAplic: string;
  /** tpEventoAut: the type of the event cancelled. */
  tpEventoAut: string;
  /** nProtEvento: the protocol the authority gave the event cancelled (1P24-10, cStat 460). */
  nProtEvento: string;
}

export function eventCancellationProblems(input: EventCancellationInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  check(errors, UF_CODES.has(input.cOrgao) || ['90', '91', '92'].includes(input.cOrgao), 'cOrgao', 'must be a TCOrgaoIBGE code (a state, 90, 91 or 92)');
  check(errors, UF_CODES.has(input.cOrgaoAutor), 'cOrgaoAutor', "must be the IBGE code of the author's state");
  errors.push(...eventHeadProblems(input));
  const ver = input.verAplic;
  check(errors, ver.length >= 1 && ver.length <= 20 && ver.trim() === ver && !/[^\u0020-\u00ff]/.test(ver), 'verAplic', 'must have 1 to 20 Latin-1 characters, no blank at either end');
  check(errors, CANCELLABLE_EVENT_TYPES.has(input.tpEventoAut), 'tpEventoAut', 'must be an event type the NT lets be cancelled (e110001_v1.00.xsd)');
  check(errors, PROTOCOL.test(input.nProtEvento), 'nProtEvento', 'must be the 15- or 17-digit protocol of the event cancelled');
  return errors;
}

export function buildEventCancellation(input: EventCancellationInput, key: SigningKey): SignedEvent {
  const errors = eventCancellationProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det =
    leaf('descEvento', EVENT_CANCELLATION_DESC) + leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('verAplic', input.verAplic) +
    leaf('tpEventoAut', input.tpEventoAut) + leaf('nProtEvento', input.nProtEvento);
  return signEvent(input, EVENT_CANCELLATION_TP_EVENTO, det, key);
}
