// The JSON envelope of Sefin Nacional (Swagger 2.0, docs/fiscal/nfse-national.md#calls): XML travels gzip + base64 inside a
// string field; errors carry the official Anexo I/II codes (nfse-codes). Decoding is bounded: the
// gunzipped document may not pass MAX_XML_BYTES (a small body could otherwise inflate to gigabytes).
import { gunzipSync, gzipSync } from 'node:zlib';
import { nfseCode } from '../../fiscal/nfse-codes/nfse-codes.js';

/** Far past any DPS or event (a DPS is a few KiB); past it the data area is refused as undecodable. */
export const MAX_XML_BYTES = 2 * 1024 * 1024;
/** What this simulator reports as versaoAplicativo (the real one says e.g. SefinNac_Pre_1.4.0). */
export const SIM_VERSION = 'SefinNacSim_1.0.0';

/** One MensagemProcessamento item (docs/fiscal/nfse-national.md#calls). */
export interface NfseMessage {
  codigo: string;
  descricao: string;
  complemento?: string;
}

/** A refusal with an official code; `status` 400 unless said otherwise. */
export class NfseRefusal extends Error {
  constructor(
    readonly code: string,
    readonly complement?: string,
    readonly status = 400,
  ) {
    super(`${code} ${complement ?? ''}`);
  }

  get item(): NfseMessage {
    const official = nfseCode(this.code);
    return { codigo: this.code, descricao: official?.message ?? this.code, ...(this.complement ? { complemento: this.complement } : {}) };
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** base64 -> gunzip (bounded) -> UTF-8 text. E1225 undecodable, E1229 not UTF-8 (Anexo I, docs/fiscal/nfse-national.md#hosts-and-transport). */
export function decodeXmlField(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length % 4 !== 0 || !BASE64.test(value)) {
    throw new NfseRefusal('E1225', 'the data area is not base64');
  }
  let raw: Buffer;
  try {
    raw = gunzipSync(Buffer.from(value, 'base64'), { maxOutputLength: MAX_XML_BYTES });
  } catch (err) {
    const tooLarge = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    throw new NfseRefusal('E1225', tooLarge ? `the decompressed document passes ${MAX_XML_BYTES} bytes` : 'the data area is not gzip');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw).replace(/^\uFEFF/, '');
  } catch {
    throw new NfseRefusal('E1229', 'the document is not UTF-8');
  }
}

export const gzipB64 = (xml: string): string => gzipSync(Buffer.from(xml, 'utf8')).toString('base64');

/** The JSON body as an object, or E1225 (the data area cannot be read). */
export function parseJsonObject(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new NfseRefusal('E1225', 'the body is not a JSON object');
}

/** tipoAmbiente, versaoAplicativo, dataHoraProcessamento: the head of every Sefin answer. */
export function answerHead(tpAmb: 1 | 2, at: Date): { tipoAmbiente: 1 | 2; versaoAplicativo: string; dataHoraProcessamento: string } {
  return { tipoAmbiente: tpAmb, versaoAplicativo: SIM_VERSION, dataHoraProcessamento: brasilia(at) };
}

/** `2026-03-10T11:00:00-03:00`: TSDateTimeUTC with Brasília's offset, as Sefin writes dhProc. */
export function brasilia(at: Date): string {
  return new Date(at.getTime() - 3 * 3600_000).toISOString().slice(0, 19) + '-03:00';
}
