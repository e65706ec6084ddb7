import { existsSync } from 'node:fs';
import { reformTablesDir } from './load-reform-tables.js';
import type { ReformTables } from './reform-tables.js';
import { reformTablesInForce } from './reform-tables-in-force.js';

/**
 * The tables in force when their folder is installed (assets/fiscal/reform or REFORM_TABLES_DIR), else undefined:
 * callers then fall back to what they know without them (the NFS-e: CST 000 at the 2026 rates,
 * docs/fiscal/nfse-reform.md). A folder that exists but holds bad data still throws (load-reform-tables.ts).
 */
export function installedReformTables(): ReformTables | undefined {
  return existsSync(reformTablesDir()) ? reformTablesInForce() : undefined;
}
