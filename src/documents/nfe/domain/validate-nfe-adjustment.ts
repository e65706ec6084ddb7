import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { ufAbbreviation } from '../../../fiscal/sefaz/endpoints.js';
import { isSimplesNacional } from '../../goods/domain/issuer-context.js';
import { reformGroupsDue } from '../../goods/domain/reform-schedule.js';
import type { NfeContext } from './nfe-context.js';
import type { NfeItem, NfeRequest } from './nfe-request.js';
import { checkCreditTransferNote } from './validate-nfe-credit-transfer.js';

// The credit and debit notes of the tax reform (finNFe 5 and 6, NT 2025.002-RTC): what the request
// must say and what their items may carry. Sources and the rules not taken: docs/fiscal/credit-debit-notes.md.

/** The types the gateway issues: their items carry an ordinary gIBSCBS and no item-level reference, or (debit 01, 05) gTransfCred. */
export const ISSUED_CREDIT_TYPES: ReadonlySet<string> = new Set(['03', '04']);
export const ISSUED_DEBIT_TYPES: ReadonlySet<string> = new Set(['01', '05', '06']);

/** Why the gateway does not issue the other types yet (each needs a group or a reference it does not write). */
const NOT_ISSUED: Record<string, string> = {
  'credito 01': 'must reference a debit note of type 04 (multa e juros), which needs item references (DFeReferenciado) the gateway does not write',
  'credito 02': 'binds cClassTrib 810001 and gCredPresIBSZFM, and is refused before 2029 (NT 2025.002 B25.2-30)',
  'credito 05': 'binds cClassTrib 800001 (CST 800, gTransfCred), which UB106-30 accepts on a debit note only',
  'credito 06': 'references the refused items one by one (DFeReferenciado, Ajuste SINIEF 8/26)',
  'debito 02': 'binds cClassTrib 811001 and gAjusteCompet',
  'debito 03': 'binds cClassTrib 811002 and gAjusteCompet, and references notes per item (VC02-10)',
  'debito 04': 'references the original note per item (DFeReferenciado, VC02-10)',
  'debito 07': 'binds cClassTrib 410030 and gEstornoCred',
  'debito 08': 'binds cClassTrib 811003 and gAjusteCompet',
};

/**
 * The item fields of the taxes an adjustment note may not carry. NT 2025.002 B25-80 (cStat 1001):
 * a credit or debit note has no ICMS, ISSQN, IPI, II, PIS, PIS-ST, COFINS, COFINS-ST, ICMSUFDest nor impostoDevol.
 */
const NON_REFORM_FIELDS = [
  'cst_icms', 'csosn', 'vBC', 'pICMS', 'icms_base_reduction', 'fcp_rate', 'st', 'st_retained', 'simples_credit_rate',
  'pis', 'cofins', 'ipi', 'difal', 'icms_partilha', 'st_repasse', 'icms_relief', 'deferral_rate',
] as const satisfies ReadonlyArray<keyof NfeItem>;

export type AdjustmentKind = 'credito' | 'debito';

export function adjustmentKind(req: NfeRequest): AdjustmentKind | undefined {
  return req.finalidade === 'credito' || req.finalidade === 'debito' ? req.finalidade : undefined;
}

/** The type fields against the purpose: B25.2-20 (1164), B25.1-20, B25.1-10, B25.2-10. */
function checkTypes(errors: Errors, req: NfeRequest, kind: AdjustmentKind | undefined): string | undefined {
  if (req.credit_type !== undefined && kind !== 'credito') {
    fail(errors, 'credit_type', 'is only sent with finalidade credito: tpNFCredito goes on a nota de crédito alone (NT 2025.002-RTC B25.2-10)', 'B25.2-10');
  }
  if (req.debit_type !== undefined && kind !== 'debito') {
    fail(errors, 'debit_type', 'is only sent with finalidade debito: tpNFDebito goes on a nota de débito alone (NT 2025.002-RTC B25.1-10)', 'B25.1-10');
  }
  if (kind === 'credito' && req.credit_type === undefined) {
    fail(errors, 'credit_type', 'is required with finalidade credito: the type of the nota de crédito, tpNFCredito (NT 2025.002-RTC B25.2-20, 1164)', 'B25.2-20');
  }
  if (kind === 'debito' && req.debit_type === undefined) {
    fail(errors, 'debit_type', 'is required with finalidade debito: the type of the nota de débito, tpNFDebito (NT 2025.002-RTC B25.1-20)', 'B25.1-20');
  }
  const type = kind === 'credito' ? req.credit_type : kind === 'debito' ? req.debit_type : undefined;
  if (!kind || typeof type !== 'string') return undefined;
  const issued = kind === 'credito' ? ISSUED_CREDIT_TYPES : ISSUED_DEBIT_TYPES;
  const why = NOT_ISSUED[`${kind} ${type}`];
  if (!issued.has(type)) {
    fail(errors, kind === 'credito' ? 'credit_type' : 'debit_type', `${type} is not issued by the gateway yet: it ${why ?? 'is not a type of the layout'}; it issues ${[...issued].join(', ')}`);
    return undefined;
  }
  return type;
}

/** B25-110 (credit: inbound, tpNF 0) and B25-120 (debit: outbound, tpNF 1), on each item's CFOP. */
function checkDirection(errors: Errors, req: NfeRequest, kind: AdjustmentKind): void {
  const items = Array.isArray(req.items) ? req.items : [];
  items.forEach((it, i) => {
    const first = typeof it?.cfop === 'string' ? Number(it.cfop[0]) : NaN;
    if (Number.isNaN(first) || ![1, 2, 3, 5, 6, 7].includes(first)) return;
    if (kind === 'credito' && first >= 5) fail(errors, `items[${i}].cfop`, `${it.cfop} is an outbound CFOP; a nota de crédito is an inbound operation (tpNF 0): use a CFOP starting with 1 or 2 (NT 2025.002-RTC B25-110)`, 'B25-110');
    if (kind === 'debito' && first < 5) fail(errors, `items[${i}].cfop`, `${it.cfop} is an inbound CFOP; a nota de débito is an outbound operation (tpNF 1): use a CFOP starting with 5 or 6 (NT 2025.002-RTC B25-120)`, 'B25-120');
  });
}

/** B25-80 (1001): the item carries IBS/CBS (and IS) only. */
function checkReformOnly(errors: Errors, req: NfeRequest): void {
  const items = Array.isArray(req.items) ? req.items : [];
  items.forEach((it, i) => {
    for (const f of NON_REFORM_FIELDS) {
      if (it?.[f] !== undefined) fail(errors, `items[${i}].${f}`, 'is not sent on a nota de crédito or de débito: it carries IBS/CBS only, no ICMS, IPI, PIS nor COFINS (NT 2025.002-RTC B25-80, 1001)', 'B25-80');
    }
  });
}

/**
 * The referenced note of a credit note of type 03 or 04: exactly one (B25-30, 254; B25-40, 255), an
 * NF-e (B25-100, 1003; type 03 may reference an NFC-e), of this issuer (B25-50, 269) and state (B25-60, 678).
 */
function checkCreditReference(errors: Errors, req: NfeRequest, type: string, issuerCnpj: string, issuerUf: string): void {
  const refs = Array.isArray(req.referenced_documents) ? req.referenced_documents : [];
  if (refs.length === 0) return fail(errors, 'referenced_documents', `must hold the key of the note a nota de crédito of type ${type} adjusts (NT 2025.002-RTC B25-30, 254)`, 'B25-30');
  if (refs.length > 1) return fail(errors, 'referenced_documents', `must hold exactly one key for a nota de crédito of type ${type}; has ${refs.length} (NT 2025.002-RTC B25-40, 255)`, 'B25-40');
  const key = refs[0];
  if (typeof key !== 'string' || key.length !== 44) return;
  const models = type === '03' ? ['55', '65'] : ['55'];
  if (!models.includes(key.slice(20, 22))) fail(errors, 'referenced_documents[0]', `must be the key of an NF-e (model 55${type === '03' ? ' or an NFC-e, 65' : ''}): a nota de crédito references no other document (NT 2025.002-RTC B25-100, 1003)`, 'B25-100');
  if (key.slice(6, 20) !== issuerCnpj) fail(errors, 'referenced_documents[0]', `must be a note of this issuer: a nota de crédito of type ${type} adjusts the issuer's own note (NT 2025.002-RTC B25-50, 269)`, 'B25-50');
  if (ufAbbreviation(key.slice(0, 2)) !== issuerUf) fail(errors, 'referenced_documents[0]', `must be a note of ${issuerUf}, the issuer's state (NT 2025.002-RTC B25-60, 678)`, 'B25-60');
}

/**
 * Every rule of a credit or debit note the gateway checks before the authority does, as field
 * errors; the types it does not issue are refused here too. `issuerCnpj` as in the access key.
 */
export function checkAdjustmentNote(errors: Errors, req: NfeRequest, ctx: NfeContext, issuerCnpj: string): void {
  const kind = adjustmentKind(req);
  const type = checkTypes(errors, req, kind);
  checkCreditTransferNote(errors, req, kind === 'debito' ? type : undefined);
  if (!kind) return;
  if (!ctx.taxReform) {
    fail(errors, 'finalidade', `${kind} is an IBS/CBS adjustment note: it needs the account's taxRegime reform_2026 (PATCH /v1/account), which writes the IBS/CBS groups`);
  } else if (isSimplesNacional(ctx.issuer.crt) && ctx.today !== undefined && !reformGroupsDue(ctx.issuer.crt, true, Number(ctx.today.slice(0, 4)))) {
    fail(errors, 'finalidade', `${kind} carries IBS/CBS only, and a Simples Nacional or MEI note dated ${ctx.today.slice(0, 4)} carries no IBS/CBS group (LC 214/2025 art. 348 III c; docs/fiscal/tax-reform.md)`);
  }
  checkDirection(errors, req, kind);
  checkReformOnly(errors, req);
  if (kind === 'credito' && type !== undefined) checkCreditReference(errors, req, type, issuerCnpj, ctx.issuer.uf);
}

/**
 * The item as the shared item checks and computation read it on an adjustment note: with an ICMS
 * code that charges nothing (CST 41 not taxed, CSOSN 400 not taxed by the Simples), since the
 * note writes no ICMS group at all (B25-80) and the NF-e item core needs one to compute; PIS and
 * COFINS likewise as CST 07 (no value), so every non-reform total of the note is zero.
 */
export function adjustmentItem(item: NfeItem, crt: 1 | 2 | 3 | 4): NfeItem {
  return { ...item, cst_icms: isSimplesNacional(crt) ? '400' : '41', pis: { cst: '07' }, cofins: { cst: '07' } };
}
