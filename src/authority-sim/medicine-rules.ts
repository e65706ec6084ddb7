import { mocRule } from '../fiscal/rules/rule-table.js';
import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rule K01-20 (prod/med), from its row in assets/fiscal/rules/moc-anexo-i.json; docs/fiscal/medicines.md.
// The batch date rules I83-10 and I84-10 are played in items-rules.ts valueAndTraceRejection.

/** MOC K01-20 (873, NF-e only): an item with med must carry at least one rastro. */
export function medicineRejection(prod: ElementSlice | null, nItem: string, mod: string): Rejection | null {
  if (mod !== '55' || !prod || !sliceElement(prod.inner, 'med') || sliceElement(prod.inner, 'rastro')) return null;
  const words = (mocRule('K01-20', 873)?.message ?? 'Rejeição: código 873').replace(/\s*\[[^\]]*\]/g, '').trim();
  return { cStat: 873, xMotivo: `${words} [nItem:${nItem}]`, detail: 'med without rastro (MOC K01-20)' };
}
