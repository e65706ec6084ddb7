// What the simulator's NT 2025.002 rules read of the official tables (docs/fiscal/reform-rules.md): the CST
// indicators (Tabela de Indicadores de CST: ind_gIBSCBS, ind_gRed, ind_gDif, ind_gIBSCBSMono, ind_gTransfCred),
// the classification (Tabela de cClassTrib: its CST, indNFe/indNFCe, the reductions pRedIBS/pRedCBS,
// ind_gTribRegular, ind_gCredPresOper), the cCredPres table (ind_gIBSCredPres, ind_gCBSCredPres) and the rates of the year. The tables themselves are data in fiscal/reform; this file
// only adapts them (viewOf); a rule whose table row is not known is not played (never stricter than the authority).
import { classificationOn, cstEntry, ratesOn, type ReformTables } from '../fiscal/reform/reform-tables.js';
import { reformTablesInForce } from '../fiscal/reform/reform-tables-in-force.js';
import { presumedCreditEntry } from '../fiscal/reform/presumed-credit-table.js';

export interface CstIndicators {
  gIBSCBS: boolean;
  gRed: boolean;
  gDif: boolean;
  gIBSCBSMono: boolean;
  gTransfCred: boolean;
}

export interface ClassificationFacts {
  cst: string;
  nfe: boolean;
  nfce: boolean;
  /** Reduction of the IBS (UF and municipal) and of the CBS, percent; null when the table gives none. */
  pRedIBS: number | null;
  pRedCBS: number | null;
  /** ind_gTribRegular; null when the table does not say. */
  tribRegular: boolean | null;
  /** ind_gCredPresOper (UB120-20): 1 permits gCredPresOper; absent when the view does not know it. */
  credPresOper?: boolean;
}

/** A cCredPres row as UB122-UB127 read it: whether the IBS / CBS credit group is required (1) or forbidden (0). */
export interface PresumedCreditFacts {
  ibs: boolean;
  cbs: boolean;
}

export interface ReformTablesView {
  /** undefined: the CST is not in the table in force (UB13-10). */
  cst(code: string): CstIndicators | undefined;
  /** undefined: the code is not in the table in force (UB14-10). */
  classification(code: string): ClassificationFacts | undefined;
  /** undefined: the code is not in the cCredPres table (UB122-10); the method is absent when no table is known. */
  presumedCredit?(code: string): PresumedCreditFacts | undefined;
}

/** Rates (percent) a note of this date must carry; null where the NT leaves it to a rate not yet published. */
export interface YearRates {
  pIBSUF: number | null;
  pIBSMun: number | null;
  pCBS: number | null;
}

/** The official tables (fiscal/reform) as the rules read them on a date. */
export function viewOf(t: ReformTables, date: string): ReformTablesView {
  return {
    cst: (code) => {
      const e = cstEntry(t, code);
      if (!e) return undefined;
      const i = e.indicators;
      return { gIBSCBS: i.ind_gIBSCBS, gRed: i.ind_gRed, gDif: i.ind_gDif, gIBSCBSMono: i.ind_gIBSCBSMono, gTransfCred: i.ind_gTransfCred };
    },
    classification: (code) => {
      const c = classificationOn(t, code, date);
      if (!c) return undefined;
      return { cst: c.cst, nfe: c.documents.includes('nfe'), nfce: c.documents.includes('nfce'), pRedIBS: c.pRedIBS, pRedCBS: c.pRedCBS, tribRegular: c.indicators.ind_gTribRegular, credPresOper: c.indicators.ind_gCredPresOper };
    },
    ...(t.presumedCredits
      ? {
          presumedCredit: (code: string) => {
            const e = presumedCreditEntry(t.presumedCredits, code);
            return e ? { ibs: e.ibsGroup, cbs: e.cbsGroup } : undefined;
          },
        }
      : {}),
  };
}

type TablesSource = (date: string) => ReformTablesView | null;
let source: TablesSource = (date) => viewOf(reformTablesInForce(), date);

/** The tables in force on a date (YYYY-MM-DD), or null when none is known: the rules that need them are skipped. */
export function reformTablesOn(date: string): ReformTablesView | null {
  return source(date);
}

/** Installs the tables (fiscal/reform, once merged; tests pass their own). Returns the previous source. */
export function useReformTables(next: TablesSource): TablesSource {
  const previous = source;
  source = next;
  return previous;
}

/**
 * NT 2025.002 UB18-10 (pIBSUF), UB37-10 (pIBSMun), UB56-10 (pCBS), text of v1.31: 0.1 / 0 / 0.9 for notes
 * dated 2025 and 2026 (LC 214/2025 arts. 343 and 346); IBS 0.05 UF and 0.05 municipal in 2027 and 2028
 * (art. 344). The CBS from 2027 and every rate from 2029 are "alíquota de referência a ser publicada". The
 * figures are the rate table's (fiscal/reform, rates.json, ratesOn); a null (not published) is not played.
 * A note dated 2025 (the NT names 2025 and 2026) is read with the 2026 period.
 */
export function yearRates(date: string): YearRates {
  const p = ratesOn(reformTablesInForce(), date < '2026-01-01' ? '2026-01-01' : date);
  return p ? { pIBSUF: p.ibsState, pIBSMun: p.ibsMunicipal, pCBS: p.cbs } : { pIBSUF: null, pIBSMun: null, pCBS: null };
}
