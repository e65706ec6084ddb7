import { rateOn, ratesOn, type ReformTables, type ReformTax } from '../../../fiscal/reform/reform-tables.js';
import { toScaled } from '../../../kernel/decimal.js';

// The IBS and CBS rates of the transition on the note's local date, from the reform tables' rate
// periods (assets/fiscal/reform/rates.json: LC 214/2025 arts. 343, 344, 346, 347), percent scaled by
// 10^4 (0.9% = 9000). `null`: not published (the 2027 and 2028 CBS, everything from 2029), so the
// item must send the rate (docs/fiscal/tax-reform.md, "Rates by date").

export interface ReformRates {
  ibsState: number | null;
  ibsMunicipal: number | null;
  cbs: number | null;
}

const scaled = (percent: number | null | undefined): number | null => (percent === null || percent === undefined ? null : Number(toScaled(percent, 4)));

/** isoDate: the local date (YYYY-MM-DD, or a dhEmi whose first 10 characters are it). */
export function reformRatesOf(t: ReformTables, isoDate: string): ReformRates {
  const p = ratesOn(t, isoDate < '2026' ? '2026-01-01' : isoDate);
  return { ibsState: scaled(p?.ibsState), ibsMunicipal: scaled(p?.ibsMunicipal), cbs: scaled(p?.cbs) };
}

/** Why a rate is not known on that date, in the tables' words (for the 422). */
export function unknownRateReason(t: ReformTables, tax: ReformTax, isoDate: string): string {
  const r = rateOn(t, tax, isoDate);
  return r.rate === null ? r.why : '';
}
