// Reading an NFC-e QR code text back into its parameters (layouts v2 and v3, docs/fiscal/qrcode.md#version-2, docs/fiscal/qrcode.md#version-3).

interface Common {
  baseUrl: string;
  accessKey: string;
  tpAmb: string;
}
export type ParsedNfceQrCode =
  | (Common & { version: 2; mode: 'online'; idCsc: string; hash: string })
  | (Common & { version: 2; mode: 'offline'; day: string; vNF: string; digestHex: string; idCsc: string; hash: string })
  | (Common & { version: 3; mode: 'online' })
  | (Common & { version: 3; mode: 'offline'; day: string; vNF: string; destType: string; destId: string; signature: string });

export type QrParseProblem =
  | { problem: 'no_p_parameter' } // v1 (`chNFe=...&nVersao=100`) or not an NFC-e QR code
  | { problem: 'missing_key'; baseUrl: string }
  | { problem: 'bad_version'; baseUrl: string; accessKey: string; version: string }
  | { problem: 'malformed'; baseUrl: string; accessKey: string; version: string };

const KEY = /^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/;

const unwrapped = (qr: string) => qr.trim().replace(/^<!\[CDATA\[|\]\]>$/g, ''); // v1/v2 habit of wrapping in CDATA

/** The `p=` text split at `|` (empty when there is no `?p=`). */
export function qrParams(qr: string): string[] {
  const text = unwrapped(qr);
  const at = text.indexOf('?p=');
  return at < 0 ? [] : text.slice(at + 3).split('|');
}

export function parseNfceQrCode(qr: string): ParsedNfceQrCode | QrParseProblem {
  const text = unwrapped(qr);
  const at = text.indexOf('?p=');
  if (at < 0) return { problem: 'no_p_parameter' };
  const baseUrl = text.slice(0, at);
  const params = text.slice(at + 3).split('|');
  const accessKey = params[0] ?? '';
  if (!KEY.test(accessKey)) return { problem: 'missing_key', baseUrl };
  const version = params[1] ?? '';
  const tpAmb = params[2] ?? '';
  if (version !== '2' && version !== '3') return { problem: 'bad_version', baseUrl, accessKey, version };
  const common = { baseUrl, accessKey, tpAmb };
  const malformed = { problem: 'malformed', baseUrl, accessKey, version } as const;
  if (!/^[12]$/.test(tpAmb)) return malformed;

  if (version === '2') {
    if (params.length === 5) return { ...common, version: 2, mode: 'online', idCsc: params[3]!, hash: params[4]! };
    if (params.length === 8) {
      const [, , , day, vNF, digestHex, idCsc, hash] = params as [string, string, string, string, string, string, string, string];
      return { ...common, version: 2, mode: 'offline', day, vNF, digestHex, idCsc, hash };
    }
    return malformed;
  }
  if (params.length === 3) return { ...common, version: 3, mode: 'online' };
  if (params.length === 8) {
    const [, , , day, vNF, destType, destId, signature] = params as [string, string, string, string, string, string, string, string];
    return { ...common, version: 3, mode: 'offline', day, vNF, destType, destId, signature };
  }
  return malformed;
}
