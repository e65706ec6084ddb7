// The qrCode text of infNFeSupl: the state's consultation URL + `?p=` + parameters (docs/fiscal/qrcode.md).
import { sign, type KeyObject } from 'node:crypto';
import { nfceUrls, type TpAmb, type Uf } from './nfce-urls.js';
import { cscHash, cscIdParam, dayOfEmission, destParams, hexOfAscii, moneyParam, withPayload, type DestKind } from './qr-payload.js';

export interface NfceQrCodeInput {
  accessKey: string;
  tpAmb: TpAmb;
  /** 4 (EPEC) takes the online layout: the XSD's online pattern admits a key with tpEmis 1, 3 or 4. */
  tpEmis: 1 | 4 | 9;
  version: 2 | 3;
  uf: Uf | string;
  /** Required for version 2 (CSC = código de segurança do contribuinte). */
  csc?: { id: string; token: string };
  dhEmi: string;
  vNF: string;
  /** base64 DigestValue of the NFC-e signature (v2 offline). */
  digestValue: string;
  dest?: { kind: DestKind; id: string };
  /** Issuer certificate key (v3 offline). */
  signingKey?: { privateKey: KeyObject };
  /** Overrides the state's published QR base URL (tests, simulator). */
  baseUrl?: string;
}

/** The text a v3 offline signature covers: every parameter before `assinatura`, joined with `|`. */
export function qrV3SignedText(p: { accessKey: string; tpAmb: TpAmb; dhEmi: string; vNF: string; dest?: NfceQrCodeInput['dest'] }): string {
  return [p.accessKey, '3', String(p.tpAmb), dayOfEmission(p.dhEmi), moneyParam(p.vNF), ...destParams(p.dest)].join('|');
}

export function buildNfceQrCode(p: NfceQrCodeInput): string {
  const baseUrl = p.baseUrl ?? nfceUrls(p.uf, p.tpAmb).qrCodeBaseUrl;
  const offline = p.tpEmis === 9;
  if (p.version === 3) {
    if (!offline) return withPayload(baseUrl, `${p.accessKey}|3|${p.tpAmb}`); // NT 2025.001: no CSC, no hash
    if (!p.signingKey) throw new Error('QR code v3 offline needs the issuer certificate key');
    const text = qrV3SignedText(p);
    // NT 2025.001 offline: RSA PKCS#1 v1.5 with SHA-1 over the text, base64 (sped-nfe/sped-common default).
    const signature = sign('sha1', Buffer.from(text, 'utf8'), p.signingKey.privateKey).toString('base64');
    return withPayload(baseUrl, `${text}|${signature}`);
  }
  if (!p.csc) throw new Error('QR code v2 needs the CSC (id and token)');
  const idCsc = cscIdParam(p.csc.id);
  const params = offline
    ? [p.accessKey, '2', String(p.tpAmb), dayOfEmission(p.dhEmi), moneyParam(p.vNF), hexOfAscii(p.digestValue), idCsc]
    : [p.accessKey, '2', String(p.tpAmb), idCsc];
  const joined = params.join('|');
  return withPayload(baseUrl, `${joined}|${cscHash(joined, p.csc.token)}`);
}

/**
 * The same v2 offline QR code signed with another CSC (a contingency NFC-e whose CSC was
 * revoked or replaced before it reached the authority, 462/463/464). Only idCSC and the hash change:
 * the key, day, total and DigestValue are the document's (docs/fiscal/qrcode.md#version-2), so the signed XML stays valid.
 * Null when the URL is not a v2 offline QR code (v3 offline is signed with the certificate, not the CSC).
 */
export function reissueOfflineQrV2(qrCodeUrl: string, csc: { id: string; token: string }): string | null {
  const m = /^(.*[?&]p=)([0-9]{44}\|2\|[12]\|[0-9]{2}\|[0-9.]+\|[0-9a-f]+)\|[0-9]+\|[0-9A-F]{40}$/.exec(qrCodeUrl);
  if (!m) return null;
  const joined = `${m[2]}|${cscIdParam(csc.id)}`;
  return `${m[1]}${joined}|${cscHash(joined, csc.token)}`;
}
