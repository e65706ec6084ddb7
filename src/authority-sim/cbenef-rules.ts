import { mocRule } from '../fiscal/rules/rule-table.js';
import { cbenefRequiredBy } from '../fiscal/rules/cbenef-required.js';
import { ufAbbreviation } from '../fiscal/sefaz/endpoints.js';
import { sliceAll, sliceElement } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';

/**
 * MOC N12-85 (930) as the states that adopted it apply it (assets/fiscal/rules/cbenef-required.json, docs/fiscal/cbenef.md):
 * an item of an NF-e of that state, issued on or after the state's date, whose ICMS CST the state lists, without cBenef.
 * A state not in the table does not apply it here (the rule is "a critério da UF").
 */
export function cbenefRejection(f: NfeFacts): Rejection | null {
  const uf = ufAbbreviation(f.cUF);
  if (!uf) return null;
  for (const det of sliceAll(f.xml, 'det')) {
    const icms = sliceElement(sliceElement(det.inner, 'imposto')?.inner ?? '', 'ICMS')?.inner ?? '';
    const cst = sliceElement(icms, 'CST')?.inner.trim() ?? '';
    if (cst === '' || sliceElement(sliceElement(det.inner, 'prod')?.inner ?? '', 'cBenef')) continue;
    const r = cbenefRequiredBy(uf, Number(f.mod), cst, f.dhEmi.slice(0, 10));
    if (!r) continue;
    const nItem = /\snItem\s*=\s*"([^"]*)"/.exec(det.outer.slice(0, det.outer.indexOf('>')))?.[1] ?? '';
    const message = (mocRule(r.rule, r.cStat)?.message ?? '').replace(/\s*\[[^\]]*\]\s*$/, '').trim();
    return { cStat: r.cStat, xMotivo: `${message} [nItem:${nItem}]`, detail: `CST ${cst} without cBenef in ${uf} (MOC ${r.rule})` };
  }
  return null;
}
