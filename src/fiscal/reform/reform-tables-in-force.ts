import { loadReformTables } from './load-reform-tables.js';
import type { ReformTables } from './reform-tables.js';

// The reform tables the process uses (docs/fiscal/reform-tables.md): read from reformTablesDir() the
// first time they are asked for (the server asks at start, so bad data stops it there), then kept.
// useReformTables replaces them: tests, and a reload after the data folder was updated.

let current: ReformTables | undefined;

export function reformTablesInForce(): ReformTables {
  current ??= loadReformTables();
  return current;
}

/** Replaces the tables in force (already loaded and checked, e.g. by loadReformTables(dir)); undefined drops them so the next use reads the folder again. */
export function useReformTables(tables: ReformTables | undefined): void {
  current = tables;
}
