import { checkNumber, checkText, fail, OPTIONAL_MONEY, OPTIONAL_PERCENT, PERCENT, type Errors } from '../../../fiscal/layout/field-rules.js';
import { IPI_NT_CSTS, IPI_TRIB_CSTS } from '../../../fiscal/xml/nfe/taxes/ipi.js';
import { icmsCode, NFCE_CSOSNS, NFCE_CSTS, OPTIONAL_OWN_ICMS_CODES } from '../../nfce/domain/icms-codes.js';
import { validateItem, type ItemRules } from '../../nfce/domain/validate-item.js';
import type { NfeItem } from './nfe-request.js';
import { cfopScope, difalAllowed, difalRequired, type DifalFacts } from './operation.js';

// Item checks of an NF-e: the NFC-e's (validateItem, with model 55's CFOPs and CSTs) plus the
// CFOP's scope against the parties, CST 51 deferral, IPI and DIFAL.

/** Model 55 adds CST 50 (suspension) and 51 (deferral), which an NFC-e rejects (766/740). */
export const NFE_CSTS: readonly string[] = [...NFCE_CSTS.slice(0, 6), '50', '51', ...NFCE_CSTS.slice(6)];

export const NFE_ITEM_RULES: ItemRules = {
  document: 'an NF-e',
  cfop: /^[123567][0-9]{3}$/,
  cfopMessage: 'must be a 4-digit CFOP starting with 1, 2, 3 (inbound) or 5, 6, 7 (outbound)',
  csts: NFE_CSTS,
  csosns: NFCE_CSOSNS,
  optionalOwn: new Set([...OPTIONAL_OWN_ICMS_CODES, '51']),
};

const SCOPE_NAMES = { 1: 'internal (same state: 1xxx/5xxx)', 2: 'interstate (2xxx/6xxx)', 3: 'abroad (3xxx/7xxx)' } as const;

/** The item's CFOP against the derived idDest (MOC I08-30/40/50: 731, 732, 733); returns its tpNF. */
function checkCfopScope(errors: Errors, at: string, cfop: string, idDest: 1 | 2 | 3 | undefined): 0 | 1 | undefined {
  const scope = typeof cfop === 'string' ? cfopScope(cfop) : undefined;
  if (!scope) return undefined;
  if (idDest !== undefined && scope.idDest !== idDest) {
    fail(errors, `${at}.cfop`, `${cfop} is a CFOP of an operation ${SCOPE_NAMES[scope.idDest]}, but the recipient makes this operation ${SCOPE_NAMES[idDest]}; use a CFOP starting with ${scope.tpNF === 1 ? idDest + 4 : idDest}`);
  }
  return scope.tpNF;
}

function checkIpi(errors: Errors, at: string, item: NfeItem): void {
  const ipi = item.ipi;
  if (!ipi) return;
  checkText(errors, `${at}.ipi.enquadramento`, ipi.enquadramento, 1, 3, false);
  if (IPI_TRIB_CSTS.includes(ipi.cst)) {
    checkNumber(errors, `${at}.ipi.rate`, ipi.rate, PERCENT);
    checkNumber(errors, `${at}.ipi.base`, ipi.base, OPTIONAL_MONEY);
  } else if (IPI_NT_CSTS.includes(ipi.cst)) {
    if (ipi.rate !== undefined) fail(errors, `${at}.ipi.rate`, `is not used with IPI CST ${ipi.cst} (not taxed, IPINT)`);
    if (ipi.base !== undefined) fail(errors, `${at}.ipi.base`, `is not used with IPI CST ${ipi.cst} (not taxed, IPINT)`);
  } else fail(errors, `${at}.ipi.cst`, `must be one of ${[...IPI_TRIB_CSTS, ...IPI_NT_CSTS].join(', ')}`);
}

function checkDifal(errors: Errors, at: string, item: NfeItem, facts: DifalFacts | undefined, interRate: number | undefined): void {
  const d = item.difal;
  const code = icmsCode(item);
  if (facts && code !== undefined) {
    if (d === undefined && difalRequired(facts, code, item.cfop)) {
      fail(errors, `${at}.difal`, 'is required: an interstate sale to a non-taxpayer final consumer carries the destination state\'s ICMS (ICMSUFDest, MOC NA01-20, 694); give difal.destination_rate');
    }
    if (d !== undefined && !difalAllowed(facts)) {
      fail(errors, `${at}.difal`, 'is only used in an interstate operation with a non-taxpayer (nao_contribuinte) final consumer (MOC NA01-30, 695); remove it');
    }
  }
  if (!d) return;
  if (checkNumber(errors, `${at}.difal.destination_rate`, d.destination_rate, PERCENT) && interRate !== undefined && Math.round(d.destination_rate * 10_000) < interRate) {
    fail(errors, `${at}.difal.destination_rate`, `must be at least the interstate rate of this item, ${(interRate / 10_000).toFixed(2)}%`);
  }
  checkNumber(errors, `${at}.difal.fcp_rate`, d.fcp_rate, OPTIONAL_PERCENT);
  checkNumber(errors, `${at}.difal.base`, d.base, OPTIONAL_MONEY);
}

export interface ItemFacts {
  idDest?: 1 | 2 | 3;
  difal?: DifalFacts;
  /** pICMSInter of an item (scale 4), for the DIFAL rate check. */
  interRate: (item: NfeItem) => number | undefined;
}

/** Item errors; returns the item value in cents (vProd) and the CFOP's direction when known. */
export function validateNfeItem(errors: Errors, index: number, item: NfeItem, crt: 1 | 2 | 3 | 4, facts: ItemFacts): { vProd?: number; tpNF?: 0 | 1 } {
  const at = `items[${index}]`;
  const vProd = validateItem(errors, index, item, crt, NFE_ITEM_RULES);
  const tpNF = checkCfopScope(errors, at, item.cfop, facts.idDest);
  if (item.deferral_rate !== undefined) {
    if (icmsCode(item) !== '51' || item.pICMS === undefined) fail(errors, `${at}.deferral_rate`, 'is only used with CST 51 and pICMS (deferral of the ICMS of the operation)');
    else checkNumber(errors, `${at}.deferral_rate`, item.deferral_rate, PERCENT);
  }
  checkIpi(errors, at, item);
  checkDifal(errors, at, item, facts.difal, facts.interRate(item));
  const out: { vProd?: number; tpNF?: 0 | 1 } = {};
  if (vProd !== undefined) out.vProd = vProd;
  if (tpNF !== undefined) out.tpNF = tpNF;
  return out;
}
