// The tax reform's tables (IBS / CBS, LC 214/2025, NT 2025.002-RTC) as data: the CST IBS/CBS table,
// the cClassTrib classification table and the rates per period. Types and pure lookups only; the
// files are read by load-reform-tables.ts and held by reform-tables-in-force.ts
// (docs/fiscal/reform-tables.md says what each column means and where each table comes from).
//
// Dates are ISO calendar dates (YYYY-MM-DD) compared as strings. Every validity in these tables is
// START INCLUSIVE, END EXCLUSIVE: a class with validFrom 2026-01-01 and validUntil 2027-01-01 is in
// force on 2026-12-31 and not on 2027-01-01. The official table's dFimVig is the last day in force;
// the files hold the day after it (docs/fiscal/reform-tables.md, "Validity").

import type { PresumedCreditEntry } from './presumed-credit-table.js';

/** The documents the gateway issues, as the official tables' indNFe / indNFCe / indNFSe columns name them. */
export type ReformDocument = 'nfe' | 'nfce' | 'nfse';
export const REFORM_DOCUMENTS: readonly ReformDocument[] = ['nfe', 'nfce', 'nfse'];

/** The group indicators of a CST (Informe Técnico 2025.002, "Tabela CST"); the sheet's legend: 1 = the group is required, 0 = not allowed. */
export const CST_INDICATORS = [
  'ind_gIBSCBS', 'ind_gIBSCBSMono', 'ind_gRed', 'ind_gDif', 'ind_gTransfCred', 'ind_gCredPresIBSZFM', 'ind_gAjusteCompet', 'ind_RedutorBC',
] as const;
export type CstIndicators = Record<(typeof CST_INDICATORS)[number], boolean>;

export interface CstEntry {
  /** Three digits: `000`, `200`, `410`. */
  cst: string;
  description: string;
  indicators: CstIndicators;
  /** The documents that may carry it (those with at least one class of this CST marked for them). */
  documents: readonly ReformDocument[];
}

/** The per-class indicators of the cClassTrib table: which groups a code of this class writes. */
export const CLASS_INDICATORS = [
  'ind_gTribRegular', 'ind_gCredPresOper', 'ind_gMonoPadrao', 'ind_gMonoReten', 'ind_gMonoRet', 'ind_gMonoDif', 'ind_gpBioDiferenca', 'ind_gEstornoCred',
] as const;
export type ClassIndicators = Record<(typeof CLASS_INDICATORS)[number], boolean>;

/** "Tipo de Alíquota", spelled as the table spells it. */
export type RateType = 'Padrão' | 'Sem alíquota' | 'Uniforme nacional (referência)' | 'Uniforme setorial' | 'Fixa';
export const RATE_TYPES: readonly RateType[] = ['Padrão', 'Sem alíquota', 'Uniforme nacional (referência)', 'Uniforme setorial', 'Fixa'];

export interface ClassEntry {
  /** cClassTrib, six digits; its first three are the CST. */
  code: string;
  cst: string;
  /** "Nome cClassTrib" (short) and "Descrição cClassTrib" (the legal wording). */
  name: string;
  description: string;
  /** Reduction of the IBS and of the CBS rate, percent (pRedIBS / pRedCBS): 60 means 40% of the rate is paid. */
  pRedIBS: number;
  pRedCBS: number;
  rateType: RateType;
  indicators: ClassIndicators;
  /** tpRBSN, "Tipo de Receita Bruta do SN" (TRBSN of DFeTiposBasicos: 0-5, 9), as the table gives it. */
  tpRBSN?: string;
  documents: readonly ReformDocument[];
  /** First day in force (dIniVig), inclusive. */
  validFrom: string;
  /** First day NO LONGER in force (the official dFimVig + 1 day); absent while open-ended. */
  validUntil?: string;
  /** "LC 214/2025 art. 125", from the table's "LC 214/25" column. */
  legalReference: string;
  /** "ANEXO" as the table gives it: the Anexo of LC 214/2025 (1..17) or the table's own reference number. */
  annex?: string;
  /** The table's link to the law's text. */
  link?: string;
}

export interface RatePeriod {
  /** First day of the period, inclusive. */
  from: string;
  /** First day after it (exclusive); absent while open-ended. */
  until?: string;
  /** Rates in percent. null: not published in the sources read (the client must send it; see `note`). */
  ibsState: number | null;
  ibsMunicipal: number | null;
  cbs: number | null;
  /** Whether issuers of the Simples Nacional (CRT 1, 2, 4) carry the IBS/CBS groups in this period. */
  simplesGroupsDue: boolean;
  /** The law that fixes each figure. */
  source: string;
  /** Why a figure is null, what applies to the Simples Nacional. */
  note?: string;
}

export interface ReformTables {
  /** Revision of the tables, e.g. `cClassTrib 2026-06-22 / rates 2026-11-28`. */
  revision: string;
  csts: readonly CstEntry[];
  classes: readonly ClassEntry[];
  rates: readonly RatePeriod[];
  /** cCredPres (NT 2025.002-RTC Anexo IV, presumed-credit-table.ts); absent in tables built by hand without it. */
  presumedCredits?: readonly PresumedCreditEntry[];
}

/** Whether `isoDate` falls in [from, until). */
export function inForce(from: string, until: string | undefined, isoDate: string): boolean {
  return from <= isoDate && (until === undefined || isoDate < until);
}

/** The CST row, undefined when the table has no such CST. */
export function cstEntry(t: ReformTables, cst: string): CstEntry | undefined {
  return t.csts.find((c) => c.cst === cst);
}

/** The class in force on `isoDate` (YYYY-MM-DD, or an ISO date-time whose first 10 characters are the local date); undefined when unknown or out of its validity. */
export function classificationOn(t: ReformTables, code: string, isoDate: string): ClassEntry | undefined {
  const day = isoDate.slice(0, 10);
  return t.classes.find((c) => c.code === code && inForce(c.validFrom, c.validUntil, day));
}

/** Any version of the class, whatever its validity (to tell "unknown code" from "not in force on that date"). */
export function classificationVersions(t: ReformTables, code: string): ClassEntry[] {
  return t.classes.filter((c) => c.code === code);
}

/** The rate period in force on `isoDate`; undefined before the first one (before 2026). */
export function ratesOn(t: ReformTables, isoDate: string): RatePeriod | undefined {
  const day = isoDate.slice(0, 10);
  return t.rates.find((r) => inForce(r.from, r.until, day));
}

/** The classes of a CST that a document may carry on `isoDate`, in code order. */
export function classesFor(t: ReformTables, cst: string, document: ReformDocument, isoDate: string): ClassEntry[] {
  const day = isoDate.slice(0, 10);
  return t.classes
    .filter((c) => c.cst === cst && c.documents.includes(document) && inForce(c.validFrom, c.validUntil, day))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export type ReformTax = 'ibsState' | 'ibsMunicipal' | 'cbs';
/** A rate, or why there is none: not published in the tables (`RatePeriod.note`), or a date no period covers. */
export type RateLookup = { rate: number; source: string } | { rate: null; why: string };

/** One tax's rate on `isoDate`, with the law that fixes it or, when null, the reason (to hand to the client in a 422). */
export function rateOn(t: ReformTables, tax: ReformTax, isoDate: string): RateLookup {
  const period = ratesOn(t, isoDate);
  if (!period) return { rate: null, why: `no rate period of the reform tables covers ${isoDate.slice(0, 10)} (they start on ${t.rates[0]?.from ?? '-'})` };
  const rate = period[tax];
  return rate === null ? { rate: null, why: period.note ?? `${tax} not published (${period.source})` } : { rate, source: period.source };
}
