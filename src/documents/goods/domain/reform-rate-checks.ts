import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import { CSTS_WITHOUT_RATE, type ReformItemPlan } from './item-taxes.js';
import type { Crt } from './issuer-context.js';
import { reformRatesOf, type ReformRates } from './reform-rates.js';
import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { reformGroupsDue } from './reform-schedule.js';

// The IBS/CBS rates an item needs on the date the note is prepared for (its local "today"): the
// rate of the date in the reform tables when they have it (reform-rates.ts), else the client's. The authority
// refuses a rate that is not the year's: pIBSUF (NT 2025.002-RTC UB18-10, cStat 1026), pIBSMun
// (cStat 1036) and pCBS (UB56-10, cStat 1037); docs/fiscal/tax-reform.md, "Rates by date".

const RATES: ReadonlyArray<{ key: keyof ReformRates; field: string; name: string; rule: string }> = [
  { key: 'ibsState', field: 'ibs_state_rate', name: 'pIBSUF', rule: 'UB18-10, cStat 1026' },
  { key: 'ibsMunicipal', field: 'ibs_municipal_rate', name: 'pIBSMun', rule: 'cStat 1036' },
  { key: 'cbs', field: 'cbs_rate', name: 'pCBS', rule: 'UB56-10, cStat 1037' },
];

const WHY_CBS_UNKNOWN =
  'the CBS rate of 2027 and 2028 is the reference rate of the Senate resolution minus 0.1 percentage point (LC 214/2025 art. 347), which this gateway does not have yet';

const percent = (rate4: number): string => (rate4 / 10_000).toFixed(2);

/** today: the issuer's local date (YYYY-MM-DD) the note is prepared on; no check without it. */
export function checkReformRates(errors: Errors, plan: readonly ReformItemPlan[], crt: Crt, taxReform: boolean, today: string | undefined, tables: ReformTables): void {
  if (today === undefined) return;
  const year = Number(today.slice(0, 4));
  if (!reformGroupsDue(crt, taxReform, year)) return;
  const ofYear = reformRatesOf(tables, today);
  plan.forEach((p, i) => {
    if (!(p.withGroup ?? !CSTS_WITHOUT_RATE.has(p.CST))) return;
    for (const r of RATES) {
      const sent = p.rates[r.key];
      const known = ofYear[r.key];
      const field = `items[${i}].reform.${r.field}`;
      if (sent === undefined && known === null && r.field === 'cbs_rate') {
        fail(errors, field, `is required for a note dated ${year}: ${WHY_CBS_UNKNOWN}; send the ${r.name} in force (percent)`);
      } else if (sent === undefined && known === null) {
        fail(errors, field, `is required for a note dated ${year}: the ${r.name} of ${year} is fixed by each entity's law, which this gateway does not have; send the ${r.name} in force (percent)`);
      } else if (sent !== undefined && known !== null && sent !== known) {
        fail(errors, field, `must be ${percent(known)} for a note dated ${year} (the authority refuses another ${r.name}: NT 2025.002-RTC ${r.rule}); leave it out to get it`);
      }
    }
  });
}
