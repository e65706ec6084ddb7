// Atualização da Data de Previsão de Entrega, event 112150 (NT 2025.002-RTC; e112150_v1.00.xsd in
// assets/fiscal/schemas/PL_010_V1.30): sent by the issuer about its own NF-e. detEvento holds
// descEvento (one accented value), cOrgaoAutor (TCodUfIBGE), tpAutor (only "1" = empresa emitente),
// verAplic (TVerAplic, 1-20) and dPrevEntrega (TData, AAAA-MM-DD). The envelope is leiauteEvento_v1.00.
// The NT has these events authorized by SVRS (docs/fiscal/reform-events.md), so cOrgao is any
// TCOrgaoIBGE value (27 UFs, 90, 91, 92); which one SVRS expects is the caller's choice.
import { leaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import { check, EventInputError, UF_CODES, type EventFieldError } from './event-input.js';

/** TCOrgaoIBGE (tiposBasico_v1.03.xsd): the 27 UF codes plus 90, 91 and 92. */
const ORGAO_CODES = new Set([...UF_CODES, '90', '91', '92']);

export const DELIVERY_FORECAST_TP_EVENTO = '112150';
/** descEvento: the single value the e112150 enumeration accepts (accented). */
export const DELIVERY_FORECAST_DESC = 'Atualização da Data de Previsão de Entrega';

export interface DeliveryForecastInput extends EventHead {
  /** cOrgaoAutor: IBGE code of the issuer's state. */
  cOrgaoAutor: string;
  /** verAplic: the issuing application's version, 1-20 characters. */
  verAplic: string;
  /** dPrevEntrega: the new expected delivery (or availability) date, AAAA-MM-DD. */
  dPrevEntrega: string;
}

/** TData (tiposBasico_v1.03.xsd): a real calendar date in 20xx. */
export function isLayoutDate(value: string): boolean {
  const m = /^(20\d{2})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function deliveryForecastProblems(input: DeliveryForecastInput): EventFieldError[] {
  const errors: EventFieldError[] = [];
  check(errors, ORGAO_CODES.has(input.cOrgao), 'cOrgao', 'must be a TCOrgaoIBGE code (a state, 90, 91 or 92)');
  check(errors, UF_CODES.has(input.cOrgaoAutor), 'cOrgaoAutor', 'must be the IBGE code of the issuer\'s state');
  errors.push(...eventHeadProblems(input));
  const ver = input.verAplic.trim();
  check(errors, ver.length >= 1 && ver.length <= 20 && ver === input.verAplic && !/[^\u0020-\u00ff]/.test(ver), 'verAplic', 'must have 1 to 20 Latin-1 characters, no blank at either end');
  check(errors, isLayoutDate(input.dPrevEntrega), 'dPrevEntrega', 'must be a date AAAA-MM-DD');
  return errors;
}

export function buildDeliveryForecastEvent(input: DeliveryForecastInput, key: SigningKey): SignedEvent {
  const errors = deliveryForecastProblems(input);
  if (errors.length > 0) throw new EventInputError(errors);
  const det =
    leaf('descEvento', DELIVERY_FORECAST_DESC) + leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('tpAutor', '1') +
    leaf('verAplic', input.verAplic) + leaf('dPrevEntrega', input.dPrevEntrega);
  return signEvent(input, DELIVERY_FORECAST_TP_EVENTO, det, key);
}
