// The issuer's delivery events on its own NF-e (docs/fiscal/delivery-events.md): proof of delivery 110130 and its
// cancellation 110131 (NT 2021.001 v1.01, received only by the Ambiente Nacional, cOrgao 91), failed delivery 110192
// and its cancellation 110193 (NT 2023.005 v1.02, received only by SVRS, cOrgao 92). detEvento per
// e110130/e110131/e110192/e110193_v1.00.xsd (assets/fiscal/schemas/PL_009_V4): the proof events carry tpAutor 1,
// the failure events none; both cancellations name the protocol (TProt) of the event they cancel.
import { createHash } from 'node:crypto';
import { leaf, optLeaf } from '../xml-text.js';
import type { SigningKey } from '../signature/sign.js';
import { eventHeadProblems, signEvent, type EventHead, type SignedEvent } from './event-envelope.js';
import { check, DATE_TIME_UTC, EventInputError, PROTOCOL, UF_CODES, type EventFieldError } from './event-input.js';

export const DELIVERY_PROOF_TP_EVENTO = '110130';
export const DELIVERY_PROOF_CANCEL_TP_EVENTO = '110131';
export const DELIVERY_FAILURE_TP_EVENTO = '110192';
export const DELIVERY_FAILURE_CANCEL_TP_EVENTO = '110193';

/** descEvento: the one value each schema enumerates. */
export const DELIVERY_EVENT_DESC: Readonly<Record<string, string>> = {
  [DELIVERY_PROOF_TP_EVENTO]: 'Comprovante de Entrega da NF-e',
  [DELIVERY_PROOF_CANCEL_TP_EVENTO]: 'Cancelamento Comprovante de Entrega da NF-e',
  [DELIVERY_FAILURE_TP_EVENTO]: 'Insucesso na Entrega da NF-e',
  [DELIVERY_FAILURE_CANCEL_TP_EVENTO]: 'Cancelamento Insucesso na Entrega da NF-e',
};

/** NT 2021.001 P08: the proof events go to the Ambiente Nacional (91); NT 2023.005 P08: the failure events to SVRS (92). */
export const DELIVERY_EVENT_CORGAO: Readonly<Record<string, string>> = {
  [DELIVERY_PROOF_TP_EVENTO]: '91',
  [DELIVERY_PROOF_CANCEL_TP_EVENTO]: '91',
  [DELIVERY_FAILURE_TP_EVENTO]: '92',
  [DELIVERY_FAILURE_CANCEL_TP_EVENTO]: '92',
};

/** NT 2023.005 P32 tpMotivo: 1 receiver not found, 2 receiver refused, 3 address does not exist, 4 other (with xJustMotivo). */
export type DeliveryFailureReason = 1 | 2 | 3 | 4;

/**
 * hashComprovante / hashTentativaEntrega (NT 2021.001 P35, NT 2023.005 P36, the XSD's documentation): SHA-1 of the
 * access key followed by the Base64 text of the captured image, written in Base64 (28 characters, 20 bytes).
 */
export function deliveryImageHash(chNFe: string, imageBase64: string): string {
  return createHash('sha1').update(chNFe + imageBase64, 'latin1').digest('base64');
}

interface DeliveryHead extends EventHead {
  /** cOrgaoAutor: the UF code of the access key (NT 2021.001/2023.005 P20; 455 otherwise). */
  cOrgaoAutor: string;
  /** verAplic: TVerAplic, 1-20 characters. */
  verAplic: string;
}

export interface DeliveryProofInput extends DeliveryHead {
  /** dhEntrega: when the delivery ended (TDateTimeUTC). */
  dhEntrega: string;
  /** nDoc: the document number of who signed for the goods, 2-20 characters. */
  nDoc: string;
  /** xNome: their name, 2-60 characters (TString). */
  xNome: string;
  latGPS?: string;
  longGPS?: string;
  /** hashComprovante, see deliveryImageHash. */
  hashComprovante: string;
  dhHashComprovante?: string;
}

export interface DeliveryFailureInput extends DeliveryHead {
  /** dhTentativaEntrega: when the failed attempt ended (TDateTimeUTC). */
  dhTentativaEntrega: string;
  /** nTentativa: which attempt failed, 1-3 digits. */
  nTentativa?: number;
  tpMotivo: DeliveryFailureReason;
  /** xJustMotivo: 25-250 characters, only with tpMotivo 4 (NT 2023.005 P33). */
  xJustMotivo?: string;
  latGPS?: string;
  longGPS?: string;
  hashTentativaEntrega: string;
  dhHashTentativaEntrega?: string;
}

export interface DeliveryCancelInput extends DeliveryHead {
  /** nProtEvento: the protocol (TProt) of the proof or failure event being cancelled. */
  nProtEvento: string;
}

/** TString (Latin-1, no blank at either end) within the lengths. */
const isTString = (s: string, min: number, max: number) =>
  s.length >= min && s.length <= max && s === s.trim() && !/[^\u0020-\u00ff]/.test(s);
/** TLatitude / TLongitude (tiposBasico_v1.03.xsd): [-]degrees with exactly six decimals, within +-90 / +-180. */
const LAT = /^-?(?:[0-9]|[1-8][0-9]|90)\.[0-9]{6}$/;
const LONG = /^-?(?:[0-9]|[1-9][0-9]|1[0-7][0-9]|180)\.[0-9]{6}$/;
const within = (v: string, limit: number) => Math.abs(Number(v)) <= limit;
/** base64Binary of length 20: 28 characters ending in one '='. */
const SHA1_BASE64 = /^[A-Za-z0-9+/]{27}=$/;

/** A coordinate written as TLatitude/TLongitude wants it (six decimals); null when out of range. */
export function gpsCoordinate(value: number, limit: 90 | 180): string | null {
  if (!Number.isFinite(value) || Math.abs(value) > limit) return null;
  return value.toFixed(6);
}

function headProblems(input: DeliveryHead, tpEvento: string): EventFieldError[] {
  const errors: EventFieldError[] = [];
  check(errors, input.cOrgao === DELIVERY_EVENT_CORGAO[tpEvento], 'cOrgao', `must be ${DELIVERY_EVENT_CORGAO[tpEvento]} for event ${tpEvento}`);
  check(errors, UF_CODES.has(input.cOrgaoAutor), 'cOrgaoAutor', "must be the IBGE code of the access key's state");
  errors.push(...eventHeadProblems(input));
  check(errors, isTString(input.verAplic, 1, 20), 'verAplic', 'must have 1 to 20 Latin-1 characters, no blank at either end');
  return errors;
}

function gpsProblems(errors: EventFieldError[], lat: string | undefined, long: string | undefined): void {
  check(errors, (lat === undefined) === (long === undefined), 'latGPS', 'latitude and longitude go together');
  if (lat !== undefined) check(errors, LAT.test(lat) && within(lat, 90), 'latGPS', 'must be a latitude with six decimals, -90 to 90');
  if (long !== undefined) check(errors, LONG.test(long) && within(long, 180), 'longGPS', 'must be a longitude with six decimals, -180 to 180');
}

export function deliveryProofProblems(input: DeliveryProofInput): EventFieldError[] {
  const errors = headProblems(input, DELIVERY_PROOF_TP_EVENTO);
  check(errors, DATE_TIME_UTC.test(input.dhEntrega), 'dhEntrega', 'must be a date-time with seconds and offset');
  check(errors, isTString(input.nDoc, 2, 20), 'nDoc', 'must have 2 to 20 characters');
  check(errors, isTString(input.xNome, 2, 60), 'xNome', 'must have 2 to 60 Latin-1 characters, no blank at either end');
  gpsProblems(errors, input.latGPS, input.longGPS);
  check(errors, SHA1_BASE64.test(input.hashComprovante), 'hashComprovante', 'must be a SHA-1 digest in Base64 (28 characters)');
  if (input.dhHashComprovante !== undefined) check(errors, DATE_TIME_UTC.test(input.dhHashComprovante), 'dhHashComprovante', 'must be a date-time with seconds and offset');
  return errors;
}

export function deliveryFailureProblems(input: DeliveryFailureInput): EventFieldError[] {
  const errors = headProblems(input, DELIVERY_FAILURE_TP_EVENTO);
  check(errors, DATE_TIME_UTC.test(input.dhTentativaEntrega), 'dhTentativaEntrega', 'must be a date-time with seconds and offset');
  if (input.nTentativa !== undefined) check(errors, Number.isInteger(input.nTentativa) && input.nTentativa >= 0 && input.nTentativa <= 999, 'nTentativa', 'must be 0 to 999');
  check(errors, [1, 2, 3, 4].includes(input.tpMotivo), 'tpMotivo', 'must be 1, 2, 3 or 4');
  if (input.tpMotivo === 4) {
    check(errors, input.xJustMotivo !== undefined && isTString(input.xJustMotivo, 25, 250), 'xJustMotivo', 'reason 4 (other) needs a justification of 25 to 250 Latin-1 characters');
  } else {
    check(errors, input.xJustMotivo === undefined, 'xJustMotivo', 'is written only for reason 4 (other)');
  }
  gpsProblems(errors, input.latGPS, input.longGPS);
  check(errors, SHA1_BASE64.test(input.hashTentativaEntrega), 'hashTentativaEntrega', 'must be a SHA-1 digest in Base64 (28 characters)');
  if (input.dhHashTentativaEntrega !== undefined) check(errors, DATE_TIME_UTC.test(input.dhHashTentativaEntrega), 'dhHashTentativaEntrega', 'must be a date-time with seconds and offset');
  return errors;
}

export function deliveryCancelProblems(input: DeliveryCancelInput, tpEvento: typeof DELIVERY_PROOF_CANCEL_TP_EVENTO | typeof DELIVERY_FAILURE_CANCEL_TP_EVENTO): EventFieldError[] {
  const errors = headProblems(input, tpEvento);
  check(errors, PROTOCOL.test(input.nProtEvento), 'nProtEvento', 'must be the 15-digit protocol of the event being cancelled');
  return errors;
}

function signed(input: DeliveryHead, tpEvento: string, errors: EventFieldError[], det: string, key: SigningKey): SignedEvent {
  if (errors.length > 0) throw new EventInputError(errors);
  return signEvent(input, tpEvento, leaf('descEvento', DELIVERY_EVENT_DESC[tpEvento]!) + det, key);
}

/** 110130 Comprovante de Entrega da NF-e, in the element order of e110130_v1.00.xsd. */
export function buildDeliveryProofEvent(input: DeliveryProofInput, key: SigningKey): SignedEvent {
  const det =
    leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('tpAutor', '1') + leaf('verAplic', input.verAplic) + leaf('dhEntrega', input.dhEntrega) +
    leaf('nDoc', input.nDoc) + leaf('xNome', input.xNome) + optLeaf('latGPS', input.latGPS) + optLeaf('longGPS', input.longGPS) +
    leaf('hashComprovante', input.hashComprovante) + optLeaf('dhHashComprovante', input.dhHashComprovante);
  return signed(input, DELIVERY_PROOF_TP_EVENTO, deliveryProofProblems(input), det, key);
}

/** 110192 Insucesso na Entrega da NF-e, in the element order of e110192_v1.00.xsd (no tpAutor). */
export function buildDeliveryFailureEvent(input: DeliveryFailureInput, key: SigningKey): SignedEvent {
  const det =
    leaf('cOrgaoAutor', input.cOrgaoAutor) + leaf('verAplic', input.verAplic) + leaf('dhTentativaEntrega', input.dhTentativaEntrega) +
    optLeaf('nTentativa', input.nTentativa) + leaf('tpMotivo', input.tpMotivo) + optLeaf('xJustMotivo', input.xJustMotivo) +
    optLeaf('latGPS', input.latGPS) + optLeaf('longGPS', input.longGPS) + leaf('hashTentativaEntrega', input.hashTentativaEntrega) +
    optLeaf('dhHashTentativaEntrega', input.dhHashTentativaEntrega);
  return signed(input, DELIVERY_FAILURE_TP_EVENTO, deliveryFailureProblems(input), det, key);
}

/** 110131 (cancels a proof) or 110193 (cancels a failure): e110131/e110193_v1.00.xsd; only the proof's carries tpAutor. */
export function buildDeliveryCancelEvent(
  input: DeliveryCancelInput,
  tpEvento: typeof DELIVERY_PROOF_CANCEL_TP_EVENTO | typeof DELIVERY_FAILURE_CANCEL_TP_EVENTO,
  key: SigningKey,
): SignedEvent {
  const tpAutor = tpEvento === DELIVERY_PROOF_CANCEL_TP_EVENTO ? leaf('tpAutor', '1') : '';
  const det = leaf('cOrgaoAutor', input.cOrgaoAutor) + tpAutor + leaf('verAplic', input.verAplic) + leaf('nProtEvento', input.nProtEvento);
  return signed(input, tpEvento, deliveryCancelProblems(input, tpEvento), det, key);
}
