import type { DetModel, ReformTotModel } from '../../../fiscal/xml/nfe/model.js';
import { isSimplesNacional, type Crt } from './issuer-context.js';

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

/** Whether a note of this issuer dated in this (local) year carries the reform groups. */
export function reformGroupsDue(crt: Crt, year: number): boolean {
  return !isSimplesNacional(crt) || year >= SIMPLES_REFORM_FROM_YEAR;
}

interface ReformParts {
  det: DetModel[];
  reformTotal?: ReformTotModel;
}

/**
 * The parts of a note as its date decides: without IBSCBS, IS and the reform totals when they are not
 * due (reformGroupsDue). Decided when the note is built, on its dhEmi, so a note prepared on
 * 31 December and numbered on 1 January is right too. The parts handed in are left as they were.
 */
export function reformPartsOn<T extends ReformParts>(parts: T, crt: Crt, year: number): T {
  if (reformGroupsDue(crt, year) || (parts.reformTotal === undefined && !parts.det.some((d) => d.ibscbs || d.is))) return parts;
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
