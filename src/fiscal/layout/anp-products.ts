import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';

// The ANP product codes (SIMP) a fuel item's cProdANP may carry (MOC LA02-10, 761), as data in
// assets/fiscal/anp/product-codes.json; source and its limits in docs/fiscal/fuel.md. Read once, lazily.

interface AnpRow { code: string; description: string | null }

let table: Map<string, string | null> | undefined;

function load(): Map<string, string | null> {
  if (!table) {
    const doc = JSON.parse(readFileSync(join(FISCAL_ASSETS_DIR, 'anp', 'product-codes.json'), 'utf8')) as { codes: AnpRow[] };
    table = new Map(doc.codes.map((r) => [r.code, r.description]));
  }
  return table;
}

/** True when the code is in the table (MOC LA02-10). */
export function anpCodeExists(code: string): boolean {
  return load().has(code);
}

/** The table's description of the code (descANP), or null when the table has the code without one. */
export function anpDescription(code: string): string | null {
  return load().get(code) ?? null;
}

/** GLP (MOC LA03c-10/20, LA03d-10, I13-20): the one product whose gas percentages and vPart the layout asks for. */
export const ANP_GLP = '210203001';

/** MOC LA11-20 (379): the CFOPs of a fuel sale to a final consumer, the only NF-e items that may carry an encerrante. */
export const FUEL_CONSUMER_CFOPS: ReadonlySet<string> = new Set(['5656', '5667']);
