// Reading Sefin Nacional's JSON answers (docs/fiscal/nfse-national.md#calls), tolerant of what docs/fiscal/nfse-national.md#hosts-and-transport saw in practice:
// PascalCase items (`Codigo`/`Descricao`), an `erro` that is sometimes an array, and 429 + Retry-After.
import type { NfseApiMessage } from './nfse-api-types.js';

export type JsonObject = Record<string, unknown>;
export type ParsedJson = { ok: true; value: JsonObject } | { ok: false; reason: string };

/** Messages kept from one answer, and characters kept of each text: an answer cannot grow a job's record without bound. */
const MAX_MESSAGES = 50;
const MAX_TEXT = 1000;

/** The body as a JSON object, refused (not parsed) past `maxJsonBytes`. */
export function parseJsonObject(body: string, maxJsonBytes: number): ParsedJson {
  if (Buffer.byteLength(body, 'utf8') > maxJsonBytes) return { ok: false, reason: `JSON answer larger than ${maxJsonBytes} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'answer is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'answer is not a JSON object' };
  return { ok: true, value: value as JsonObject };
}

/** A field under its documented camelCase name or the PascalCase one docs/fiscal/nfse-national.md#hosts-and-transport saw (`Codigo`). */
export function field(obj: JsonObject, name: string): unknown {
  return obj[name] ?? obj[name[0]!.toUpperCase() + name.slice(1)];
}

export function stringField(obj: JsonObject, name: string): string | undefined {
  const v = field(obj, name);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : typeof v === 'number' ? String(v) : undefined);

/** One `MensagemProcessamento` {mensagem, codigo, descricao, complemento}, either case. */
function message(item: unknown): NfseApiMessage | undefined {
  if (typeof item === 'string') return { code: '', description: item.slice(0, MAX_TEXT) };
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const o = item as JsonObject;
  const code = text(field(o, 'codigo')) ?? '';
  const description = text(field(o, 'descricao')) ?? text(field(o, 'mensagem')) ?? '';
  const complement = text(field(o, 'complemento'));
  if (code === '' && description === '' && !complement) return undefined;
  return complement ? { code, description, complement } : { code, description };
}

/** Items of one list-or-object field (`erro` arrives as either, docs/fiscal/nfse-national.md#hosts-and-transport). */
function messagesIn(v: unknown): NfseApiMessage[] {
  const items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
  return items.slice(0, MAX_MESSAGES).flatMap((i) => message(i) ?? []);
}

/** `erros[]` (POST /nfse) and `erro` (ResponseErro: object, or array in practice), either case. */
export function errorsOf(obj: JsonObject): NfseApiMessage[] {
  return [...messagesIn(field(obj, 'erros')), ...messagesIn(field(obj, 'erro'))].slice(0, MAX_MESSAGES);
}

/** `alertas[]`: non-blocking messages of an authorized answer (docs/fiscal/nfse-national.md#error-codes). */
export function alertsOf(obj: JsonObject): NfseApiMessage[] {
  return messagesIn(field(obj, 'alertas'));
}

/** One line naming the first message, for a reason. */
export function describeMessages(messages: readonly NfseApiMessage[]): string {
  const m = messages[0];
  if (!m) return '';
  return `${m.code}${m.code && m.description ? ' ' : ''}${m.description}`;
}

export interface RetryAfterPolicy {
  /** When the 429 carries no usable Retry-After. */
  defaultMs: number;
  /** A Retry-After further out than this is clamped to it (a typo in a date must not park a job for a year). */
  maxMs: number;
}

/** `Retry-After`: delta-seconds or an HTTP-date (RFC 9110 section 10.2.3), measured from `nowMs`. */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number, policy: RetryAfterPolicy): number {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return policy.defaultMs;
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return policy.defaultMs;
    ms = at - nowMs;
  }
  return Math.min(Math.max(ms, 0), policy.maxMs);
}
