import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { ReformTablesView } from './reform-tables-view.js';

// What the NT 2025.002-RTC item rules share (reform-item-rules.ts, reform-credit-rules.ts, reform-rules.ts): the
// element readers, a broken rule and what an item rule knows of its note. Its own file so that the rule files do
// not import each other.

export const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
export const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner.trim() ?? null;

export interface Broken {
  id: string;
  detail: string;
}

/** What an item rule knows of its note. */
export interface ItemContext {
  /** Local issue date of the note, YYYY-MM-DD. */
  date: string;
  mod: string;
  finNFe: string;
  emitUf: string;
  /** gCompraGov/pRedutor (percent) when the note is a government purchase. */
  pRedutor: number | null;
  tables: ReformTablesView | null;
}
