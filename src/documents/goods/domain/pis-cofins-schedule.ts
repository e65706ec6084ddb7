import type { DetModel, IcmsTotModel, PisCofinsModel } from '../../../fiscal/xml/nfe/model.js';
import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { pisCofinsDue } from '../../../fiscal/reform/pis-cofins-end.js';
import type { SaleItem } from './sale-item.js';

// PIS/PASEP and COFINS end with 2026 (src/fiscal/reform/pis-cofins-end.ts; docs/fiscal/tax-reform.md, "PIS and
// COFINS end in 2027"), so a note dated 2027 or later charges neither. Decided like the reform groups on the note's
// dhEmi (its local year), so a sale prepared on 31 December and numbered on 1 January follows the new year.

/**
 * What an NF-e (model 55) dated 2027 carries instead: the authority still requires both groups on
 * every NF-e but credit / debit notes (MOC Q01-20, cStat 745; S01-20, 748; NT 2025.002-RTC v1.31 has
 * no date exception), so each item gets the CST of no incidence, "08 - Operação sem Incidência da
 * Contribuição" (PISNT / COFINSNT: the CST only, no base, rate nor value). An NFC-e needs neither
 * group (XSD minOccurs 0, no MOC rule asks for them in model 65) and carries none.
 */
export const NO_INCIDENCE_CST = '08';

interface PisCofinsParts {
  det: DetModel[];
  total: IcmsTotModel;
}

/**
 * The parts as the note's local year decides: unchanged up to 2026; from 2027 no PIS nor COFINS
 * charged (model 65: no group; model 55: CST 08 in both) and vPIS / vCOFINS 0 in ICMSTot. vNF does not
 * hold them (MOC W16-10), so the payments stand. The parts handed in are left as they were.
 */
export function pisCofinsPartsOn<T extends PisCofinsParts>(parts: T, mod: 55 | 65, year: number): T {
  if (pisCofinsDue(year)) return parts;
  const none: PisCofinsModel | undefined = mod === 55 ? { CST: NO_INCIDENCE_CST } : undefined;
  const det = parts.det.map((d): DetModel => {
    const copy: DetModel = { ...d };
    delete copy.pis;
    delete copy.cofins;
    // A credit or debit note's item carries no PIS nor COFINS in any year (NT 2025.002-RTC B25-80).
    if (none && !d.reformOnly) {
      copy.pis = { ...none };
      copy.cofins = { ...none };
    }
    return copy;
  });
  return { ...parts, det, total: { ...parts.total, vPIS: 0, vCOFINS: 0 } };
}

/**
 * A sale prepared on a day of 2027 or later that sends `pis` or `cofins`: refused, naming the field
 * and the law. today: the issuer's local date (YYYY-MM-DD); no check without it.
 */
export function checkPisCofinsDate(errors: Errors, items: readonly SaleItem[], today: string | undefined, mod: 55 | 65): void {
  if (today === undefined) return;
  const year = Number(today.slice(0, 4));
  if (pisCofinsDue(year)) return;
  items.forEach((item, i) => {
    for (const tax of ['pis', 'cofins'] as const) {
      if (item[tax] === undefined) continue;
      const field = `items[${i}].${tax}`;
      if (mod === 55) fail(errors, field, `is not accepted on a note dated ${year}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542 revokes their laws from 1 January 2027); leave it out: the NF-e carries CST 08 (no incidence) in both groups`);
      else fail(errors, field, `is not accepted on a note dated ${year}: PIS/PASEP and COFINS end with 2026 (ADCT art. 126 II b, EC 132/2023; LC 214/2025 art. 542 revokes their laws from 1 January 2027); leave it out: the NFC-e carries neither group`);
    }
  });
}
