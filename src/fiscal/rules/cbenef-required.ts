// Which states require cBenef for which ICMS CSTs (MOC N12-85, 930, at each state's discretion): data read from
// assets/fiscal/rules/cbenef-required.json, each state with the official page it comes from (docs/fiscal/cbenef.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';

export interface CbenefStateRule {
  rule: string;
  cStat: number;
  csts: readonly string[];
  /** The first day the state applies it (AAAA-MM-DD, dhEmi's local date). */
  since: string;
  models: readonly number[];
  legal: string;
  source: string;
}

let table: Readonly<Record<string, CbenefStateRule>> | undefined;

function states(): Readonly<Record<string, CbenefStateRule>> {
  table ??= (JSON.parse(readFileSync(join(FISCAL_ASSETS_DIR, 'rules', 'cbenef-required.json'), 'utf8')) as { states: Record<string, CbenefStateRule> }).states;
  return table;
}

/** The state's rule when it requires cBenef for this CST in this model on this date; null otherwise. */
export function cbenefRequiredBy(uf: string, model: number, cst: string, localDate: string): CbenefStateRule | null {
  const r = states()[uf];
  if (!r || !r.models.includes(model) || !r.csts.includes(cst) || localDate < r.since) return null;
  return r;
}
