import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import {
  CLASS_INDICATORS, CST_INDICATORS, RATE_TYPES, REFORM_DOCUMENTS, inForce,
  type ClassEntry, type ClassIndicators, type CstEntry, type CstIndicators, type RatePeriod, type RateType, type ReformDocument, type ReformTables,
} from './reform-tables.js';
import { PRESUMED_CREDIT_FIELDS, type PresumedCreditEntry } from './presumed-credit-table.js';

// Reads the reform tables (docs/fiscal/reform-tables.md) and checks every row before the gateway uses
// them: a bad file stops the start (or the admin command) with the file and the row named, instead
// of a wrong tax on some note later. The folder is assets/fiscal/reform/ or REFORM_TABLES_DIR.

export const DEFAULT_REFORM_TABLES_DIR = join(FISCAL_ASSETS_DIR, 'reform');
export const REFORM_TABLE_FILES = { csts: 'cst.json', classes: 'classification.json', rates: 'rates.json', presumedCredits: 'presumed-credit.json' } as const;

export class ReformTablesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReformTablesError';
  }
}

/** The folder the gateway reads: REFORM_TABLES_DIR when set, else assets/fiscal/reform. */
export function reformTablesDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.REFORM_TABLES_DIR?.trim();
  return dir ? dir : DEFAULT_REFORM_TABLES_DIR;
}

/** Reads and checks the four files of `dir`; throws ReformTablesError naming the file and row of the first fault. */
export function loadReformTables(dir: string = reformTablesDir()): ReformTables {
  const cstFile = readTable(dir, REFORM_TABLE_FILES.csts);
  const classFile = readTable(dir, REFORM_TABLE_FILES.classes);
  const rateFile = readTable(dir, REFORM_TABLE_FILES.rates);
  const csts = cstFile.rows.map((row, i) => cstRow(new Where(REFORM_TABLE_FILES.csts, i, row)));
  unique(REFORM_TABLE_FILES.csts, csts.map((c) => c.cst), 'cst');
  const known = new Set(csts.map((c) => c.cst));
  const classes = classFile.rows.map((row, i) => classRow(new Where(REFORM_TABLE_FILES.classes, i, row), known));
  noOverlap(classes);
  const rates = rateFile.rows.map((row, i) => rateRow(new Where(REFORM_TABLE_FILES.rates, i, row)));
  contiguous(rates);
  const creditFile = readTable(dir, REFORM_TABLE_FILES.presumedCredits);
  const presumedCredits = creditFile.rows.map((row, i) => presumedCreditRow(new Where(REFORM_TABLE_FILES.presumedCredits, i, row)));
  unique(REFORM_TABLE_FILES.presumedCredits, presumedCredits.map((c) => c.code), 'code');
  return {
    revision: `CST ${cstFile.revision}; cClassTrib ${classFile.revision}; rates ${rateFile.revision}; cCredPres ${creditFile.revision}`,
    csts, classes, rates, presumedCredits,
  };
}

interface TableFile {
  revision: string;
  rows: unknown[];
}

const ROWS_KEY: Record<string, string> = { [REFORM_TABLE_FILES.csts]: 'csts', [REFORM_TABLE_FILES.classes]: 'classes', [REFORM_TABLE_FILES.rates]: 'periods', [REFORM_TABLE_FILES.presumedCredits]: 'codes' };

function readTable(dir: string, file: string): TableFile {
  const path = join(dir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ReformTablesError(`${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ReformTablesError(`${path}: not JSON (${(err as Error).message})`);
  }
  if (!isObject(json)) throw new ReformTablesError(`${path}: must be an object with "revision" and "${ROWS_KEY[file]}"`);
  const revision = json.revision;
  const rows = json[ROWS_KEY[file]!];
  if (typeof revision !== 'string' || revision.trim() === '') throw new ReformTablesError(`${file}: "revision" must be a non-empty string`);
  if (!Array.isArray(rows) || rows.length === 0) throw new ReformTablesError(`${file}: "${ROWS_KEY[file]}" must be a non-empty array`);
  return { revision, rows };
}

/** Names a row in every message: `classification.json classes[12] (200003): ...`. */
class Where {
  constructor(readonly file: string, readonly index: number, readonly row: unknown) {}
  fail(message: string): never {
    const key = isObject(this.row) ? (this.row.code ?? this.row.cst ?? this.row.from) : undefined;
    throw new ReformTablesError(`${this.file} ${ROWS_KEY[this.file]}[${this.index}]${typeof key === 'string' ? ` (${key})` : ''}: ${message}`);
  }
  fields(allowed: readonly string[]): Record<string, unknown> {
    if (!isObject(this.row)) this.fail('must be an object');
    const extra = Object.keys(this.row).filter((k) => !allowed.includes(k));
    if (extra.length) this.fail(`unknown field(s) ${extra.join(', ')} (a typo would be silently ignored otherwise)`);
    return this.row;
  }
  text(row: Record<string, unknown>, key: string, pattern?: RegExp): string {
    const v = row[key];
    if (typeof v !== 'string' || v.trim() === '') this.fail(`${key} must be a non-empty string`);
    if (pattern && !pattern.test(v)) this.fail(`${key} ${JSON.stringify(v)} must match ${pattern}`);
    return v;
  }
  flag(row: Record<string, unknown>, key: string): boolean {
    const v = row[key];
    if (v !== 0 && v !== 1) this.fail(`${key} must be 0 or 1`);
    return v === 1;
  }
  date(row: Record<string, unknown>, key: string, optional = false): string | undefined {
    const v = row[key];
    if (optional && (v === undefined || v === null)) return undefined;
    if (typeof v !== 'string' || !isIsoDate(v)) this.fail(`${key} must be a date YYYY-MM-DD${optional ? ' or null' : ''}`);
    return v;
  }
  percent(row: Record<string, unknown>, key: string, nullable: boolean): number | null {
    const v = row[key];
    if (nullable && v === null) return null;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 100) this.fail(`${key} must be a number from 0 to 100${nullable ? ' or null' : ''}`);
    return v;
  }
  documents(row: Record<string, unknown>): ReformDocument[] {
    const v = row.documents;
    if (!Array.isArray(v) || v.some((d) => !REFORM_DOCUMENTS.includes(d as ReformDocument)) || new Set(v).size !== v.length) {
      this.fail(`documents must be a list of distinct ${REFORM_DOCUMENTS.join(' / ')}`);
    }
    return v as ReformDocument[];
  }
}

const CST_FIELDS = ['cst', 'description', ...CST_INDICATORS, 'documents'];

function cstRow(at: Where): CstEntry {
  const row = at.fields(CST_FIELDS);
  const indicators = Object.fromEntries(CST_INDICATORS.map((k) => [k, at.flag(row, k)])) as unknown as CstIndicators;
  return { cst: at.text(row, 'cst', /^\d{3}$/), description: at.text(row, 'description'), indicators, documents: at.documents(row) };
}

const CLASS_FIELDS = ['code', 'cst', 'name', 'description', 'pRedIBS', 'pRedCBS', 'rateType', ...CLASS_INDICATORS, 'tpRBSN', 'documents', 'validFrom', 'validUntil', 'legalReference', 'annex', 'link'];

function classRow(at: Where, csts: Set<string>): ClassEntry {
  const row = at.fields(CLASS_FIELDS);
  const code = at.text(row, 'code', /^\d{6}$/);
  const cst = at.text(row, 'cst', /^\d{3}$/);
  if (!csts.has(cst)) at.fail(`cst ${cst} is not in ${REFORM_TABLE_FILES.csts}`);
  if (code.slice(0, 3) !== cst) at.fail(`code ${code} does not start with its cst ${cst}`);
  const rateType = at.text(row, 'rateType');
  if (!RATE_TYPES.includes(rateType as RateType)) at.fail(`rateType ${JSON.stringify(rateType)} must be one of ${RATE_TYPES.join(', ')}`);
  const validFrom = at.date(row, 'validFrom')!;
  const validUntil = at.date(row, 'validUntil', true);
  if (validUntil !== undefined && validUntil <= validFrom) at.fail(`validUntil ${validUntil} must be after validFrom ${validFrom} (the end is exclusive)`);
  const annex = optionalText(at, row, 'annex');
  const link = optionalText(at, row, 'link');
  const entry: ClassEntry = {
    code, cst,
    name: at.text(row, 'name'),
    description: at.text(row, 'description'),
    pRedIBS: at.percent(row, 'pRedIBS', false)!,
    pRedCBS: at.percent(row, 'pRedCBS', false)!,
    rateType: rateType as RateType,
    indicators: Object.fromEntries(CLASS_INDICATORS.map((k) => [k, at.flag(row, k)])) as unknown as ClassIndicators,
    documents: at.documents(row),
    validFrom,
    legalReference: at.text(row, 'legalReference'),
  };
  if (validUntil !== undefined) entry.validUntil = validUntil;
  const tpRBSN = row.tpRBSN;
  if (tpRBSN !== undefined && tpRBSN !== null) {
    if (typeof tpRBSN !== 'string' || !/^[0-59]$/.test(tpRBSN)) at.fail('tpRBSN must be one of 0-5, 9 or null');
    entry.tpRBSN = tpRBSN;
  }
  if (annex !== undefined) entry.annex = annex;
  if (link !== undefined) entry.link = link;
  return entry;
}

/** A cCredPres row (presumed-credit-table.ts): flags 0/1, a tax's validity only when the code is of that tax. */
function presumedCreditRow(at: Where): PresumedCreditEntry {
  const row = at.fields(PRESUMED_CREDIT_FIELDS);
  const span = (tax: 'ibs' | 'cbs'): PresumedCreditEntry['ibs'] => {
    const from = at.date(row, `${tax}From`, true);
    const until = at.date(row, `${tax}Until`, true);
    if (from === undefined) {
      if (until !== undefined) at.fail(`${tax}Until without ${tax}From`);
      return null;
    }
    if (until !== undefined && until <= from) at.fail(`${tax}Until ${until} must be after ${tax}From ${from} (the end is exclusive)`);
    return until === undefined ? { from } : { from, until };
  };
  const entry: PresumedCreditEntry = {
    code: at.text(row, 'code', /^\d{2}$/),
    description: at.text(row, 'description'),
    legalReference: at.text(row, 'legalReference'),
    viaDocument: at.flag(row, 'viaDocument'),
    viaEvent: at.flag(row, 'viaEvent'),
    deducts: at.flag(row, 'ind_DeduzCredPres'),
    ibsGroup: at.flag(row, 'ind_gIBSCredPres'),
    cbsGroup: at.flag(row, 'ind_gCBSCredPres'),
    ibsRate: optionalText(at, row, 'ibsRate') ?? null,
    cbsRate: optionalText(at, row, 'cbsRate') ?? null,
    referencedClass: at.text(row, 'referencedClass'),
    validFrom: at.date(row, 'validFrom')!,
    ibs: span('ibs'),
    cbs: span('cbs'),
  };
  if (entry.ibsGroup && !entry.ibs) at.fail('ind_gIBSCredPres 1 needs ibsFrom (the IBS credit has a validity)');
  if (entry.cbsGroup && !entry.cbs) at.fail('ind_gCBSCredPres 1 needs cbsFrom (the CBS credit has a validity)');
  return entry;
}

function optionalText(at: Where, row: Record<string, unknown>, key: string): string | undefined {
  const v = row[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v.trim() === '') at.fail(`${key} must be a non-empty string or null`);
  return v;
}

const RATE_FIELDS = ['from', 'until', 'ibsState', 'ibsMunicipal', 'cbs', 'simplesGroupsDue', 'source', 'note'];

function rateRow(at: Where): RatePeriod {
  const row = at.fields(RATE_FIELDS);
  const from = at.date(row, 'from')!;
  const until = at.date(row, 'until', true);
  if (until !== undefined && until <= from) at.fail(`until ${until} must be after from ${from} (the end is exclusive)`);
  if (typeof row.simplesGroupsDue !== 'boolean') at.fail('simplesGroupsDue must be true or false');
  const period: RatePeriod = {
    from,
    ibsState: at.percent(row, 'ibsState', true),
    ibsMunicipal: at.percent(row, 'ibsMunicipal', true),
    cbs: at.percent(row, 'cbs', true),
    simplesGroupsDue: row.simplesGroupsDue,
    source: at.text(row, 'source'),
  };
  const unpublished = (['ibsState', 'ibsMunicipal', 'cbs'] as const).filter((k) => period[k] === null);
  if (row.note !== undefined) period.note = at.text(row, 'note');
  if (unpublished.length && !period.note) at.fail(`${unpublished.join(', ')} null needs a note saying why (not published, where it will come from)`);
  if (until !== undefined) period.until = until;
  return period;
}

function unique(file: string, keys: string[], what: string): void {
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    if (seen.has(k)) throw new ReformTablesError(`${file} ${ROWS_KEY[file]}[${i}]: ${what} ${k} appears twice`);
    seen.add(k);
  });
}

/** Two versions of one code may follow each other, never overlap: a date must find one version at most. */
function noOverlap(classes: ClassEntry[]): void {
  classes.forEach((c, i) => {
    const j = classes.findIndex((o, k) => k < i && o.code === c.code && overlaps(o.validFrom, o.validUntil, c.validFrom, c.validUntil));
    if (j >= 0) throw new ReformTablesError(`${REFORM_TABLE_FILES.classes} classes[${i}] (${c.code}): in force on ${c.validFrom} as classes[${j}] is; two versions of a code must not overlap`);
  });
}

function overlaps(aFrom: string, aUntil: string | undefined, bFrom: string, bUntil: string | undefined): boolean {
  return inForce(aFrom, aUntil, bFrom) || inForce(bFrom, bUntil, aFrom);
}

/** Periods in date order, each starting where the one before ended; only the last may be open-ended. */
function contiguous(rates: RatePeriod[]): void {
  rates.forEach((r, i) => {
    const at = `${REFORM_TABLE_FILES.rates} periods[${i}] (${r.from})`;
    const next = rates[i + 1];
    if (next && r.until === undefined) throw new ReformTablesError(`${at}: only the last period may have no "until"`);
    if (next && next.from !== r.until) throw new ReformTablesError(`${at}: the next period must start on ${r.until} (periods in order, no gap, no overlap)`);
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}
