import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { CstEntry } from '../../../fiscal/reform/reform-tables.js';
import type { IbsCbsModel } from '../../../fiscal/xml/nfe/model.js';
import type { ReformItemPlan } from './item-taxes.js';

// The credit transfer (NT 2025.002-RTC IBSCBS/gTransfCred {vIBS, vCBS}, UB106; CST 800 "Transferência de crédito",
// cClassTrib 800001 succession, 800002 cooperatives): docs/fiscal/tax-reform.md, "Credit transfer". Per item:
// - a CST whose ind_gTransfCred is 1 (800) needs reform.credit_transfer (UB13-45, 1132); any other refuses it
//   (UB13-44, 1131);
// - the IBS or the CBS transferred above zero (UB106-40, 1129).
// The note must be a debit note (finNFe 6, UB106-30 1133) of type 01 or 05 (UB106-31, 1168), whose bound cClassTrib
// are 800002 and 800001 (validate-nfe-adjustment.ts). CST 800 carries no gIBSCBS (its ind_gIBSCBS is 0): the
// item's IBSCBS is CST, cClassTrib and gTransfCred.

/** The item's credit transfer against its CST's indicator (the CST row of the table). */
export function checkCreditTransfer(errors: Errors, at: string, p: ReformItemPlan, cst: CstEntry): void {
  const field = `${at}.reform.credit_transfer`;
  if (cst.indicators.ind_gTransfCred && !p.transfer) {
    fail(errors, field, `is required with CST ${p.CST}: its ind_gTransfCred is 1, the item carries gTransfCred (NT 2025.002-RTC UB13-45, cStat 1132)`, 'UB13-45');
  } else if (!cst.indicators.ind_gTransfCred && p.transfer) {
    fail(errors, field, `is not used with CST ${p.CST}: only a CST whose ind_gTransfCred is 1 (800) carries gTransfCred (NT 2025.002-RTC UB13-44, cStat 1131)`, 'UB13-44');
  } else if (p.transfer && p.transfer.vIBS <= 0 && p.transfer.vCBS <= 0) {
    fail(errors, field, 'the IBS or the CBS transferred must be above zero (NT 2025.002-RTC UB106-40, cStat 1129)', 'UB106-40');
  }
}

/** The item's IBSCBS with gTransfCred (CST 800). */
export function withCreditTransfer(m: IbsCbsModel, p: ReformItemPlan): IbsCbsModel {
  if (!p.transfer) return m;
  const out: IbsCbsModel = { CST: m.CST, cClassTrib: m.cClassTrib, gTransfCred: { ...p.transfer } };
  return out;
}
