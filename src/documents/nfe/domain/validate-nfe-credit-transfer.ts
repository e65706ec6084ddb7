import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { NfeRequest } from './nfe-request.js';

// The note around a credit transfer (IBSCBS/gTransfCred, CST 800; docs/fiscal/tax-reform.md "Credit transfer",
// docs/fiscal/credit-debit-notes.md): NT 2025.002-RTC UB106-30 (1133) accepts gTransfCred on a debit note (finNFe 6)
// only, UB106-31 (1168) on the debit types 01 (transfer of credits to cooperatives) and 05 (transfer of credit in a
// succession) only; and these two types bind their items' cClassTrib (the NT v1.40 table "cClassTrib x tpNFDebito",
// UB14-60/70/80 as transcribed in credit-debit-notes.md): 01 -> 800002, 05 -> 800001. The item's own checks
// (CST 800 needs credit_transfer, values above zero) are in goods/domain/reform-credit-transfer.ts.

/** The cClassTrib each credit-transfer debit type binds. */
export const TRANSFER_DEBIT_CLASSES: Readonly<Record<string, string>> = { '01': '800002', '05': '800001' };

export function checkCreditTransferNote(errors: Errors, req: NfeRequest, debitType: string | undefined): void {
  const items = Array.isArray(req.items) ? req.items : [];
  const bound = debitType !== undefined ? TRANSFER_DEBIT_CLASSES[debitType] : undefined;
  items.forEach((it, i) => {
    const at = `items[${i}].reform`;
    const transfer = it?.reform?.credit_transfer;
    if (transfer && req.finalidade !== 'debito') {
      fail(errors, `${at}.credit_transfer`, 'is only sent on a nota de débito (finalidade debito, finNFe 6): gTransfCred on another note is refused (NT 2025.002-RTC UB106-30, cStat 1133)', 'UB106-30');
    } else if (transfer && bound === undefined) {
      fail(errors, `${at}.credit_transfer`, 'is only sent on a nota de débito of debit_type 01 (cooperatives) or 05 (succession) (NT 2025.002-RTC UB106-31, cStat 1168)', 'UB106-31');
    } else if (bound !== undefined && (it?.reform?.cst !== '800' || it.reform.class_code !== bound || !transfer)) {
      fail(errors, at, `a nota de débito of type ${debitType} carries CST 800 / cClassTrib ${bound} with credit_transfer in every item (the type binds the cClassTrib, docs/fiscal/credit-debit-notes.md)`);
    }
  });
}
