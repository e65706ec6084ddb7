import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { DEFAULT_REFORM_TABLES_DIR } from '../src/fiscal/reform/load-reform-tables.js';
import { reformTablesInForce, useReformTables } from '../src/fiscal/reform/reform-tables-in-force.js';
import { startRuntime } from '../src/runtime.js';
import { TEST_MASTER_KEY } from './support/app.js';

// docs/fiscal/reform-tables.md: the tables are read when a process starts; bad data stops the start
// there, naming the file and the row, before storage or the API is opened.
describe('reform tables at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reform-start-'));
  afterAll(() => {
    useReformTables(undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a bad classification row stops startRuntime with the file and the row', async () => {
    cpSync(DEFAULT_REFORM_TABLES_DIR, dir, { recursive: true });
    const file = join(dir, 'classification.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { classes: Array<Record<string, unknown>> };
    json.classes[14]!.validFrom = '01/01/2026';
    writeFileSync(file, JSON.stringify(json));
    const before = process.env.REFORM_TABLES_DIR;
    process.env.REFORM_TABLES_DIR = dir;
    useReformTables(undefined);
    try {
      const config = loadConfig({ DATA_DIR: '/tmp/fiscal-gateway-test', MASTER_KEY: TEST_MASTER_KEY });
      await expect(startRuntime(config)).rejects.toThrow('classification.json classes[14] (200003): validFrom must be a date YYYY-MM-DD');
    } finally {
      if (before === undefined) delete process.env.REFORM_TABLES_DIR;
      else process.env.REFORM_TABLES_DIR = before;
      useReformTables(undefined);
    }
    expect(reformTablesInForce().classes).toHaveLength(164);
  });
});
