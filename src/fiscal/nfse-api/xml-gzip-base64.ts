// The XML inside Sefin Nacional's JSON: gzip, then base64 (docs/fiscal/nfse-national.md#hosts-and-transport: `dpsXmlGZipB64`,
// `pedidoRegistroEventoXmlGZipB64`, `nfseXmlGZipB64`, `eventoXmlGZipB64`). Decoding an answer is bounded:
// the base64 text by the JSON's own bound, the inflated XML by zlib's maxOutputLength, so a small
// "gzip bomb" costs at most `maxXmlBytes` of memory.
import { gunzipSync, gzipSync } from 'node:zlib';

export type UnpackedXml = { ok: true; xml: string } | { ok: false; reason: string };

/** Standard base64 (RFC 4648 section 4), padded or not; Node's decoder would silently skip anything else. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** XML text -> gzip -> base64, the form every request field takes. */
export function packXml(xml: string): string {
  return gzipSync(Buffer.from(xml, 'utf8')).toString('base64');
}

/** base64 -> gunzip (at most `maxXmlBytes` out) -> UTF-8 text; each failure named. */
export function unpackXml(field: string, value: unknown, maxXmlBytes: number): UnpackedXml {
  if (typeof value !== 'string' || value === '') return { ok: false, reason: `${field} missing from the answer` };
  // Some encoders wrap base64 at 76 columns; line breaks carry no data.
  const text = value.replace(/[\r\n]/g, '');
  if (!BASE64.test(text)) return { ok: false, reason: `${field} is not base64` };
  let inflated: Buffer;
  try {
    inflated = gunzipSync(Buffer.from(text, 'base64'), { maxOutputLength: maxXmlBytes });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, reason: `${field} inflates past ${maxXmlBytes} bytes` };
    return { ok: false, reason: `${field} is not gzip (${code ?? (err as Error).message})` };
  }
  try {
    return { ok: true, xml: utf8.decode(inflated) };
  } catch {
    return { ok: false, reason: `${field} is not UTF-8 text` };
  }
}
