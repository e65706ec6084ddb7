import { attributeOf, sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { ufAbbreviation } from '../fiscal/sefaz/endpoints.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';
import { el, itemReformBroken, textIn, type Broken, type ItemContext } from './reform-item-rules.js';
import { reformRule } from './reform-rule-table.js';
import { reformTablesOn } from './reform-tables-view.js';
import { governmentNoteBroken } from './reform-credit-rules.js';

// NT 2025.002-RTC rules on the reform groups of an NF-e/NFC-e (B31-B34 government purchase on ide, UB12-UB130 per
// item, W34-W56a on IBSCBSTot),
// written from the NT's rule table (docs/fiscal/reform-rules.md), independently of the gateway's own checks
// (documents/goods/domain/validate-reform-rules.ts). Enforced ids: enforced-reform.ts.

const cents = (v: string | null) => Math.round(Number(v ?? '0') * 100);

function reject(b: Broken, nItem?: string): Rejection {
  const r = reformRule(b.id);
  return { cStat: r.cStat, xMotivo: nItem === undefined ? r.message : `${r.message} [nItem: ${nItem}]`, detail: `${b.detail} (NT 2025.002 ${b.id})` };
}

/** An element at a slash-separated path below `from`. */
function at(from: ElementSlice | null, path: string): ElementSlice | null {
  return path.split('/').reduce<ElementSlice | null>((node, name) => el(node, name), from);
}

// UB12-10 (1115), Observação 3: in force for CRT 1, 2 and 4 (Simples Nacional, MEI) from 04/01/2027. For CRT 3
// the NT gave 05/01/2026 (Observação 2), then v1.33 removed the date ("implementação futura"): not played.
const SIMPLES_GROUP_FROM = '2027-01-04';
const SIMPLES_CRTS = new Set(['1', '2', '4']);
// UB13-30 (1022), Observações 2 and 3: CRT 3 from 05/01/2026, CRT 1, 2, 4 from 04/01/2027.
const REGULAR_GROUP_FROM = '2026-01-05';
// UB13-40 (1116): production from 04/01/2027, homologation from 06/04/2026.
const MONO_FROM = { '1': '2027-01-04', '2': '2026-04-06' } as Record<string, string>;

/** UB12-10, Exceção 1: a return (finNFe 4) or complementary note (2) referencing a document dated before 2026. */
function refersToBefore2026(ide: ElementSlice | null): boolean {
  for (const ref of ide ? sliceAll(ide.inner, 'NFref') : []) {
    const key = textIn(ref, 'refNFe') ?? textIn(ref, 'refNFeSig') ?? textIn(ref, 'refCTe');
    // AAMM of a key is its characters 3-6; a paper note's AAMM has no century: the simulator exempts it (never stricter).
    if (key === null || Number(key.slice(2, 4)) < 26) return true;
  }
  return false;
}

/** IBSCBSTot fields (path below IBSCBSTot) and the item field (path below IBSCBS) they add up, in the NT's order. */
const TOTALS: readonly (readonly [id: string, total: string, item: string])[] = [
  ['W35-10', 'vBCIBSCBS', 'gIBSCBS/vBC'],
  ['W38-10', 'gIBS/gIBSUF/vDif', 'gIBSCBS/gIBSUF/gDif/vDif'],
  ['W39-10', 'gIBS/gIBSUF/vDevTrib', 'gIBSCBS/gIBSUF/gDevTrib/vDevTrib'],
  ['W41-10', 'gIBS/gIBSUF/vIBSUF', 'gIBSCBS/gIBSUF/vIBSUF'],
  ['W43-10', 'gIBS/gIBSMun/vDif', 'gIBSCBS/gIBSMun/gDif/vDif'],
  ['W44-10', 'gIBS/gIBSMun/vDevTrib', 'gIBSCBS/gIBSMun/gDevTrib/vDevTrib'],
  ['W46-10', 'gIBS/gIBSMun/vIBSMun', 'gIBSCBS/gIBSMun/vIBSMun'],
  ['W47-10', 'gIBS/vIBS', 'gIBSCBS/vIBS'],
  ['W48-10', 'gIBS/vCredPres', 'gCredPresOper/gIBSCredPres/vCredPres'],
  ['W53-10', 'gCBS/vDif', 'gIBSCBS/gCBS/gDif/vDif'],
  ['W54-10', 'gCBS/vDevTrib', 'gIBSCBS/gCBS/gDevTrib/vDevTrib'],
  ['W56-10', 'gCBS/vCBS', 'gIBSCBS/gCBS/vCBS'],
  ['W56a-10', 'gCBS/vCredPres', 'gCredPresOper/gCBSCredPres/vCredPres'],
];

/** W34-10 ... W56a-10: IBSCBSTot present exactly when an item has IBSCBS, each total the sum of its items' field. */
function totalsBroken(total: ElementSlice | null, groups: readonly ElementSlice[]): Broken | null {
  const tot = el(total, 'IBSCBSTot');
  if (tot && groups.length === 0) return { id: 'W34-10', detail: 'IBSCBSTot without an item with IBSCBS' };
  if (!tot && groups.length > 0) return { id: 'W34-20', detail: 'no IBSCBSTot with items with IBSCBS' };
  if (!tot) return null;
  for (const [id, totalPath, itemPath] of TOTALS) {
    const sum = groups.reduce((acc, g) => acc + cents(textIn(at(g, itemPath.slice(0, itemPath.lastIndexOf('/'))), itemPath.slice(itemPath.lastIndexOf('/') + 1))), 0);
    const field = at(tot, totalPath);
    const declared = cents(field?.inner.trim() ?? null);
    if (declared !== sum) return { id, detail: `IBSCBSTot/${totalPath} ${field?.inner.trim() ?? '(absent)'} but the items add up to ${(sum / 100).toFixed(2)}` };
  }
  return null;
}

/** The first NT 2025.002 reform rule the note breaks, or null. */
export function reformRejection(f: NfeFacts): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  if (!inf) return null;
  const ide = el(inf, 'ide');
  const emit = el(inf, 'emit');
  const crt = textIn(emit, 'CRT') ?? '';
  const date = f.dhEmi.slice(0, 10);
  const pRedutor = textIn(el(ide, 'gCompraGov'), 'pRedutor');
  const ctx: ItemContext = {
    date,
    mod: f.mod,
    finNFe: f.finNFe,
    emitUf: textIn(el(emit, 'enderEmit'), 'UF') ?? ufAbbreviation(f.cUF) ?? '',
    pRedutor: pRedutor === null ? null : Number(pRedutor),
    tables: reformTablesOn(date),
  };
  const simples = SIMPLES_CRTS.has(crt);
  const mandatory = {
    group: simples ? date >= SIMPLES_GROUP_FROM : date >= REGULAR_GROUP_FROM,
    mono: date >= (MONO_FROM[f.tpAmb] ?? MONO_FROM['1']!),
  };
  const needsGroup = simples && date >= SIMPLES_GROUP_FROM && !(['2', '4'].includes(f.finNFe) && refersToBefore2026(ide));
  const tpNFDebito = textIn(ide, 'tpNFDebito');
  // B31-10, B32-10, B34-10 (group B comes before the items' UB rules): reform-credit-rules.ts.
  const government = governmentNoteBroken(inf, ide, f.mod, date);
  if (government) return reject(government);
  const groups: ElementSlice[] = [];
  for (const det of sliceAll(inf.inner, 'det')) {
    const nItem = attributeOf(det, 'nItem') ?? '';
    const ibscbs = el(el(det, 'imposto'), 'IBSCBS');
    if (!ibscbs) {
      if (needsGroup) return reject({ id: 'UB12-10', detail: `item ${nItem} has no IBSCBS (CRT ${crt}, ${date})` }, nItem);
      continue;
    }
    groups.push(ibscbs);
    const broken = itemReformBroken(ibscbs, ctx, tpNFDebito, mandatory, det);
    if (broken) return reject(broken, nItem);
  }
  const broken = totalsBroken(el(inf, 'total'), groups);
  return broken ? reject(broken) : null;
}
