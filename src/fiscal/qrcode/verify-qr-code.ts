// The authority's QR code checks (cStat 395-399, 462-464; texts in webservices/cstat.json). SEFAZ
// recomputes the hash/signature from the document's own values, so any parameter that differs from
// the NFC-e (tpAmb, day, vNF, DigestValue, recipient) surfaces as 464.
import { verify, type KeyObject } from 'node:crypto';
import { qrV3SignedText } from './build-qr-code.js';
import type { TpAmb } from './nfce-urls.js';
import { parseNfceQrCode } from './parse-qr-code.js';
import { cscHash, cscIdParam, dayOfEmission, destParams, hexOfAscii, moneyParam, type DestKind } from './qr-payload.js';

export type QrRejectionCode = 395 | 396 | 397 | 398 | 399 | 462 | 463 | 464;
export interface QrRejection {
  cStat: QrRejectionCode;
  reason: string;
}

export interface QrVerifyContext {
  /** The state's QR base URL for this environment (nfceUrls(uf, tpAmb).qrCodeBaseUrl). */
  expectedBaseUrl: string;
  accessKey: string;
  tpAmb: TpAmb;
  tpEmis: number;
  dhEmi: string;
  vNF: string;
  /** DigestValue of the NFC-e signature as transmitted. */
  digestValue: string;
  dest?: { kind: DestKind; id: string };
  /** QR layouts the state accepts now (default: 2 and 3). */
  acceptedVersions?: ReadonlyArray<2 | 3>;
  /** CSC registered for the issuer under this id (v2), or undefined when unknown. */
  cscLookup?: (idCsc: string) => { token: string; revoked?: boolean } | undefined | null;
  /** Public key of the certificate that signed the NFC-e (v3 offline). */
  publicKey?: KeyObject;
}

const reject = (cStat: QrRejectionCode, reason: string): QrRejection => ({ cStat, reason });

function sameSite(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return norm(a) === norm(b);
}

export function verifyNfceQrCode(qr: string, ctx: QrVerifyContext): QrRejection | null {
  const parsed = parseNfceQrCode(qr);
  if ('problem' in parsed) {
    if (parsed.problem === 'no_p_parameter') return reject(396, 'QR code has no p= parameter with the access key');
    if (!sameSite(parsed.baseUrl, ctx.expectedBaseUrl)) return reject(395, `QR code site ${parsed.baseUrl} differs from ${ctx.expectedBaseUrl}`);
    if (parsed.problem === 'missing_key') return reject(396, 'QR code access key missing or malformed');
    if (parsed.accessKey !== ctx.accessKey) return reject(397, 'QR code access key differs from the NFC-e');
    if (parsed.problem === 'bad_version') return reject(398, `QR code version "${parsed.version}" is not valid`);
    return reject(464, 'QR code parameters are malformed');
  }
  if (!sameSite(parsed.baseUrl, ctx.expectedBaseUrl)) return reject(395, `QR code site ${parsed.baseUrl} differs from ${ctx.expectedBaseUrl}`);
  if (parsed.accessKey !== ctx.accessKey) return reject(397, 'QR code access key differs from the NFC-e');
  if (!(ctx.acceptedVersions ?? [2, 3]).includes(parsed.version)) return reject(398, `QR code version ${parsed.version} is not accepted`);
  if (parsed.tpAmb !== String(ctx.tpAmb)) return reject(464, 'QR code tpAmb differs from the NFC-e');
  const offline = ctx.tpEmis === 9;
  if ((parsed.mode === 'offline') !== offline) return reject(464, `QR code is in the ${parsed.mode} layout but the NFC-e tpEmis is ${ctx.tpEmis}`);

  if (parsed.mode === 'offline') {
    // The values written in the QR code are what the consumer's phone shows: they must be the
    // document's, not only the hash or signature (which this function takes over the document's values).
    if (parsed.day !== dayOfEmission(ctx.dhEmi)) return reject(464, `QR code day ${parsed.day} differs from dhEmi ${ctx.dhEmi}`);
    if (parsed.vNF !== moneyParam(ctx.vNF)) return reject(464, `QR code value ${parsed.vNF} differs from vNF ${ctx.vNF}`);
    if (parsed.version === 2 && parsed.digestHex.toLowerCase() !== hexOfAscii(ctx.digestValue).toLowerCase()) {
      return reject(464, 'QR code DigestValue differs from the NFC-e signature');
    }
  }
  if (parsed.version === 3) {
    if (parsed.mode === 'online') return null;
    if ((parsed.destType || parsed.destId) && !ctx.dest) return reject(399, 'QR code identifies a recipient but the NFC-e has none');
    if (destParams(ctx.dest).join('|') !== `${parsed.destType}|${parsed.destId}`) return reject(464, 'QR code recipient differs from the NFC-e');
    if (!ctx.publicKey) throw new Error('verifying a v3 offline QR code needs the signer public key');
    const text = qrV3SignedText({ accessKey: ctx.accessKey, tpAmb: ctx.tpAmb, dhEmi: ctx.dhEmi, vNF: ctx.vNF, dest: ctx.dest });
    const ok = verify('sha1', Buffer.from(text, 'utf8'), ctx.publicKey, Buffer.from(parsed.signature, 'base64'));
    return ok ? null : reject(464, 'QR code signature does not match the NFC-e data');
  }

  let idCsc: string;
  try {
    idCsc = cscIdParam(parsed.idCsc);
  } catch {
    return reject(462, 'QR code CSC id is malformed');
  }
  const csc = ctx.cscLookup?.(idCsc);
  if (!csc) return reject(462, `CSC id ${idCsc} is not registered for the issuer`);
  if (csc.revoked) return reject(463, `CSC id ${idCsc} was revoked`);
  const params =
    parsed.mode === 'offline'
      ? [ctx.accessKey, '2', String(ctx.tpAmb), dayOfEmission(ctx.dhEmi), moneyParam(ctx.vNF), hexOfAscii(ctx.digestValue), idCsc]
      : [ctx.accessKey, '2', String(ctx.tpAmb), idCsc];
  const expected = cscHash(params.join('|'), csc.token);
  return expected === parsed.hash.toUpperCase() ? null : reject(464, 'QR code hash differs from the one computed with the NFC-e data');
}
