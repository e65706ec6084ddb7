// The NT 2025.002-RTC rules on credit and debit notes (finNFe 5/6) the simulator answers
// (adjustment-note-rules.ts; docs/fiscal/credit-debit-notes.md has the rule texts and their sources).
// Their codes are not rows of MOC 7.0 Anexo I, so they are registered outside the tables
// (enforced-rules.ts ENFORCED_OUTSIDE_TABLES). The MOC rows the NT extends to the credit note
// (B25-30/40/50/60: 254, 255, 269, 678) keep their codes and are not listed again.
const WHERE = 'authority-sim/adjustment-note-rules.ts adjustmentNoteRejection';

export const ENFORCED_ADJUSTMENT_NOTES: readonly { code: number; where: string; why: string }[] = [
  { code: 1001, where: WHERE, why: 'NT 2025.002-RTC B25-80: a credit or debit note carries IBS/CBS only (not in MOC 7.0 Anexo I)' },
  { code: 1003, where: WHERE, why: 'NT 2025.002-RTC B25-100: a credit note references NF-e model 55 only (not in MOC 7.0 Anexo I)' },
  { code: 1133, where: WHERE, why: 'NT 2025.002-RTC UB106-30: gTransfCred on a debit note only (not in MOC 7.0 Anexo I)' },
  { code: 1152, where: WHERE, why: 'NT 2025.002-RTC B25.2-40: a credit note of type 03 (return) is inbound (not in MOC 7.0 Anexo I)' },
  { code: 1164, where: WHERE, why: 'NT 2025.002-RTC B25.2-20: a credit note informs tpNFCredito (not in MOC 7.0 Anexo I)' },
];
