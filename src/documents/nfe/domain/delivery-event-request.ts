// POST /v1/nfe/:id/delivery-events checked before anything is signed (docs/fiscal/delivery-events.md): each field the
// event's schema or the NT's rules refuse is named here with the NT rule, so the authority's code (821, 823, ...) is
// the last thing a caller meets, not the first. Pure: the note's dhEmi and the clock come in.
import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';

export type DeliveryEventType = 'proof' | 'proof_cancel' | 'failure' | 'failure_cancel';

/** tpEvento per type: NT 2021.001 (110130, 110131) and NT 2023.005 (110192, 110193). */
export const DELIVERY_EVENT_TP: Readonly<Record<DeliveryEventType, string>> = {
  proof: '110130',
  proof_cancel: '110131',
  failure: '110192',
  failure_cancel: '110193',
};

/** tpMotivo (NT 2023.005 P32, e110192 enumeration). */
export const FAILURE_REASONS = { receiver_not_found: 1, receiver_refused: 2, address_not_found: 3, other: 4 } as const;
export type FailureReason = keyof typeof FAILURE_REASONS;

/** The captured image travels as Base64 inside the JSON body (1 MiB by default): at most 1,000,000 characters. */
export const MAX_IMAGE_BASE64 = 1_000_000;

export interface DeliveryEventRequest {
  type: DeliveryEventType;
  delivered_at?: string;
  attempted_at?: string;
  receiver_document?: string;
  receiver_name?: string;
  attempt?: number;
  reason?: FailureReason;
  justification?: string;
  latitude?: number;
  longitude?: number;
  image_base64?: string;
  protocol?: string;
}

const FIELDS_OF: Readonly<Record<DeliveryEventType, readonly (keyof DeliveryEventRequest)[]>> = {
  proof: ['delivered_at', 'receiver_document', 'receiver_name', 'latitude', 'longitude', 'image_base64'],
  failure: ['attempted_at', 'attempt', 'reason', 'justification', 'latitude', 'longitude', 'image_base64'],
  proof_cancel: ['protocol'],
  failure_cancel: ['protocol'],
};
const ALL_FIELDS: readonly (keyof DeliveryEventRequest)[] = [
  'delivered_at', 'attempted_at', 'receiver_document', 'receiver_name', 'attempt', 'reason', 'justification', 'latitude', 'longitude', 'image_base64', 'protocol',
];

const LATIN1 = /^[\u0020-\u00ff]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** A TString of min..max characters (Latin-1, no blank at either end). */
function text(errors: Errors, field: string, value: string | undefined, min: number, max: number): void {
  if (value === undefined) return fail(errors, field, 'is required');
  if (value !== value.trim() || value.length < min || value.length > max || !LATIN1.test(value)) {
    fail(errors, field, `must have ${min} to ${max} characters (Latin-1), no blank at either end`);
  }
}

/** A moment of the delivery: not after the event (NT P30-10, 821), not before the NF-e was issued (NT 2P30-10, 823). */
function moment(errors: Errors, field: string, value: string | undefined, issuedAt: Date, now: Date): Date | null {
  if (value === undefined) {
    fail(errors, field, 'is required');
    return null;
  }
  const at = ISO_WITH_ZONE.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) {
    fail(errors, field, 'must be a date-time with its offset, e.g. 2026-06-10T17:45:00-03:00');
    return null;
  }
  if (at.getTime() > now.getTime()) fail(errors, field, 'must not be later than now, the time of the event (NT P30-10, 821)', 'P30-10');
  else if (at.getTime() < issuedAt.getTime()) fail(errors, field, 'must not be earlier than the issue of the NF-e (NT 2P30-10, 823)', '2P30-10');
  return at;
}

function coordinates(errors: Errors, req: DeliveryEventRequest): void {
  if ((req.latitude === undefined) !== (req.longitude === undefined)) fail(errors, req.latitude === undefined ? 'latitude' : 'longitude', 'latitude and longitude go together');
  if (req.latitude !== undefined && !(Math.abs(req.latitude) <= 90)) fail(errors, 'latitude', 'must be between -90 and 90');
  if (req.longitude !== undefined && !(Math.abs(req.longitude) <= 180)) fail(errors, 'longitude', 'must be between -180 and 180');
}

function image(errors: Errors, value: string | undefined): void {
  if (value === undefined) return fail(errors, 'image_base64', 'is required: the hash the event carries is computed from the captured image (NT 2021.001 P35, NT 2023.005 P36)');
  if (value.length === 0 || value.length > MAX_IMAGE_BASE64) return fail(errors, 'image_base64', `must have 1 to ${MAX_IMAGE_BASE64} Base64 characters`);
  if (!BASE64.test(value)) fail(errors, 'image_base64', 'must be the image in standard Base64 (A-Z, a-z, 0-9, +, /, padded with =)');
}

/** Field errors of a delivery event request; none means the event can be built. */
export function deliveryEventRequestProblems(req: DeliveryEventRequest, issuedAt: Date, now: Date): Errors {
  const errors: Errors = [];
  const allowed = new Set(FIELDS_OF[req.type]);
  for (const f of ALL_FIELDS) if (req[f] !== undefined && !allowed.has(f)) fail(errors, f, `is not used with type ${req.type}`);
  if (req.type === 'proof') {
    moment(errors, 'delivered_at', req.delivered_at, issuedAt, now);
    text(errors, 'receiver_document', req.receiver_document, 2, 20);
    text(errors, 'receiver_name', req.receiver_name, 2, 60);
    coordinates(errors, req);
    image(errors, req.image_base64);
  } else if (req.type === 'failure') {
    moment(errors, 'attempted_at', req.attempted_at, issuedAt, now);
    if (req.attempt !== undefined && !(Number.isInteger(req.attempt) && req.attempt >= 1 && req.attempt <= 999)) fail(errors, 'attempt', 'must be a whole number from 1 to 999');
    if (req.reason === undefined) fail(errors, 'reason', 'is required');
    if (req.reason === 'other') text(errors, 'justification', req.justification, 25, 250);
    else if (req.justification !== undefined && allowed.has('justification')) fail(errors, 'justification', 'is written only with reason other (NT 2023.005 P33)');
    coordinates(errors, req);
    image(errors, req.image_base64);
  } else if (req.protocol === undefined) {
    fail(errors, 'protocol', 'is required: the protocol of the event being cancelled');
  } else if (!/^\d{15}$/.test(req.protocol)) {
    fail(errors, 'protocol', 'must be the 15-digit protocol of the event being cancelled');
  }
  return errors;
}
