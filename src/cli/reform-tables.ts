// `node dist/main.js reform-tables [--check DIR]`: reads and checks the tax reform tables
// (docs/fiscal/reform-tables.md) of DIR, or of the folder the gateway reads (REFORM_TABLES_DIR or
// assets/fiscal/reform), and prints their revision, counts and rate periods. Exit code 0 when they
// are valid, 1 (with the file and row at fault) when not. A running server reads the folder again on
// SIGHUP (main.ts); without it, at its next start.
import { parseArgs } from 'node:util';
import { loadReformTables, reformTablesDir, ReformTablesError } from '../fiscal/reform/load-reform-tables.js';
import type { RatePeriod, ReformTables } from '../fiscal/reform/reform-tables.js';

export function reformTablesCommand(args: string[], print: (line: string) => void, env: NodeJS.ProcessEnv = process.env): number {
  const { values } = parseArgs({ args, options: { check: { type: 'string' } } });
  const dir = values.check ?? reformTablesDir(env);
  let tables: ReformTables;
  try {
    tables = loadReformTables(dir);
  } catch (err) {
    if (!(err instanceof ReformTablesError)) throw err;
    print(`invalid reform tables in ${dir}:`);
    print(`  ${err.message}`);
    return 1;
  }
  print(`reform tables in ${dir}: valid`);
  for (const line of describeReformTables(tables)) print(`  ${line}`);
  return 0;
}

/** The revision, counts and one line per rate period (null rates shown as "not published"). */
export function describeReformTables(t: ReformTables): string[] {
  const rate = (v: number | null) => (v === null ? 'not published' : `${v}%`);
  const period = (r: RatePeriod) =>
    `${r.from} to ${r.until ? `${r.until} (exclusive)` : 'open'}: IBS UF ${rate(r.ibsState)}, IBS Mun ${rate(r.ibsMunicipal)}, CBS ${rate(r.cbs)}; Simples Nacional groups ${r.simplesGroupsDue ? 'due' : 'not due'}`;
  return [
    `revision: ${t.revision}`,
    `CSTs: ${t.csts.length}; cClassTrib codes: ${new Set(t.classes.map((c) => c.code)).size} (${t.classes.length} rows); cCredPres codes: ${t.presumedCredits?.length ?? 0}`,
    ...t.rates.map(period),
  ];
}
