// The presumed credit classification table (cCredPres, NT 2025.002-RTC Anexo IV; "Tabela de códigos de crédito
// presumido do IBS e da CBS", revision 12/12/2025) as data: assets/fiscal/reform/presumed-credit.json, read and
// checked with the other reform tables (load-reform-tables.ts; docs/fiscal/reform-tables.md says where it comes
// from). The NT reads it in rules UB122-10 (code exists, 1055), UB123-10/20 (ind_gIBSCredPres: IBS credit
// forbidden 1053 / required 1054) and UB127-10/20 (ind_gCBSCredPres: 1050 / 1058).

export interface PresumedCreditEntry {
  /** cCredPres, two digits (XSD TcCredPres `\d{2}`): `01`..`13`. */
  code: string;
  description: string;
  /** "LC 214/2025 art. 168". */
  legalReference: string;
  /** "Apropria via NF?": the credit may be taken in the fiscal document itself (gCredPresOper). */
  viaDocument: boolean;
  /** "Apropria via evento?": by event (e.g. 211110) instead. */
  viaEvent: boolean;
  /** ind_DeduzCredPres: the credit is deducted from the item's tax (vIBS = vIBSUF + vIBSMun - vCredPres, UB54a-10). */
  deducts: boolean;
  /** ind_gIBSCredPres / ind_gCBSCredPres: 1 = the tax's group is required, 0 = forbidden. */
  ibsGroup: boolean;
  cbsGroup: boolean;
  /** The sheet's rate wording per tax ("Alíquota fixa", "pAliqEfet * 50%"...), null when the code is not of that tax. */
  ibsRate: string | null;
  cbsRate: string | null;
  /** "cClass nota referenciada" as the sheet gives it (a cClassTrib or a wording). */
  referencedClass: string;
  validFrom: string;
  /** Per tax, [from, until): null from = the code is not of that tax. */
  ibs: { from: string; until?: string } | null;
  cbs: { from: string; until?: string } | null;
}

export const PRESUMED_CREDIT_FIELDS = [
  'code', 'description', 'legalReference', 'viaDocument', 'viaEvent', 'ind_DeduzCredPres', 'ind_gCBSCredPres', 'ind_gIBSCredPres',
  'cbsRate', 'ibsRate', 'referencedClass', 'validFrom', 'cbsFrom', 'cbsUntil', 'ibsFrom', 'ibsUntil',
] as const;

/** The row of a code, whatever the date (UB122-10 "inexistente"); undefined when the table has none. */
export function presumedCreditEntry(codes: readonly PresumedCreditEntry[] | undefined, code: string): PresumedCreditEntry | undefined {
  return codes?.find((c) => c.code === code);
}

/** Whether the code's credit of that tax is in force on `isoDate` (local YYYY-MM-DD...). */
export function presumedCreditInForce(entry: PresumedCreditEntry, tax: 'ibs' | 'cbs', isoDate: string): boolean {
  const v = entry[tax];
  const day = isoDate.slice(0, 10);
  // [from, until), as every validity of the reform tables (reform-tables.ts inForce).
  return v !== null && v.from <= day && (v.until === undefined || day < v.until);
}
