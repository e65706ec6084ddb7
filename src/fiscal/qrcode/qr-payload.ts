// The pieces of the `p=` parameter of the NFC-e QR code, shared by the writer and the verifier.
// Formulas: Manual DANFE NFC-e / NT 2016.002 (v2) and NT 2025.001 (v3) as summarised in docs/fiscal/qrcode.md#version-2, docs/fiscal/qrcode.md#version-3.
import { createHash } from 'node:crypto';

export type DestKind = 'CNPJ' | 'CPF' | 'idEstrangeiro';

/** NT 2016.002: idCSC goes without leading zeros (XSD `0|[1-9][0-9]{0,5}`). */
export function cscIdParam(id: string): string {
  const trimmed = id.trim();
  if (!/^[0-9]{1,6}$/.test(trimmed)) throw new Error(`idCSC must have 1-6 digits, got "${id}"`);
  return String(Number(trimmed));
}

/** Day of dhEmi as written in the document (local date of its own offset, not UTC). */
export function dayOfEmission(dhEmi: string): string {
  const day = /^\d{4}-\d{2}-(\d{2})T/.exec(dhEmi)?.[1];
  if (!day) throw new Error(`dhEmi is not an ISO date-time: ${dhEmi}`);
  return day;
}

/** vNF with exactly two decimals (XSD `0|0\.[0-9]{2}|[1-9][0-9]{0,12}(\.[0-9]{2})?`). */
export function moneyParam(vNF: string): string {
  const value = vNF.trim();
  if (/^(0|[1-9][0-9]{0,12})\.[0-9]{2}$/.test(value)) return value;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) throw new Error(`vNF is not a decimal number: ${vNF}`);
  return Number(value).toFixed(2);
}

/** v2 offline: hex of the ASCII characters of the base64 DigestValue (28 chars -> 56 hex). */
export function hexOfAscii(text: string): string {
  return Buffer.from(text, 'latin1').toString('hex');
}

/** v2: SHA-1 over the parameters joined with `|` followed directly by the CSC, upper-case hex. */
export function cscHash(joinedParams: string, cscToken: string): string {
  return createHash('sha1').update(joinedParams + cscToken, 'utf8').digest('hex').toUpperCase();
}

/**
 * v3 offline recipient pair: 1 CNPJ, 2 CPF, 3 foreign id; unidentified consumer -> both empty. The XSD
 * allows only 3-14 digits for the id, so a foreign id is written as type 3 with an empty id
 * (docs/fiscal/qrcode.md#version-3, sped-nfe citing Manual DANFE NFC-e v6.00).
 */
export function destParams(dest?: { kind: DestKind; id: string }): [string, string] {
  if (!dest || dest.id.trim() === '') return ['', ''];
  if (dest.kind === 'CNPJ') return ['1', dest.id.trim()];
  if (dest.kind === 'CPF') return ['2', dest.id.trim()];
  return ['3', ''];
}

export function withPayload(baseUrl: string, payload: string): string {
  return baseUrl.includes('?p=') ? baseUrl + payload : `${baseUrl}?p=${payload}`;
}
