import { mocRule } from '../fiscal/rules/rule-table.js';
import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on the new-vehicle group (prod/veicProd, group J), from their rows in
// assets/fiscal/rules/moc-anexo-i.json; docs/fiscal/vehicles-and-foreign-trade.md. The exceptions other rules
// make for it (N12-70 exc. 3, N16-20 exc. 2, W16-10 exc. 1) are played in icms-rules.ts and nfe-total-rules.ts.

function reject(rule: string, cStat: number, detail: string, nItem?: string): Rejection {
  const words = (mocRule(rule, cStat)?.message ?? `Rejeição: código ${cStat}`).replace(/\s*\[[^\]]*\]/g, '').trim();
  return { cStat, xMotivo: nItem === undefined ? words : `${words} [nItem:${nItem}]`, detail: `${detail} (MOC ${rule})` };
}

/**
 * J01-10 (736): an NFC-e with veicProd. C18-20 (478, model 55): direct billing of new vehicles (tpOp 2) without the
 * delivery place's UF (entrega/UF), read as the rule's condition states it.
 */
export function vehicleRejection(prod: ElementSlice | null, nItem: string, mod: string, entregaUf: string | null): Rejection | null {
  const veic = prod ? sliceElement(prod.inner, 'veicProd') : null;
  if (!veic) return null;
  if (mod === '65') return reject('J01-10', 736, 'NFC-e with prod/veicProd', nItem);
  const tpOp = sliceElement(veic.inner, 'tpOp')?.inner.trim();
  if (mod === '55' && tpOp === '2' && (entregaUf === null || entregaUf === '')) return reject('C18-20', 478, `veicProd/tpOp 2 (direct billing) in item ${nItem} without entrega/UF`);
  return null;
}
