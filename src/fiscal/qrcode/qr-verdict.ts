// What the QR code checks read (the note's own values) and what they answer (cStat 395-400, 462-464, 903):
// shared by the version 2 (verify-qr-v2.ts) and version 3 (verify-qr-code.ts) checks.
import type { KeyObject } from 'node:crypto';
import type { TpAmb } from './nfce-urls.js';
import type { DestKind } from './qr-payload.js';

export type QrRejectionCode = 395 | 396 | 397 | 398 | 399 | 400 | 462 | 463 | 464 | 903;
export interface QrRejection {
  cStat: QrRejectionCode;
  reason: string;
  /** The parameter a 396/397/400 names, as the MOC names it (tpAmb, dhEmi, vNF, digVal, cIdToken, cHashQRCode). */
  param?: string;
  /** The rule's own words when the section 4.4 list has none for the code (400, 903). */
  xMotivo?: string;
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
  /**
   * CSC registered for the issuer under this id (v2), or undefined when unknown; `revokedAt`, when
   * known, is when it was revoked (MOC ZX02-308: only a revocation before dhEmi refuses it).
   */
  cscLookup?: (idCsc: string) => { token: string; revoked?: boolean; revokedAt?: Date | null } | undefined | null;
  /** Public key of the certificate that signed the NFC-e (v3 offline). */
  publicKey?: KeyObject;
}
