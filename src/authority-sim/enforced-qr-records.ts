import type { EnforcedRule } from './enforced-rule.js';

// Rules on the NFC-e QR code (ZX) and on the authority's own records (sections 4.2.1 groups 1-9)
// that the simulator enforces; see enforced-rules.ts.
export const ENFORCED_QR_RECORDS: readonly EnforcedRule[] = [
  // ZX: infNFeSupl
  { rule: 'ZX01-10', code: 393, where: 'authority-sim/nfe-rules.ts contentRejection (model 55 with infNFeSupl)' },
  { rule: 'ZX02-15', code: 903, where: 'fiscal/qrcode/verify-qr-code.ts versionOneRejection' },
  { rule: 'ZX02-232', code: 396, where: 'fiscal/qrcode/verify-qr-code.ts verifyNfceQrCode (no version)' },
  { rule: 'ZX02-240', code: 396, where: 'fiscal/qrcode/verify-qr-v2.ts verifyQrV2 (tpAmb)' },
  { rule: 'ZX02-244', code: 397, where: 'fiscal/qrcode/verify-qr-v2.ts verifyQrV2 (tpAmb)' },
  { rule: 'ZX02-260', code: 396, where: 'fiscal/qrcode/verify-qr-v2.ts offlineValues (day)' },
  { rule: 'ZX02-268', code: 397, where: 'fiscal/qrcode/verify-qr-v2.ts offlineValues (day)' },
  { rule: 'ZX02-272', code: 396, where: 'fiscal/qrcode/verify-qr-v2.ts offlineValues (vNF)' },
  { rule: 'ZX02-276', code: 397, where: 'fiscal/qrcode/verify-qr-v2.ts offlineValues (vNF)' },
  { rule: 'ZX02-288', code: 396, where: 'fiscal/qrcode/verify-qr-v2.ts offlineValues (DigestValue)' },
  { rule: 'ZX02-292', code: 400, where: 'fiscal/qrcode/verify-qr-v2.ts offlineValues (DigestValue)' },
  { rule: 'ZX02-296', code: 397, where: 'fiscal/qrcode/verify-qr-v2.ts offlineValues (DigestValue)' },
  { rule: 'ZX02-300', code: 396, where: 'fiscal/qrcode/verify-qr-v2.ts verifyQrV2 (idCSC)' },
  { rule: 'ZX02-304', code: 462, where: 'fiscal/qrcode/verify-qr-v2.ts verifyQrV2 (idCSC)' },
  { rule: 'ZX02-308', code: 463, where: 'fiscal/qrcode/verify-qr-v2.ts verifyQrV2 (idCSC revoked before dhEmi; sim-store.ts keeps revoked_at)' },
  { rule: 'ZX02-312', code: 396, where: 'fiscal/qrcode/verify-qr-v2.ts verifyQrV2 (hash)' },
  { rule: 'ZX02-316', code: 400, where: 'fiscal/qrcode/verify-qr-v2.ts verifyQrV2 (hash)' },
  // 2: the authority's notes
  { rule: '2B08-30', code: 218, where: 'authority-sim/authorization-service.ts obstacleRejection' },
  // 3A: the note a complementary NF-e references (optional rules, applied to finNFe 2 only)
  { rule: '3BA02-10', code: 267, where: 'authority-sim/reference-rules.ts referenceRejection (complementary notes)' },
  { rule: '3BA02-20', code: 268, where: 'authority-sim/reference-rules.ts referenceRejection (sim_notes.fin_nfe)' },
  { rule: '3BA02-30', code: 686, where: 'authority-sim/reference-rules.ts referenceRejection' },
  { rule: '3BA02-40', code: 687, where: 'authority-sim/reference-rules.ts referenceRejection' },
  // 7: the SEFAZ's register (the rows that need none)
  // 1 and 5: the parties' register, as a `deny:<cStat>` scenario plays it
  { rule: '1C17-40', code: 301, where: 'authority-sim/scenario-denial.ts scenarioDenial (deny:301)' },
  { rule: '5E17-40', code: 302, where: 'authority-sim/scenario-denial.ts scenarioDenial (deny:302, a recipient with IE)' },
  { rule: '5E17-60', code: 303, where: 'authority-sim/scenario-denial.ts scenarioDenial (deny:303, a recipient CNPJ without IE)' },
];
