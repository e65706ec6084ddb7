import { checkNumber, checkPattern, fail, OPTIONAL_MONEY, OPTIONAL_PERCENT, type Errors } from '../../../fiscal/layout/field-rules.js';
import { presumedCreditEntry, presumedCreditInForce } from '../../../fiscal/reform/presumed-credit-table.js';
import type { ClassEntry, ReformDocument, ReformTables } from '../../../fiscal/reform/reform-tables.js';
import type { DetModel, IbsCbsModel, PresumedCreditModel } from '../../../fiscal/xml/nfe/model.js';
import { percentOf } from '../../../kernel/decimal.js';
import type { ReformItemPlan } from './item-taxes.js';
import { withCreditTransfer } from './reform-credit-transfer.js';
import type { SaleItem } from './sale-item.js';

// The presumed credit of the operation (NT 2025.002-RTC gCredPresOper, UB120-UB130; docs/fiscal/tax-reform.md,
// "Presumed credit"): the issuer's credit on an item, as the cClassTrib table (ind_gCredPresOper) and the cCredPres
// table (fiscal/reform/presumed-credit-table.ts) allow it. Refused with a 422 naming the field, in the NT's order:
// - an NFC-e: UB120-10 (1049);
// - a cClassTrib whose ind_gCredPresOper is 0: UB120-20 (1175) (1 means "permits, does not require": NT Obs. 02);
// - a code not in the table: UB122-10 (1055);
// - an IBS rate with ind_gIBSCredPres 0 (UB123-10, 1053) or none with 1 (UB123-20, 1054); the CBS's with
//   ind_gCBSCredPres (UB127-10 1050, UB127-20 1058);
// - what the table does not let a note carry: a code taken by event only ("Apropria via NF?" 0), a credit not yet
//   in force on the date for its tax (every code starts in 2027 or 2029), a code deducted from the item's tax
//   (ind_DeduzCredPres 1: vIBS = vIBSUF + vIBSMun - vCredPres, UB54a-10), which this gateway does not write.
// The value: vCredPres = vBCCredPres x pCredPres / 100 per tax, rounded to the cent; vBCCredPres defaults to the
// item value net of discount. The gateway writes vCredPres, never vCredPresCondSus (UB126-10 / UB130-10: a code 04
// credit under a suspensive condition).

const MODELS: Readonly<Record<ReformDocument, string>> = { nfe: 'an NF-e', nfce: 'an NFC-e', nfse: 'an NFS-e' };

/** The numbers of reform.presumed_credit and reform.credit_transfer (validate-item.ts, before anything is computed). */
export function checkReformCreditShapes(errors: Errors, at: string, reform: SaleItem['reform']): void {
  const pc = reform?.presumed_credit;
  if (pc) {
    checkPattern(errors, `${at}.reform.presumed_credit.code`, pc.code, /^[0-9]{2}$/, 'must be 2 digits (cCredPres)');
    checkNumber(errors, `${at}.reform.presumed_credit.base`, pc.base, OPTIONAL_MONEY);
    checkNumber(errors, `${at}.reform.presumed_credit.ibs_rate`, pc.ibs_rate, OPTIONAL_PERCENT);
    checkNumber(errors, `${at}.reform.presumed_credit.cbs_rate`, pc.cbs_rate, OPTIONAL_PERCENT);
  }
  const tc = reform?.credit_transfer;
  if (tc) {
    checkNumber(errors, `${at}.reform.credit_transfer.ibs`, tc.ibs, { ...OPTIONAL_MONEY, required: true });
    checkNumber(errors, `${at}.reform.credit_transfer.cbs`, tc.cbs, { ...OPTIONAL_MONEY, required: true });
  }
}

/** The item's presumed credit against the tables on `date` (YYYY-MM-DD; the request's day when the note's is not known). */
export function checkPresumedCredit(errors: Errors, at: string, p: ReformItemPlan, cls: ClassEntry, document: ReformDocument, date: string | undefined, t: ReformTables): void {
  const pc = p.presumedCredit;
  if (!pc) return;
  const field = `${at}.reform.presumed_credit`;
  if (document !== 'nfe') {
    fail(errors, field, `is not allowed in ${MODELS[document]}: the presumed credit of the operation is NF-e only (NT 2025.002-RTC UB120-10, cStat 1049)`, 'UB120-10');
    return;
  }
  if (!cls.indicators.ind_gCredPresOper) {
    fail(errors, field, `is not allowed with cClassTrib ${p.cClassTrib}: its ind_gCredPresOper is 0 in the classification table (NT 2025.002-RTC UB120-20, cStat 1175)`, 'UB120-20');
    return;
  }
  const entry = presumedCreditEntry(t.presumedCredits, pc.code);
  if (!entry) {
    fail(errors, `${field}.code`, `${pc.code} is not a code of the presumed credit table cCredPres (NT 2025.002-RTC UB122-10, cStat 1055)`, 'UB122-10');
    return;
  }
  if (!entry.viaDocument) {
    fail(errors, `${field}.code`, `${pc.code} (${entry.legalReference}) is taken by event, not on the note: the cCredPres table's "Apropria via NF?" is 0`);
    return;
  }
  if (entry.deducts) {
    fail(errors, `${field}.code`, `${pc.code} (${entry.legalReference}) is deducted from the item's tax (ind_DeduzCredPres 1, NT 2025.002-RTC UB54a-10), which this gateway does not write yet`);
    return;
  }
  const day = (date ?? new Date().toISOString()).slice(0, 10);
  const taxes = [
    ['ibs', 'ibs_rate', entry.ibsGroup, 'ind_gIBSCredPres', ['UB123-10', 1053], ['UB123-20', 1054]],
    ['cbs', 'cbs_rate', entry.cbsGroup, 'ind_gCBSCredPres', ['UB127-10', 1050], ['UB127-20', 1058]],
  ] as const;
  for (const [tax, name, group, indicator, forbidden, required] of taxes) {
    const rate = pc[tax];
    if (!group && rate !== undefined) fail(errors, `${field}.${name}`, `is not used with code ${pc.code}: its ${indicator} is 0 (NT 2025.002-RTC ${forbidden[0]}, cStat ${forbidden[1]})`, forbidden[0]);
    else if (group && rate === undefined) fail(errors, `${field}.${name}`, `is required with code ${pc.code}: its ${indicator} is 1 (NT 2025.002-RTC ${required[0]}, cStat ${required[1]})`, required[0]);
    else if (group && !presumedCreditInForce(entry, tax, day)) {
      fail(errors, `${field}.code`, `${pc.code}'s ${tax.toUpperCase()} credit is in force from ${entry[tax]!.from} in the cCredPres table, not on ${day}`);
    }
  }
}

/** gCredPresOper of an item (amounts in cents): the table's checks passed when the note was prepared. */
export function presumedCreditOf(p: ReformItemPlan, d: Pick<DetModel, 'vProd' | 'vDesc'>): PresumedCreditModel | undefined {
  const pc = p.presumedCredit;
  if (!pc) return undefined;
  const vBCCredPres = pc.base ?? d.vProd - d.vDesc;
  const model: PresumedCreditModel = { vBCCredPres, cCredPres: pc.code };
  if (pc.ibs !== undefined) model.gIBSCredPres = { pCredPres: pc.ibs, vCredPres: percentOf(vBCCredPres, pc.ibs) };
  if (pc.cbs !== undefined) model.gCBSCredPres = { pCredPres: pc.cbs, vCredPres: percentOf(vBCCredPres, pc.cbs) };
  return model;
}

/** The item's IBSCBS with what the request adds to it: gTransfCred (CST 800) and gCredPresOper. */
export function withItemCredits(m: IbsCbsModel, p: ReformItemPlan, d: Pick<DetModel, 'vProd' | 'vDesc'>): IbsCbsModel {
  const out = withCreditTransfer(m, p);
  const credit = presumedCreditOf(p, d);
  return credit ? { ...out, gCredPresOper: credit } : out;
}
