import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { icmsCode, icmsCodeField } from '../../goods/domain/icms-codes.js';
import type { SaleItem } from '../../goods/domain/sale-item.js';

// The ICMS codes an NFC-e accepts and the CFOP each one takes (MOC 7.0 Anexo I, NT 2015.002).
// CST 90 and CSOSN 900 are accepted "a critério da UF" (exception 1 of N12-30 / N12a-20): refused by
// no rule here, so the gateway keeps them.

/** MOC N12-30 (766) as NT 2023.001 amended it: the CSTs of an NFC-e (61 added by the NT, 90 by exception 1). */
export const NFCE_ALLOWED_CSTS = ['00', '20', '40', '41', '60', '61', '90'] as const;
/** MOC N12a-20 (383): the CSOSNs of an NFC-e (900 by exception 1). */
export const NFCE_ALLOWED_CSOSNS = ['102', '103', '300', '400', '500', '900'] as const;
/** MOC N12-40 / N12a-40: the CFOPs of a taxed, exempt or untaxed NFC-e item. */
export const NFCE_SALE_CFOPS = ['5101', '5102', '5103', '5104', '5115'] as const;
/** MOC N12-44 / N12a-44: the CFOPs of an NFC-e item whose ICMS was withheld earlier (CST 60, CSOSN 500). */
export const NFCE_ST_CFOPS = ['5405', '5656', '5667'] as const;

const isCst = (code: string) => code.length === 2;

/** The rule of the code list the code breaks, or null. */
function codeRule(code: string): string | null {
  if (isCst(code)) return (NFCE_ALLOWED_CSTS as readonly string[]).includes(code) ? null : 'N12-30';
  return (NFCE_ALLOWED_CSOSNS as readonly string[]).includes(code) ? null : 'N12a-20';
}

/**
 * The CFOPs the (allowed) code takes and the rule that says so, or null: N12-40 names 00, 20, 40, 41, 90 and
 * N12-44 names 60; no rule ties CST 61 to CFOPs (a station sells under 5656), only I08-150's list applies.
 */
function cfopRule(code: string): { cfops: readonly string[]; rule: string } | null {
  if (code === '61') return null;
  const withheld = code === '60' || code === '500';
  const rule = isCst(code) ? (withheld ? 'N12-44' : 'N12-40') : withheld ? 'N12a-44' : 'N12a-40';
  return { cfops: withheld ? NFCE_ST_CFOPS : NFCE_SALE_CFOPS, rule };
}

function checkItem(errors: Errors, at: string, item: SaleItem, code: string): void {
  const field = `${at}.${icmsCodeField(item)}`;
  const listRule = codeRule(code);
  if (listRule) {
    const allowed = isCst(code) ? NFCE_ALLOWED_CSTS : NFCE_ALLOWED_CSOSNS;
    fail(errors, field, `${code} is not accepted in an NFC-e (the authority accepts only ${allowed.join(', ')}); issue an NF-e (model 55) for this operation`, listRule);
    return;
  }
  // MOC N12-34 (381) / N12a-34 (385): an NFC-e's ICMS90 / ICMSSN900 carries no ST data.
  if ((code === '90' || code === '900') && item.st !== undefined) {
    fail(errors, `${at}.st`, `is not accepted with ${isCst(code) ? 'CST' : 'CSOSN'} ${code} in an NFC-e (no ST data in an NFC-e); remove it`, code === '90' ? 'N12-34' : 'N12a-34');
  }
  const tied = cfopRule(code);
  if (!tied) return;
  const { cfops, rule } = tied;
  if (typeof item.cfop === 'string' && /^[0-9]{4}$/.test(item.cfop) && !cfops.includes(item.cfop)) {
    fail(errors, `${at}.cfop`, `${item.cfop} is not accepted with ${isCst(code) ? 'CST' : 'CSOSN'} ${code} in an NFC-e; use one of ${cfops.join(', ')}`, rule);
  }
}

/** The NFC-e's own ICMS code and CFOP rules, for items whose code passed the shared item checks. */
export function checkNfceIcmsCodes(errors: Errors, items: readonly SaleItem[], valid: (index: number) => boolean): void {
  items.forEach((item, i) => {
    const code = icmsCode(item);
    if (code !== undefined && valid(i)) checkItem(errors, `items[${i}]`, item, code);
  });
}
