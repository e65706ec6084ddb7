// PIS/PASEP and COFINS end with 2026, for every document family (docs/fiscal/tax-reform.md, "PIS and COFINS end in
// 2027"): ADCT art. 126 II b (EC 132/2023) extinguishes from 2027 the contributions of CF art. 195 I b and IV and
// art. 239, and LC 214/2025 art. 542 revokes their laws from 1 January 2027. A taxable event dated 2027 or later
// bears neither.

/** The last year whose taxable events bear PIS and COFINS. */
export const PIS_COFINS_LAST_YEAR = 2026;

export const pisCofinsDue = (year: number): boolean => year <= PIS_COFINS_LAST_YEAR;
