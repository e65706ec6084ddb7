import type { ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { el, textIn, type Broken, type ItemContext } from './reform-rule-context.js';
import { yearRates, type CstIndicators } from './reform-tables-view.js';
import { governmentItemBroken, presumedCreditBroken, transferBroken } from './reform-credit-rules.js';
import { regularTaxationBroken } from './reform-regular-rules.js';

// NT 2025.002-RTC rules on one item's IBSCBS group (docs/fiscal/reform-rules.md), as data: each sphere
// (IBS UF, IBS municipal, CBS) names its fields and the ids of its rules, and the checks below read them.
// A rule returns the id it breaks (the answer's code and words come from reform-rule-table.ts).
export { el, textIn, type Broken, type ItemContext } from './reform-rule-context.js';

/** A decimal text in units of 10^-places (absent = 0). */
const units = (v: string | null, places: number) => Math.round(Number(v ?? '0') * 10 ** places);

interface Sphere {
  group: 'gIBSUF' | 'gIBSMun' | 'gCBS';
  rate: 'pIBSUF' | 'pIBSMun' | 'pCBS';
  value: 'vIBSUF' | 'vIBSMun' | 'vCBS';
  reduction: 'pRedIBS' | 'pRedCBS';
  rules: { rate: string; difForbidden: string; difRequired: string; vDif: string; redForbidden: string; redRequired: string; redValid: string; efet: string; value: string };
}

/** In the NT's order: UB17-UB35 (UF), UB36-UB54 (municipal), UB55-UB67 (CBS). */
const SPHERES: readonly Sphere[] = [
  {
    group: 'gIBSUF', rate: 'pIBSUF', value: 'vIBSUF', reduction: 'pRedIBS',
    rules: { rate: 'UB18-10', difForbidden: 'UB22-10', difRequired: 'UB22-20', vDif: 'UB23-10', redForbidden: 'UB26-10', redRequired: 'UB26-20', redValid: 'UB27-10', efet: 'UB28-10', value: 'UB35-10' },
  },
  {
    group: 'gIBSMun', rate: 'pIBSMun', value: 'vIBSMun', reduction: 'pRedIBS',
    rules: { rate: 'UB37-10', difForbidden: 'UB40-20', difRequired: 'UB40-10', vDif: 'UB42-10', redForbidden: 'UB45-10', redRequired: 'UB45-20', redValid: 'UB46-10', efet: 'UB47-10', value: 'UB54-10' },
  },
  {
    group: 'gCBS', rate: 'pCBS', value: 'vCBS', reduction: 'pRedCBS',
    rules: { rate: 'UB56-10', difForbidden: 'UB59-20', difRequired: 'UB59-10', vDif: 'UB61-10', redForbidden: 'UB64-10', redRequired: 'UB64-20', redValid: 'UB65-10', efet: 'UB66-10', value: 'UB67-10' },
  },
];

// UB56-10 (v1.33): a zero pCBS is accepted between issuer and recipient of the same incentive area (Zona Franca
// de Manaus: AC, AM, RO, RR and two AP municipalities; the free-trade areas). The simulator has no list of the
// areas' municipalities, so it accepts a zero pCBS from an issuer in these states: looser, never stricter.
const INCENTIVE_STATES = new Set(['AC', 'AM', 'RO', 'RR', 'AP']);

/** UB18-10, UB37-10, UB56-10: the rate of the year (zero for a classification of regular taxation). */
function rateBroken(s: Sphere, g: ElementSlice, ctx: ItemContext, regular: boolean | null): Broken | null {
  // Returns (finNFe 4) and credit/debit notes are exempted in later versions of the NT: not played on them.
  if (['4', '5', '6'].includes(ctx.finNFe)) return null;
  const sent = units(textIn(g, s.rate), 4);
  const due = yearRates(ctx.date)[s.rate];
  if (regular === true) return sent === 0 ? null : { id: s.rules.rate, detail: `${s.rate} ${textIn(g, s.rate)} with a classification of regular taxation (must be 0)` };
  if (due === null || sent === Math.round(due * 10_000)) return null;
  // Zero where the classification may be of regular taxation (table not known) or in an incentive area: accepted.
  if (sent === 0 && (regular === null || (s.rate === 'pCBS' && INCENTIVE_STATES.has(ctx.emitUf)))) return null;
  return { id: s.rules.rate, detail: `${s.rate} ${textIn(g, s.rate)} but ${due} in ${ctx.date.slice(0, 4)}` };
}

function sphereBroken(s: Sphere, g: ElementSlice, vBC: number, ctx: ItemContext, ind: CstIndicators | undefined, cls: { pRed: number | null; regular: boolean | null }): Broken | null {
  const r = s.rules;
  const rate = rateBroken(s, g, ctx, cls.regular);
  if (rate) return rate;
  const dif = el(g, 'gDif');
  const red = el(g, 'gRed');
  const p4 = units(textIn(g, s.rate), 4);
  const pRedAliq = units(textIn(red, 'pRedAliq'), 4);
  if (ind) {
    if (!ind.gDif && dif) return { id: r.difForbidden, detail: `${s.group}/gDif with a CST whose ind_gDif is 0` };
    if (ind.gDif && !dif) return { id: r.difRequired, detail: `${s.group}/gDif missing with a CST whose ind_gDif is 1` };
  }
  const efet4 = red ? units(textIn(red, 'pAliqEfet'), 4) : p4;
  if (dif) {
    // vDif = vBC x (rate / 100) x (pDif / 100), the effective rate with gRed; tolerance 0.01.
    const expected = (vBC * efet4 * units(textIn(dif, 'pDif'), 4)) / 1e12;
    if (Math.abs(units(textIn(dif, 'vDif'), 2) - expected) > 1.000001) return { id: r.vDif, detail: `${s.group}/gDif/vDif ${textIn(dif, 'vDif')} but ${(expected / 100).toFixed(2)}` };
  }
  const government = ctx.pRedutor !== null;
  if (ind) {
    // UB26-10 and twins, exception: a government purchase with pRedAliq 0.
    if (!ind.gRed && red && !(government && pRedAliq === 0)) return { id: r.redForbidden, detail: `${s.group}/gRed with a CST whose ind_gRed is 0` };
    if ((ind.gRed || government) && !red) return { id: r.redRequired, detail: `${s.group}/gRed missing (ind_gRed 1${government ? ' or gCompraGov' : ''})` };
    if (red && ind.gRed && cls.pRed !== null && pRedAliq !== Math.round(cls.pRed * 10_000)) {
      return { id: r.redValid, detail: `${s.group}/gRed/pRedAliq ${textIn(red, 'pRedAliq')} but the classification gives ${cls.pRed}` };
    }
  }
  if (red) {
    // pAliqEfet = rate x (1 - pRedAliq/100) [x (1 - pRedutor/100)], 4 places rounded; one unit of the 4th place allowed.
    let expected = (p4 * (1_000_000 - pRedAliq)) / 1_000_000;
    if (government) expected = (expected * (100 - ctx.pRedutor!)) / 100;
    if (Math.abs(efet4 - Math.round(expected)) > 1) return { id: r.efet, detail: `${s.group}/gRed/pAliqEfet ${textIn(red, 'pAliqEfet')} but ${(Math.round(expected) / 10_000).toFixed(4)}` };
  }
  // v = vBC x (rate / 100) - vDif - vDevTrib, tolerance 0.01.
  const expected = (vBC * efet4) / 1_000_000 - units(textIn(dif, 'vDif'), 2) - units(textIn(el(g, 'gDevTrib'), 'vDevTrib'), 2);
  const sent = units(textIn(g, s.value), 2);
  if (Math.abs(sent - expected) > 1.000001) return { id: r.value, detail: `${s.group}/${s.value} ${textIn(g, s.value)} but ${(expected / 100).toFixed(2)}` };
  return null;
}

/** The item's IBSCBS group against the tables of its date (UB13-UB130); null when it breaks none. det: the item (prod for UB120-UB129). */
export function itemReformBroken(ibscbs: ElementSlice, ctx: ItemContext, tpNFDebito: string | null, mandatory: { group: boolean; mono: boolean }, det: ElementSlice | null = null): Broken | null {
  const cst = textIn(ibscbs, 'CST') ?? '';
  const code = textIn(ibscbs, 'cClassTrib') ?? '';
  const g = el(ibscbs, 'gIBSCBS');
  const t = ctx.tables;
  const ind = t?.cst(cst);
  const cls = t?.classification(code);
  if (t && !ind) return { id: 'UB13-10', detail: `CST ${cst} is not in the table` };
  const stockLoss = tpNFDebito === '07';
  if (ind) {
    if (!ind.gIBSCBS && g) return { id: 'UB13-20', detail: `gIBSCBS with CST ${cst} (ind_gIBSCBS 0)` };
    if (ind.gIBSCBS && !g && !stockLoss && mandatory.group) return { id: 'UB13-30', detail: `no gIBSCBS with CST ${cst} (ind_gIBSCBS 1)` };
    const mono = el(ibscbs, 'gIBSCBSMono');
    if (!ind.gIBSCBSMono && mono) return { id: 'UB13-39', detail: `gIBSCBSMono with CST ${cst}` };
    if (ind.gIBSCBSMono && !mono && !stockLoss && mandatory.mono) return { id: 'UB13-40', detail: `no gIBSCBSMono with CST ${cst}` };
    const transf = el(ibscbs, 'gTransfCred');
    if (!ind.gTransfCred && transf) return { id: 'UB13-44', detail: `gTransfCred with CST ${cst}` };
    if (ind.gTransfCred && !transf) return { id: 'UB13-45', detail: `no gTransfCred with CST ${cst}` };
  }
  if (t && !cls) return { id: 'UB14-10', detail: `cClassTrib ${code} is not in the table` };
  if (cls && cls.cst !== cst) return { id: 'UB14-20', detail: `cClassTrib ${code} belongs to CST ${cls.cst}, not ${cst}` };
  if (cls && !(ctx.mod === '65' ? cls.nfce : cls.nfe)) return { id: 'UB14-25', detail: `cClassTrib ${code} is not allowed in model ${ctx.mod}` };
  // After the gIBSCBS rules, in the NT's order: UB106 (gTransfCred), UB120-UB130 (gCredPresOper), reform-credit-rules.ts.
  const later = () => transferBroken(ibscbs, ctx.finNFe, tpNFDebito) ?? presumedCreditBroken(ibscbs, det, ctx, cls?.credPresOper ?? null);
  if (!g) return later();
  const vBC = units(textIn(g, 'vBC'), 2);
  for (const s of SPHERES) {
    const sphere = el(g, s.group);
    if (!sphere) continue;
    const broken = sphereBroken(s, sphere, vBC, ctx, ind, { pRed: cls ? cls[s.reduction] : null, regular: cls ? cls.tribRegular : null });
    if (broken) return broken;
    // UB54a-10 comes after the municipal sphere's rules (UB54-10) and before the CBS's (UB55 on).
    if (s.group === 'gIBSMun') {
      const vIBS = itemIbsBroken(g, ibscbs);
      if (vIBS) return vIBS;
    }
  }
  if (cls?.tribRegular === true && !el(g, 'gTribRegular')) return { id: 'UB68-10', detail: `cClassTrib ${code} asks for gTribRegular` };
  if (cls?.tribRegular === false && el(g, 'gTribRegular')) return { id: 'UB68-11', detail: `gTribRegular with cClassTrib ${code}` };
  const regular = el(g, 'gTribRegular');
  // UB69-UB72d (gTribRegular), then UB82a (gTribCompraGov), UB106 and UB120-UB130 in the NT's order.
  return (regular ? regularTaxationBroken(regular, vBC, t ?? null) : null) ?? governmentItemBroken(g, ctx) ?? later();
}

/** UB54a-10: vIBS = vIBSUF + vIBSMun (less a deducted presumed credit: with one, not played). */
function itemIbsBroken(g: ElementSlice, ibscbs: ElementSlice): Broken | null {
  if (el(ibscbs, 'gIBSCredPres') || el(g, 'gIBSCredPres')) return null;
  const sum = units(textIn(el(g, 'gIBSUF'), 'vIBSUF'), 2) + units(textIn(el(g, 'gIBSMun'), 'vIBSMun'), 2);
  const vIBS = units(textIn(g, 'vIBS'), 2);
  return vIBS === sum ? null : { id: 'UB54a-10', detail: `vIBS ${textIn(g, 'vIBS')} but vIBSUF + vIBSMun = ${(sum / 100).toFixed(2)}` };
}
