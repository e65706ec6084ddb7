import { checkVehicle } from './vehicle.js';
import { checkExportDetail, checkImportItem } from './validate-foreign-trade.js';
import { isValidCnpj } from '../../../kernel/tax-id.js';
import { checkNumber, checkText, fail, MONEY, OPTIONAL_MONEY, OPTIONAL_PERCENT, PERCENT, type Errors } from '../../../fiscal/layout/field-rules.js';
import { IPI_NT_CSTS, IPI_TRIB_CSTS } from '../../../fiscal/xml/nfe/taxes/ipi.js';
import { toCents } from '../../../kernel/decimal.js';
import { icmsCode, NFCE_CSOSNS, OPTIONAL_OWN_ICMS_CODES } from '../../goods/domain/icms-codes.js';
import { validateItem, type ItemRules } from '../../goods/domain/validate-item.js';
import type { NfeItem } from './nfe-request.js';
import { cfopScope, difalAllowed, difalRequired, type DifalFacts } from './operation.js';
import { checkInterstateIcms, withoutRepasseRetained } from './validate-icms-interstate.js';
import { checkRecipientIcms, type RecipientFacts } from './validate-icms-recipient.js';
import { checkRepasseFuel } from './validate-fuel-repasse.js';

// Item checks of an NF-e: the NFC-e's (validateItem, with model 55's CFOPs and CSTs) plus the
// CFOP's scope against the parties, CST 51 deferral, IPI, DIFAL and the interstate ICMS groups.

/**
 * Model 55 adds CST 50 (suspension) and 51 (deferral), which an NFC-e rejects (766/740), and the monophase
 * CSTs on fuels 02, 15, 53, 61 (NT 2023.001). Of these the NFC-e takes only 61, the one NT 2023.001 added to
 * N12-30 (docs/fiscal/icms-monophase.md).
 */
export const NFE_CSTS: readonly string[] = ['00', '02', '10', '15', '20', '30', '40', '41', '50', '51', '53', '60', '61', '70', '90'];

export const NFE_ITEM_RULES: ItemRules = {
  document: 'an NF-e',
  cfop: /^[123567][0-9]{3}$/,
  cfopMessage: 'must be a 4-digit CFOP starting with 1, 2, 3 (inbound) or 5, 6, 7 (outbound)',
  csts: NFE_CSTS,
  csosns: NFCE_CSOSNS,
  optionalOwn: new Set([...OPTIONAL_OWN_ICMS_CODES, '51']),
};

const SCOPE_NAMES = { 1: 'internal (same state: 1xxx/5xxx)', 2: 'interstate (2xxx/6xxx)', 3: 'abroad (3xxx/7xxx)' } as const;

/** The MOC rule a CFOP of each scope breaks with another idDest: I08-30 (731), I08-40 (732), I08-50 (733). */
const SCOPE_RULES = { 3: 'I08-30', 2: 'I08-40', 1: 'I08-50' } as const;

/** The item's CFOP against the derived idDest (MOC I08-30/40/50: 731, 732, 733); returns its tpNF. */
function checkCfopScope(errors: Errors, at: string, cfop: string, idDest: 1 | 2 | 3 | undefined): 0 | 1 | undefined {
  const scope = typeof cfop === 'string' ? cfopScope(cfop) : undefined;
  if (!scope) return undefined;
  if (idDest !== undefined && scope.idDest !== idDest) {
    fail(errors, `${at}.cfop`, `${cfop} is a CFOP of an operation ${SCOPE_NAMES[scope.idDest]}, but the recipient makes this operation ${SCOPE_NAMES[idDest]}; use a CFOP starting with ${scope.tpNF === 1 ? idDest + 4 : idDest}`, SCOPE_RULES[scope.idDest]);
  }
  return scope.tpNF;
}

/** motDesICMS per group (XSD enumerations), without 7 (SUFRAMA: needs dest/ISUF, MOC N28-10, 625). */
const RELIEF_REASONS: Record<string, readonly number[]> = {
  '20': [3, 9, 12], '70': [3, 9, 12], '90': [3, 9, 12], '30': [6, 9],
  '40': [1, 3, 4, 5, 6, 8, 9, 10, 11, 16, 90], '41': [1, 3, 4, 5, 6, 8, 9, 10, 11, 16, 90], '50': [1, 3, 4, 5, 6, 8, 9, 10, 11, 16, 90],
};

function checkRelief(errors: Errors, at: string, item: NfeItem): void {
  const r = item.icms_relief;
  if (!r) return;
  const code = icmsCode(item) ?? '';
  const reasons = RELIEF_REASONS[code];
  if (!reasons) return fail(errors, `${at}.icms_relief`, `is only used with CST 20, 30, 40, 41, 50, 70 or 90, not ${code}`);
  // MOC N28-30 (627): with motDesICMS, vICMSDeson is greater than zero.
  if (typeof r.amount === 'number' && r.amount <= 0) fail(errors, `${at}.icms_relief.amount`, 'must be greater than 0: a relief reason (motDesICMS) goes with the ICMS relieved (vICMSDeson, MOC N28-30, 627)', 'N28-30');
  else checkNumber(errors, `${at}.icms_relief.amount`, r.amount, MONEY);
  if (!reasons.includes(r.reason)) fail(errors, `${at}.icms_relief.reason`, `must be one of ${reasons.join(', ')} for CST ${code} (motDesICMS)`);
  if (r.deducted !== undefined && typeof r.deducted !== 'boolean') fail(errors, `${at}.icms_relief.deducted`, 'must be true (the relief is taken off the note total, indDeduzDeson 1) or false (informed only, indDeduzDeson 0)');
}

/**
 * MOC O09-10 (388): an IPI exemption (CST 02/52), immunity (04/54) or suspension (05/55) goes with a
 * legal framework code (cEnq) of its range; the default 999 ("outros") is none of them.
 */
const ENQUADRAMENTO_RANGES: Record<string, [number, number, string]> = {
  '02': [301, 399, 'exemption'], '52': [301, 399, 'exemption'],
  '04': [1, 99, 'immunity'], '54': [1, 99, 'immunity'],
  '05': [101, 199, 'suspension'], '55': [101, 199, 'suspension'],
};

function checkIpi(errors: Errors, at: string, item: NfeItem): void {
  const ipi = item.ipi;
  if (!ipi) return;
  checkText(errors, `${at}.ipi.enquadramento`, ipi.enquadramento, 1, 3, false);
  const range = typeof ipi.cst === 'string' ? ENQUADRAMENTO_RANGES[ipi.cst] : undefined;
  const cEnq = typeof ipi.enquadramento === 'string' && /^[0-9]{3}$/.test(ipi.enquadramento) ? Number(ipi.enquadramento) : undefined;
  if (range && (cEnq === undefined || cEnq < range[0] || cEnq > range[1])) {
    const pad = (n: number) => String(n).padStart(3, '0');
    if (ipi.enquadramento === undefined) {
      fail(errors, `${at}.ipi.enquadramento`, `is required with IPI CST ${ipi.cst} (${range[2]}): give the legal framework code of the ${range[2]}, ${pad(range[0])} to ${pad(range[1])} (MOC O09-10, 388)`, 'O09-10');
    } else {
      fail(errors, `${at}.ipi.enquadramento`, `${ipi.enquadramento} does not fit IPI CST ${ipi.cst} (${range[2]}): give the legal framework code of the ${range[2]}, ${pad(range[0])} to ${pad(range[1])} (MOC O09-10, 388)`, 'O09-10');
    }
  }
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
    // NA01-20 exception 1: not required when the item carries ICMSPart.
    if (d === undefined && item.icms_partilha === undefined && difalRequired(facts, code, item.cfop)) {
      fail(errors, `${at}.difal`, 'is required: an interstate sale to a non-taxpayer final consumer carries the destination state\'s ICMS (ICMSUFDest, MOC NA01-20, 694); give difal.destination_rate', 'NA01-20');
    }
    if (d !== undefined && !difalAllowed(facts)) {
      fail(errors, `${at}.difal`, 'is only used in an interstate operation with a non-taxpayer (nao_contribuinte) final consumer (MOC NA01-30, 695); remove it', 'NA01-30');
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
  /** The operation, for the N rules that depend on it (known once the recipient is valid). */
  recipient?: RecipientFacts;
}

/** Item errors; returns the item value in cents (vProd) and the CFOP's direction when known. */
export function validateNfeItem(errors: Errors, index: number, item: NfeItem, crt: 1 | 2 | 3 | 4, facts: ItemFacts): { vProd?: number; tpNF?: 0 | 1 } {
  const at = `items[${index}]`;
  const vProd = validateItem(errors, index, withoutRepasseRetained(item), crt, NFE_ITEM_RULES);
  const tpNF = checkCfopScope(errors, at, item.cfop, facts.idDest);
  if (item.deferral_rate !== undefined) {
    if (icmsCode(item) !== '51' || item.pICMS === undefined) fail(errors, `${at}.deferral_rate`, 'is only used with CST 51 and pICMS (deferral of the ICMS of the operation)');
    else checkNumber(errors, `${at}.deferral_rate`, item.deferral_rate, PERCENT);
  }
  checkRelief(errors, at, item);
  checkRepasseFuel(errors, at, item);
  if (vProd !== undefined && item.icms_relief && typeof item.icms_relief.amount === 'number' && toCents(item.icms_relief.amount) > vProd - (item.discount ? toCents(item.discount) : 0)) {
    fail(errors, `${at}.icms_relief.amount`, 'is larger than the item value after its discount');
  }
  checkIpi(errors, at, item);
  checkDifal(errors, at, item, facts.difal, facts.interRate(item));
  checkInterstateIcms(errors, at, item, { ...(facts.idDest ? { idDest: facts.idDest } : {}), ...(facts.difal ? { indFinal: facts.difal.indFinal, finNFe: facts.difal.finNFe } : {}) });
  if (facts.recipient) checkRecipientIcms(errors, at, item, facts.recipient);
  // prod/detExport (docs/fiscal/vehicles-and-foreign-trade.md): MOC I50-10, I51-10.
  if (typeof item.cfop === 'string') checkExportDetail(errors, at, item.cfop, item.export_detail, facts.idDest);
  // prod/veicProd (docs/fiscal/vehicles-and-foreign-trade.md): the layout's limits, MOC C18-20.
  checkVehicle(errors, at, item);
  // prod/DI and imposto/II: MOC I08-110, I08-130, I23b-10, I23d-10/20, I23e-10, I29a-10.
  if (typeof item.cfop === 'string') checkImportItem(errors, at, item, isValidCnpj);
  const out: { vProd?: number; tpNF?: 0 | 1 } = {};
  if (vProd !== undefined) out.vProd = vProd;
  if (tpNF !== undefined) out.tpNF = tpNF;
  return out;
}
