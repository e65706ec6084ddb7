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

/**
 * MOC N08-10 (858, NF-e): the fuels under interstate repasse, whose ST already charged goes in the ICMSST group
 * (st_repasse), never in ICMS60. The list is the rule's own.
 */
export const REPASSE_FUEL_CODES: ReadonlySet<string> = new Set([
  '210203001', '320101001', '320101002', '320102002', '320102001', '320102003', '320102005', '320201001', '320103001',
  '220102001', '320301001', '320103002', '820101032', '820101026', '820101027', '820101004', '820101005', '820101022',
  '820101031', '820101030', '820101014', '820101006', '820101016', '820101015', '820101025', '820101017', '820101018',
  '820101019', '820101020', '820101021', '420105001', '420101005', '420101004', '420102005', '420102004', '420104001',
  '820101033', '820101034', '420106001', '820101011', '820101003', '820101013', '820101012', '420106002', '830101001',
  '420301004', '420202001', '420301001', '420301002', '410103001', '410101001', '410102001', '430101004', '510101001',
  '510101002', '510102001', '510102002', '510201001', '510201003', '510301003', '510103001', '510301001',
]);
