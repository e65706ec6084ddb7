import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { ReformTablesView } from './reform-tables-view.js';

// NT 2025.002-RTC (v1.31) rules on gIBSCBS/gTribRegular, the taxation an item would carry if the condition of
// its suspension (CST 550) or other resolutory/suspensive condition were not met (docs/fiscal/reform-rules.md):
// UB69-10 (1066) CSTReg in the CST table, UB70-10 (1067) cClassTribReg in the classification table, and each
// value vTribRegX = vBC x (pAliqEfetRegX / 100) with a tolerance of 0.01 (UB72-10 1040, UB72b-10 1051,
// UB72d-10 1068). Whether the group is due at all is UB68-10 / UB68-11 (reform-item-rules.ts).

const text = (within: ElementSlice, name: string) => sliceElement(within.inner, name)?.inner.trim() ?? null;
const units = (v: string | null, places: number) => Math.round(Number(v ?? '0') * 10 ** places);

const VALUES = [
  ['UB72-10', 'pAliqEfetRegIBSUF', 'vTribRegIBSUF'],
  ['UB72b-10', 'pAliqEfetRegIBSMun', 'vTribRegIBSMun'],
  ['UB72d-10', 'pAliqEfetRegCBS', 'vTribRegCBS'],
] as const;

/** The first rule gTribRegular breaks, or null; vBC in cents. A table not known skips UB69-10 / UB70-10. */
export function regularTaxationBroken(reg: ElementSlice, vBC: number, t: ReformTablesView | null): { id: string; detail: string } | null {
  const cst = text(reg, 'CSTReg') ?? '';
  const code = text(reg, 'cClassTribReg') ?? '';
  if (t && !t.cst(cst)) return { id: 'UB69-10', detail: `gTribRegular/CSTReg ${cst} is not in the CST table` };
  if (t && !t.classification(code)) return { id: 'UB70-10', detail: `gTribRegular/cClassTribReg ${code} is not in the classification table` };
  for (const [id, rate, value] of VALUES) {
    const expected = (vBC * units(text(reg, rate), 4)) / 1_000_000;
    const sent = units(text(reg, value), 2);
    if (Math.abs(sent - expected) > 1.000001) return { id, detail: `gTribRegular/${value} ${text(reg, value)} but ${(expected / 100).toFixed(2)}` };
  }
  return null;
}
