import type { EnforcedRule } from './enforced-rule.js';
import { ENFORCED_IDE } from './enforced-ide.js';
import { ENFORCED_PARTIES } from './enforced-parties.js';
import { ENFORCED_ITEMS } from './enforced-items.js';
import { ENFORCED_FUEL } from './enforced-fuel.js';
import { ENFORCED_MEDICINE } from './enforced-medicine.js';
import { ENFORCED_VEHICLES } from './enforced-vehicles.js';
import { ENFORCED_ICMS } from './enforced-icms.js';
import { ENFORCED_TOTALS } from './enforced-totals.js';
import { ENFORCED_QR_RECORDS } from './enforced-qr-records.js';
import { ENFORCED_NFSE_DPS, ENFORCED_NFSE_SERVICE } from './enforced-nfse-dps.js';
import { ENFORCED_NFSE_VALUES } from './enforced-nfse-values.js';
import { ENFORCED_NFSE_IBSCBS } from './enforced-nfse-ibscbs.js';
import { ENFORCED_ADJUSTMENT_NOTES } from './enforced-adjustment-notes.js';
import { ENFORCED_EPEC } from './enforced-epec.js';

// Which official rules the simulator enforces, one line per rule (docs/fiscal/rule-table.md):
// `rule` is the id in assets/fiscal/rules (MOC 7.0 Anexo I id, or the NFS-e code), `code` the cStat
// (NF-e) or E-code (NFS-e) the simulator answers, `where` the file under src/ (then the function)
// that enforces it. Adding a rule to the simulator = adding its line here; the test
// (enforced-rules.test.ts) checks the id and code against the table and recomputes the README's
// "Rule coverage" figure. Lines only record: nothing here changes what the simulator answers.

/** NF-e / NFC-e: authorization (NFeAutorizacao4) and the general rules of every web service. */
export const ENFORCED_NFE_RULES: readonly EnforcedRule[] = [
  // the families' own registries (enforced-<family>.ts)
  ...ENFORCED_IDE,
  ...ENFORCED_PARTIES,
  ...ENFORCED_ITEMS,
  ...ENFORCED_FUEL,
  ...ENFORCED_MEDICINE,
  ...ENFORCED_VEHICLES,
  ...ENFORCED_ICMS,
  ...ENFORCED_TOTALS,
  ...ENFORCED_QR_RECORDS,
  ...ENFORCED_EPEC,

  // 4.1 general rules
  { rule: 'B02', code: 243, where: 'authority-sim/authorization-service.ts handleAuthorization (and every other service)' },
  { rule: 'B03', code: 108, where: 'authority-sim/authority-simulator.ts outage unavailable:108' },
  { rule: 'B04', code: 109, where: 'authority-sim/authority-simulator.ts outage unavailable:109' },
  { rule: 'D01', code: 225, where: 'authority-sim/authorization-service.ts handleAuthorization (an NF-e of the lot)' },
  { rule: 'D01', code: 215, where: 'authority-sim/authorization-service.ts handleAuthorization (the lot envelope; other services too)' },
  { rule: 'D02', code: 404, where: 'authority-sim/signature-check.ts cStatOf' },
  { rule: 'F01', code: 298, where: 'authority-sim/signature-check.ts cStatOf' },
  { rule: 'F02', code: 297, where: 'authority-sim/signature-check.ts cStatOf' },
  { rule: 'F03', code: 213, where: 'authority-sim/nfe-rules.ts identityRejection' },
  // 4.2.1 authorization: identification
  { rule: 'A03-10', code: 502, where: 'authority-sim/nfe-rules.ts identityRejection' },
  { rule: 'B02-10', code: 226, where: 'authority-sim/nfe-rules.ts qrRejection (unknown cUF)' },
  { rule: 'B09-40', code: 704, where: 'authority-sim/nfe-rules.ts contentRejection' },
  { rule: 'B21-20', code: 710, where: 'authority-sim/nfe55-rules.ts model55Rejection' },
  { rule: 'B23-10', code: 253, where: 'authority-sim/nfe-rules.ts identityRejection' },
  { rule: 'C17-20', code: 209, where: 'authority-sim/registration-rules.ts registrationRejection' },
  { rule: 'E17-50', code: 210, where: 'authority-sim/registration-rules.ts registrationRejection' },
  { rule: 'I05-20', code: 778, where: 'authority-sim/registration-rules.ts registrationRejection' },
  { rule: 'W16-10', code: 610, where: 'authority-sim/nfe-total-rules.ts totalRejection' },
  { rule: 'YA03-10', code: 865, where: 'authority-sim/nfe-rules.ts paymentRejection' },
  { rule: 'YA03-20', code: 866, where: 'authority-sim/nfe-rules.ts paymentRejection' },
  { rule: 'YA09-10', code: 869, where: 'authority-sim/nfe-rules.ts paymentRejection' },
  { rule: 'B25b-10', code: 794, where: 'authority-sim/nfe55-rules.ts model55Rejection' },
  // recipient
  { rule: 'E01-10', code: 719, where: 'authority-sim/nfe55-rules.ts recipientRejection' },
  { rule: 'E03a-10', code: 720, where: 'authority-sim/nfe55-rules.ts recipientRejection' },
  { rule: 'E03a-20', code: 721, where: 'authority-sim/nfe55-rules.ts recipientRejection' },
  { rule: 'E04-10', code: 724, where: 'authority-sim/nfe55-rules.ts recipientRejection' },
  { rule: 'E04-20', code: 598, where: 'authority-sim/nfe-rules.ts contentRejection' },
  { rule: 'E05-10', code: 726, where: 'authority-sim/nfe55-rules.ts recipientRejection' },
  { rule: 'E12-10', code: 727, where: 'authority-sim/nfe55-rules.ts recipientRejection' },
  // items
  { rule: 'I04-10', code: 373, where: 'authority-sim/nfe-rules.ts contentRejection' },
  { rule: 'I08-30', code: 731, where: 'authority-sim/nfe55-rules.ts itemRejection' },
  { rule: 'I08-40', code: 732, where: 'authority-sim/nfe55-rules.ts itemRejection' },
  { rule: 'I08-50', code: 733, where: 'authority-sim/nfe55-rules.ts itemRejection' },
  { rule: 'I08-60', code: 520, where: 'authority-sim/nfe55-rules.ts itemRejection' },
  { rule: 'I08-70', code: 521, where: 'authority-sim/nfe55-rules.ts recipientRejection' },
  { rule: 'I08-90', code: 523, where: 'authority-sim/nfe55-rules.ts itemRejection' },
  { rule: 'N12-50', code: 741, where: 'authority-sim/nfe-rules.ts contentRejection' },
  { rule: 'N12-60', code: 740, where: 'authority-sim/nfe-rules.ts contentRejection' },
  { rule: 'NA01-20', code: 694, where: 'authority-sim/nfe55-rules.ts itemRejection' },
  { rule: 'NA01-30', code: 695, where: 'authority-sim/nfe55-rules.ts itemRejection' },
  // technical responsible (ZD)
  { rule: 'ZD01-10', code: 972, where: 'authority-sim/nfe-rules.ts respTecRejection' },
  { rule: 'ZD02-10', code: 973, where: 'authority-sim/nfe-rules.ts respTecRejection' },
  // transport (X) and exports (ZA)
  { rule: 'ZA01-10', code: 355, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'ZA01-20', code: 356, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'ZA01-30', code: 814, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X02-10', code: 753, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X03-10', code: 754, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X03-20', code: 786, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X04-20', code: 542, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X05-10', code: 543, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X07-10', code: 559, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X11-10', code: 755, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X18-10', code: 756, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X22-10', code: 757, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X25a-10', code: 758, where: 'authority-sim/goods-group-rules.ts' },
  { rule: 'X25b-10', code: 759, where: 'authority-sim/goods-group-rules.ts' },
  // totals, billing
  { rule: 'W07-10', code: 564, where: 'authority-sim/nfe-rules.ts contentRejection' },
  { rule: 'Y01-20', code: 905, where: 'authority-sim/nfe55-rules.ts billingRejection' },
  { rule: 'Y06-10', code: 902, where: 'authority-sim/nfe55-rules.ts billingRejection' },
  { rule: 'Y09-30', code: 850, where: 'authority-sim/nfe55-rules.ts billingRejection' },
  { rule: 'Y10-10', code: 851, where: 'authority-sim/nfe55-rules.ts billingRejection' },
  // NFC-e QR code (the checks live in fiscal/qrcode, called by nfe-rules.ts qrRejection)
  { rule: 'ZX02-10', code: 394, where: 'authority-sim/nfe-rules.ts qrRejection' },
  { rule: 'ZX02-20', code: 395, where: 'fiscal/qrcode/verify-qr-code.ts verifyNfceQrCode' },
  { rule: 'ZX02-224', code: 396, where: 'fiscal/qrcode/verify-qr-code.ts verifyNfceQrCode (no or malformed key)' },
  { rule: 'ZX02-228', code: 397, where: 'fiscal/qrcode/verify-qr-code.ts verifyNfceQrCode' },
  { rule: 'ZX02-236', code: 398, where: 'fiscal/qrcode/verify-qr-code.ts verifyNfceQrCode' },
  { rule: 'ZX02-320', code: 464, where: 'fiscal/qrcode/verify-qr-code.ts verifyNfceQrCode (hash / signature)' },
  // database: the authority's own records
  { rule: '2B08-10', code: 539, where: 'authority-sim/authorization-service.ts obstacleRejection' },
  { rule: '2B08-20', code: 204, where: 'authority-sim/authorization-service.ts obstacleRejection' },
  { rule: '2B08-40', code: 205, where: 'authority-sim/authorization-service.ts obstacleRejection' },
  { rule: '3B08-100', code: 206, where: 'authority-sim/authorization-service.ts obstacleRejection' },
];

/** NFS-e national (Sefin): DPS reception and the events the gateway sends. */
export const ENFORCED_NFSE_RULES: readonly EnforcedRule[] = [
  ...ENFORCED_NFSE_DPS,
  ...ENFORCED_NFSE_SERVICE,
  ...ENFORCED_NFSE_VALUES,
  ...ENFORCED_NFSE_IBSCBS,
  { rule: 'E1225', code: 'E1225', where: 'authority-sim/nfse/nfse-wire.ts' },
  { rule: 'E1226', code: 'E1226', where: 'authority-sim/nfse/document-checks.ts checkDocument' },
  { rule: 'E1228', code: 'E1228', where: 'authority-sim/nfse/document-checks.ts checkDocument' },
  { rule: 'E1229', code: 'E1229', where: 'authority-sim/nfse/nfse-wire.ts' },
  { rule: 'E1235', code: 'E1235', where: 'authority-sim/nfse/document-checks.ts checkDocument' },
  { rule: 'E1242', code: 'E1242', where: 'authority-sim/nfse/document-checks.ts checkDocument' },
  { rule: 'E0714', code: 'E0714', where: 'authority-sim/nfse/dps-rules.ts checkDpsSignature' },
  { rule: 'E0717', code: 'E0717', where: 'authority-sim/nfse/dps-rules.ts checkDpsSignature' },
  { rule: 'E0718', code: 'E0718', where: 'authority-sim/nfse/dps-rules.ts checkDpsSignature' },
  { rule: 'E0715', code: 'E0715', where: 'authority-sim/nfse/dps-rules.ts checkDpsSignature' },
  { rule: 'E9996', code: 'E9996', where: 'authority-sim/nfse/dps-rules.ts checkDpsContent' },
  { rule: 'E0121', code: 'E0121', where: 'authority-sim/nfse/dps-rules.ts checkDpsContent' },
  { rule: 'E0128', code: 'E0128', where: 'authority-sim/nfse/dps-rules.ts checkDpsContent' },
  { rule: 'E0004', code: 'E0004', where: 'authority-sim/nfse/dps-rules.ts checkDpsContent' },
  { rule: 'E0015', code: 'E0015', where: 'authority-sim/nfse/dps-rules.ts checkDpsContent' },
  { rule: 'E0014', code: 'E0014', where: 'authority-sim/nfse/issue-nfse.ts' },
  { rule: 'E0042', code: 'E0042', where: 'authority-sim/nfse/substitution.ts' },
  { rule: 'E0044', code: 'E0044', where: 'authority-sim/nfse/substitution.ts' },
  { rule: 'E0046', code: 'E0046', where: 'authority-sim/nfse/substitution.ts' },
  { rule: 'E0330', code: 'E0330', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  { rule: 'E0333', code: 'E0333', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  { rule: 'E0341', code: 'E0341', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  { rule: 'E0343', code: 'E0343', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  { rule: 'E0345', code: 'E0345', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  { rule: 'E0352', code: 'E0352', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  { rule: 'E0354', code: 'E0354', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  { rule: 'E0356', code: 'E0356', where: 'authority-sim/nfse/foreign-trade-rules.ts' },
  // Anexo II: pedRegEvento (cancellation e101101)
  { rule: 'E1989', code: 'E1989', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E1980', code: 'E1980', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E0812', code: 'E0812', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E0813', code: 'E0813', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E0815', code: 'E0815', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E0816', code: 'E0816', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E1827', code: 'E1827', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E1831', code: 'E1831', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E1843', code: 'E1843', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E0840', code: 'E0840', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E0831', code: 'E0831', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E1983', code: 'E1983', where: 'authority-sim/nfse/register-event.ts' },
  { rule: 'E1991', code: 'E1991', where: 'authority-sim/nfse/register-event.ts' },
];

/**
 * Codes the simulator answers whose rule is not in the tables: the MOC 7.0 Anexo I holds the
 * authorization web service only (events, voiding, consultation and distribution rules are in their
 * own manuals and NTs, not transcribed), and a few codes the MOC 7.0 rule rows do not use.
 */
export const ENFORCED_OUTSIDE_TABLES: readonly { code: number; where: string; why: string }[] = [
  { code: 562, where: 'authority-sim/nfe-rules.ts identityRejection', why: 'cNF of the key: in the cStat list (4.4), in no 4.2.1 row' },
  ...[573, 574, 420, 580, 222, 501, 221].map((code) => ({ code, where: 'authority-sim/event-service.ts', why: 'event reception rules (not in Anexo I)' })),
  ...[784, 657, 596, 594, 494, 575, 650, 651, 655].map((code) => ({ code, where: 'authority-sim/nfe-event-rules.ts', why: 'CC-e / manifestation rules (not in Anexo I)' })),
  ...[563, 256, 241].map((code) => ({ code, where: 'authority-sim/inutilization-service.ts', why: 'inutilização rules (not in Anexo I)' })),
  ...[250, 455, 459, 460, 821, 822, 823, 824, 825, 826].map((code) => ({ code, where: 'authority-sim/delivery-event-rules.ts', why: 'delivery event rules (NT 2021.001, NT 2023.005; not in Anexo I)' })),
  // The EPEC's own codes (NT 2014.001 3.9; epec-rules.ts EPEC_RULES lists every rule it plays). Its other codes (228,
  // 229, 208, 237, 720, 721, 792, 210, 628, 417, 418) name Anexo I rows of the authorization, which the EPEC rules reuse;
  // 250, 455, 594 and 574 are listed above with the event rules that answer them too.
  ...[266, 484, 212, 577, 659, 142, 485, 661, 662].map((code) => ({ code, where: 'authority-sim/epec-rules.ts epecRejection', why: 'EPEC reception rules at the Ambiente Nacional (NT 2014.001 3.9; not in Anexo I)' })),
  ...[459, 1113, 1178, 460].map((code) => ({ code, where: 'authority-sim/reform-event-cancel-rules.ts', why: 'NT 2025.002-RTC 8.14.3, cancellation of an event (110001; not in Anexo I)' })),
  { code: 217, where: 'authority-sim/consult-service.ts', why: 'consultation rule (not in Anexo I)' },
  { code: 114, where: 'authority-sim/svc-rules.ts svcRejection', why: 'an SVC the state has not activated (NT 2013.007 v1.03 04.1 C03.2/GB02.2, 04.7 K05.1; not in Anexo I)' },
  { code: 113, where: 'authority-sim/svc-rules.ts SVC_DEACTIVATING', why: 'an SVC whose deactivation takes effect within 15 minutes, at its status (NT 2013.007 v1.03 04.7 K05.3; not in Anexo I)' },
  ...[656, 589].map((code) => ({ code, where: 'authority-sim/distribution-service.ts', why: 'NFeDistribuicaoDFe rules (NT 2014.002, not in Anexo I)' })),
  ...ENFORCED_ADJUSTMENT_NOTES,
];
