// IBS and CBS rates of the transition by the year of the taxable event (the note's local dhEmi),
// percent scaled by 10^4 (0.9% = 9000). Sources (docs/fiscal/tax-reform.md, "Rates by date"):
// - 2026: IBS state 0.1%, no municipal share (LC 214/2025 art. 343); CBS 0.9% (art. 346);
// - 2027 and 2028: IBS state 0.05% and municipal 0.05% (art. 344); CBS at the reference rate of the
//   Senate resolution reduced by 0.1 percentage point (art. 347): not published, so unknown here;
// - from 2029 the rates are those each entity fixes (arts. 14, 18, 361 onwards): unknown here.
// `null` means the gateway does not know the rate of that year: the item must send it.

export interface ReformRates {
  ibsState: number | null;
  ibsMunicipal: number | null;
  cbs: number | null;
}

const KNOWN: Readonly<Record<number, ReformRates>> = {
  2026: { ibsState: 1000, ibsMunicipal: 0, cbs: 9000 },
  2027: { ibsState: 500, ibsMunicipal: 500, cbs: null },
  2028: { ibsState: 500, ibsMunicipal: 500, cbs: null },
};

/** The rates of a (local) year; years the gateway knows nothing of give nulls. */
export function reformRatesOf(year: number): ReformRates {
  return KNOWN[year < 2026 ? 2026 : year] ?? { ibsState: null, ibsMunicipal: null, cbs: null };
}
