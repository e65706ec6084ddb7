import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { cbenefRequiredBy } from '../../../fiscal/rules/cbenef-required.js';
import type { NfeItem } from './nfe-request.js';

/**
 * MOC N12-85 (930) where the issuer's state applies it (assets/fiscal/rules/cbenef-required.json, docs/fiscal/cbenef.md):
 * an item whose CST the state lists carries its tax-benefit code.
 */
export function checkCbenefRequired(errors: Errors, at: string, item: NfeItem, issuerUf: string, localDate: string): void {
  const cst = item.cst_icms;
  if (typeof cst !== 'string' || item.benefit_code !== undefined) return;
  const r = cbenefRequiredBy(issuerUf, 55, cst, localDate);
  if (r) fail(errors, `${at}.benefit_code`, `is required: ${issuerUf} requires the tax-benefit code (cBenef) of its table with CST ${cst} (MOC ${r.rule}, ${r.cStat}; ${r.legal})`, r.rule);
}
