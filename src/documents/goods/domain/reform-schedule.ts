import type { DetModel, IcmsTotModel, ReformTotModel } from '../../../fiscal/xml/nfe/model.js';
import { isSimplesNacional, type Crt } from './issuer-context.js';
import { ibsCbsGroupOf, selectiveTaxOf, type ReformItemPlan } from './item-taxes.js';
import { ibsCbsBase } from './reform-base.js';
import { reformRatesOf } from './reform-rates.js';
import { withItemCredits } from './reform-presumed-credit.js';
import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { reformTotals } from './totals.js';

/**
 * The first year a Simples Nacional or MEI issuer (CRT 1, 2 and 4) carries the IBS/CBS groups.
 * LC 214/2025 art. 348 III c: the 2026 test rates of IBS (art. 343) and CBS (art. 346) do not apply
 * to Simples Nacional taxpayers for the taxable events of 1 January to 31 December 2026; the Simples
 * regime pays IBS and CBS inside the DAS only from 2027 (art. 517, LC 123/2006 art. 13 as amended).
 * NT 2025.002-RTC v1.20 agrees: the rule "IBS/CBS não informado" (cStat 1115) applies to CRT 1, 2
 * and 4 only from 04/01/2027 (its Observação 3), and a group with a zero rate would break the 2026
 * rate rules (cStat 1026: pIBSUF 0.10; 1036: pIBSMun 0; 1037: pCBS 0.90). So a Simples note dated
 * 2026 carries no IBSCBS, IS, IBSCBSTot nor vNFTot (docs/fiscal/tax-reform.md).
 */
export const SIMPLES_REFORM_FROM_YEAR = 2027;
/**
 * From 2027 the IBS and CBS are due by everyone (LC 214/2025 arts. 344 and 347) and the NT's rule
 * "IBS/CBS não informado" (UB12-10, cStat 1115) reaches every CRT: the account's taxRegime (legacy /
 * reform_2026) only chooses in 2026 (docs/fiscal/tax-reform.md, "Rates by date").
 */
export const EVERYONE_FROM_YEAR = 2027;

/**
 * The first year of IBS and CBS: the test rates of LC 214/2025 arts. 343 and 346 apply to the taxable
 * events from 1 January 2026, and the official classification table starts on that day (dIniVig
 * 2026-01-01, docs/fiscal/reform-tables.md): the simulator answers 1023 (cClassTrib not in force) to a
 * group on an earlier date. A note dated before 2026 carries no reform group, whatever the account says.
 */
export const REFORM_FROM_YEAR = 2026;

/** Whether a note of this issuer dated in this (local) year carries the reform groups. */
export function reformGroupsDue(crt: Crt, taxReform: boolean, year: number): boolean {
  if (year < REFORM_FROM_YEAR) return false;
  if (year >= EVERYONE_FROM_YEAR) return true;
  return taxReform && (!isSimplesNacional(crt) || year >= SIMPLES_REFORM_FROM_YEAR);
}

/** Whether a note prepared on `today` (local, YYYY-MM-DD) may carry the groups: for the size measure (MOC B01). */
export function reformGroupsLikely(taxReform: boolean, today: string | undefined): boolean {
  return taxReform || (today !== undefined && Number(today.slice(0, 4)) >= EVERYONE_FROM_YEAR);
}

interface ReformParts {
  det: DetModel[];
  total: IcmsTotModel;
  reformTotal?: ReformTotModel;
}

export interface ReformDating {
  crt: Crt;
  taxReform: boolean;
  /** The note's local date (dhEmi, YYYY-MM-DD...): its year and the rates in force on it. */
  date: string;
  tables: ReformTables;
}

/** The items with IBSCBS and IS at the rates of the date, and the totals IBSCBSTot/ISTot/vNFTot. */
export function withReformGroups<T extends ReformParts>(parts: T, plan: readonly ReformItemPlan[], crt: Crt, date: string, tables: ReformTables): T {
  const rates = reformRatesOf(tables, date);
  const year = Number(date.slice(0, 4));
  const simples = isSimplesNacional(crt);
  const det = parts.det.map((d, i): DetModel => {
    const p = plan[i]!;
    const copy: DetModel = { ...d };
    const is = selectiveTaxOf(p, d.vProd - d.vDesc);
    if (is) copy.is = is;
    copy.ibscbs = withItemCredits(ibsCbsGroupOf(p, ibsCbsBase(d, year, simples, is?.vIS ?? 0), rates), p, d);
    return copy;
  });
  return { ...parts, det, reformTotal: reformTotals(det, parts.total.vNF, year) };
}

/**
 * The parts of a note as its date decides: with IBSCBS, IS and the reform totals at the rates of
 * its year when they are due (reformGroupsDue), without them otherwise. Decided when the note is
 * built, on its dhEmi, so a note prepared on 31 December and numbered on 1 January follows the new
 * year. The parts handed in are left as they were.
 */
export function reformPartsOn<T extends ReformParts>(parts: T, plan: readonly ReformItemPlan[], dating: ReformDating): T {
  if (reformGroupsDue(dating.crt, dating.taxReform, Number(dating.date.slice(0, 4)))) return withReformGroups(parts, plan, dating.crt, dating.date, dating.tables);
  if (parts.reformTotal === undefined && !parts.det.some((d) => d.ibscbs || d.is)) return parts;
  const det = parts.det.map((d) => {
    const copy = { ...d };
    delete copy.ibscbs;
    delete copy.is;
    return copy;
  });
  const out = { ...parts, det };
  delete out.reformTotal;
  return out;
}
