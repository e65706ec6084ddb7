// The authority's QR code checks (cStat 395-400, 462-464, 903; texts in webservices/cstat.json).
// Version 2 follows MOC 7.0 Anexo I group ZX parameter by parameter (verify-qr-v2.ts). Version 3
// (NT 2025.001, not in the MOC table): SEFAZ verifies the signature over the document's own values,
// so a parameter that differs from the NFC-e (tpAmb, day, vNF, recipient) surfaces as 464.
import { verify } from 'node:crypto';
import { qrV3SignedText } from './build-qr-code.js';
import { parseNfceQrCode, qrParams, type ParsedNfceQrCode } from './parse-qr-code.js';
import { dayOfEmission, destParams, moneyParam } from './qr-payload.js';
import { verifyQrV2 } from './verify-qr-v2.js';
import type { QrRejection, QrRejectionCode, QrVerifyContext } from './qr-verdict.js';

export type { QrRejection, QrRejectionCode, QrVerifyContext } from './qr-verdict.js';

const reject = (cStat: QrRejectionCode, reason: string): QrRejection => ({ cStat, reason });

function sameSite(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return norm(a) === norm(b);
}

// MOC ZX02-15 (903, NT 2016.002): the version "100" layout (`?chNFe=...&nVersao=100&...`) is no longer
// valid for an NFC-e issued after 30/09/2018. Its own parameter rules (ZX02-22 ... ZX02-120) concern
// only older notes, which the authority no longer receives: they are not checked here.
const V1_END = '2018-09-30';
const V1_WORDS = 'Rejeição Versão informada no QR-Code (“100”) não é mais válida para a data de emissão';

function versionOneRejection(qr: string, dhEmi: string): QrRejection | null {
  if (!/[?&;]nVersao=100(?![0-9])/.test(qr) || dhEmi.slice(0, 10) <= V1_END) return null;
  return { cStat: 903, reason: `QR code version 100 for an NFC-e issued on ${dhEmi.slice(0, 10)}, after ${V1_END}`, xMotivo: V1_WORDS };
}

export function verifyNfceQrCode(qr: string, ctx: QrVerifyContext): QrRejection | null {
  const v1 = versionOneRejection(qr, ctx.dhEmi);
  if (v1) return v1;
  const parsed = parseNfceQrCode(qr);
  if ('problem' in parsed) {
    if (parsed.problem === 'no_p_parameter') return reject(396, 'QR code has no p= parameter with the access key');
    if (!sameSite(parsed.baseUrl, ctx.expectedBaseUrl)) return reject(395, `QR code site ${parsed.baseUrl} differs from ${ctx.expectedBaseUrl}`);
    if (parsed.problem === 'missing_key') return { ...reject(396, 'QR code access key missing or malformed'), param: 'chAcesso' };
    if (parsed.accessKey !== ctx.accessKey) return reject(397, 'QR code access key differs from the NFC-e');
    // ZX02-232 (396): no version; ZX02-236 (398): another one.
    if (parsed.problem === 'bad_version' && parsed.version === '') return { ...reject(396, 'QR code version is not informed'), param: 'nVersao' };
    if (parsed.problem === 'bad_version') return reject(398, `QR code version "${parsed.version}" is not valid`);
    if (parsed.version === '2') return verifyQrV2(qrParams(qr), ctx) ?? reject(464, 'QR code parameters are malformed');
    return reject(464, 'QR code parameters are malformed');
  }
  if (!sameSite(parsed.baseUrl, ctx.expectedBaseUrl)) return reject(395, `QR code site ${parsed.baseUrl} differs from ${ctx.expectedBaseUrl}`);
  if (parsed.accessKey !== ctx.accessKey) return reject(397, 'QR code access key differs from the NFC-e');
  if (!(ctx.acceptedVersions ?? [2, 3]).includes(parsed.version)) return reject(398, `QR code version ${parsed.version} is not accepted`);
  if (parsed.version === 2) return verifyQrV2(qrParams(qr), ctx);
  return verifyQrV3(parsed, ctx);
}

function verifyQrV3(parsed: Extract<ParsedNfceQrCode, { version: 3 }>, ctx: QrVerifyContext): QrRejection | null {
  if (parsed.tpAmb !== String(ctx.tpAmb)) return reject(464, 'QR code tpAmb differs from the NFC-e');
  const offline = ctx.tpEmis === 9;
  if ((parsed.mode === 'offline') !== offline) return reject(464, `QR code is in the ${parsed.mode} layout but the NFC-e tpEmis is ${ctx.tpEmis}`);
  if (parsed.mode === 'online') return null;
  // The values written in the QR code are what the consumer's phone shows: they must be the
  // document's, not only the signature (which this function takes over the document's values).
  if (parsed.day !== dayOfEmission(ctx.dhEmi)) return reject(464, `QR code day ${parsed.day} differs from dhEmi ${ctx.dhEmi}`);
  if (parsed.vNF !== moneyParam(ctx.vNF)) return reject(464, `QR code value ${parsed.vNF} differs from vNF ${ctx.vNF}`);
  if ((parsed.destType || parsed.destId) && !ctx.dest) return reject(399, 'QR code identifies a recipient but the NFC-e has none');
  if (destParams(ctx.dest).join('|') !== `${parsed.destType}|${parsed.destId}`) return reject(464, 'QR code recipient differs from the NFC-e');
  if (!ctx.publicKey) throw new Error('verifying a v3 offline QR code needs the signer public key');
  const text = qrV3SignedText({ accessKey: ctx.accessKey, tpAmb: ctx.tpAmb, dhEmi: ctx.dhEmi, vNF: ctx.vNF, dest: ctx.dest });
  const ok = verify('sha1', Buffer.from(text, 'utf8'), ctx.publicKey, Buffer.from(parsed.signature, 'base64'));
  return ok ? null : reject(464, 'QR code signature does not match the NFC-e data');
}
