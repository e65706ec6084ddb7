export { buildNfceQrCode, qrV3SignedText, reissueOfflineQrV2, type NfceQrCodeInput } from './build-qr-code.js';
export { knownUfs, nfceUrls, type NfceUrls, type TpAmb, type Uf } from './nfce-urls.js';
export { parseNfceQrCode, type ParsedNfceQrCode, type QrParseProblem } from './parse-qr-code.js';
export { qrVersionFor, QR_V3_ACCEPTED_FROM } from './qr-version.js';
export { verifyNfceQrCode, type QrRejection, type QrRejectionCode, type QrVerifyContext } from './verify-qr-code.js';
