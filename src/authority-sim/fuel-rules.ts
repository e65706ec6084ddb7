import { mocRule } from '../fiscal/rules/rule-table.js';
import { ANP_GLP, FUEL_CONSUMER_CFOPS, REPASSE_FUEL_CODES } from '../fiscal/layout/anp-products.js';
import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules of group LA (prod/comb, the fuel group), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json) independently of the gateway's checks (documents/goods/domain/validate-fuel.ts).
// The optional ones left to each state (LA01-20: CFOP of fuel without comb; LA11-10: NFC-e fuel sale without
// encerrante) are not enforced: the simulator is never stricter than every authority (docs/fiscal/fuel.md).

const textIn = (within: ElementSlice | null, name: string) => (within ? (sliceElement(within.inner, name)?.inner.trim() ?? null) : null);

function reject(rule: string, cStat: number, detail: string, nItem: string): Rejection {
  const words = (mocRule(rule, cStat)?.message ?? `Rejeição: código ${cStat}`).replace(/\s*\[[^\]]*\]/g, '').trim();
  return { cStat, xMotivo: `${words} [nItem:${nItem}]`, detail: `${detail} (MOC ${rule})` };
}

/** Hundredths of a percent of a pGLP / pGNn / pGNi text (absent = 0). */
const share = (v: string | null) => Math.round(Number(v ?? '0') * 10_000);
/** Thousandths of an encerrante reading. */
const reading = (v: string | null) => BigInt(Math.round(Number(v ?? '0') * 1000));

/**
 * MOC LA03c-10 (461), LA03c-20 (855), LA03d-10 (856, NF-e), LA11-20 (379, NF-e), LA16-10 (380),
 * and N08-10 (858, NF-e: ICMS60 for a fuel under interstate repasse; `imposto` is the item's).
 */
export function fuelRejection(prod: ElementSlice | null, nItem: string, mod: string, cfop: string, imposto: ElementSlice | null = null): Rejection | null {
  const comb = prod ? sliceElement(prod.inner, 'comb') : null;
  if (!comb) return null;
  const code = textIn(comb, 'cProdANP') ?? '';
  // LA02-10 (761, code not in the ANP table) is not played: the project holds a partial list, not the official table
  // (docs/fiscal/rules-not-enforced.md "anp-product-table"); refusing a code it lacks would be stricter than the authority.
  const pGLP = textIn(comb, 'pGLP');
  const pGNn = textIn(comb, 'pGNn');
  const pGNi = textIn(comb, 'pGNi');
  const anyShare = pGLP !== null || pGNn !== null || pGNi !== null;
  if (code !== ANP_GLP && anyShare) return reject('LA03c-10', 461, `GLP shares for cProdANP ${code}`, nItem);
  if (code === ANP_GLP && share(pGLP) + share(pGNn) + share(pGNi) !== 1_000_000) {
    return reject('LA03c-20', 855, `pGLP ${pGLP} + pGNn ${pGNn} + pGNi ${pGNi} is not 100`, nItem);
  }
  if (mod === '55' && code === ANP_GLP && textIn(comb, 'vPart') === null) return reject('LA03d-10', 856, 'GLP without vPart', nItem);
  const enc = sliceElement(comb.inner, 'encerrante');
  if (enc && mod === '55' && !FUEL_CONSUMER_CFOPS.has(cfop)) return reject('LA11-20', 379, `encerrante with CFOP ${cfop}`, nItem);
  if (enc && reading(textIn(enc, 'vEncFin')) <= reading(textIn(enc, 'vEncIni'))) {
    return reject('LA16-10', 380, `vEncFin ${textIn(enc, 'vEncFin')} <= vEncIni ${textIn(enc, 'vEncIni')}`, nItem);
  }
  const icms = imposto ? sliceElement(imposto.inner, 'ICMS') : null;
  if (mod === '55' && REPASSE_FUEL_CODES.has(code) && icms && sliceElement(icms.inner, 'ICMS60')) {
    return reject('N08-10', 858, `ICMS60 for cProdANP ${code} (under interstate repasse)`, nItem);
  }
  return null;
}
