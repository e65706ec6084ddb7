import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REFORM_TABLES_DIR } from '../fiscal/reform/load-reform-tables.js';
import { reformTablesCommand } from './reform-tables.js';

// `node dist/main.js reform-tables [--check DIR]` (docs/fiscal/reform-tables.md).
describe('reform-tables command', () => {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const lines: string[] = [];
    return { code: reformTablesCommand(args, (l) => lines.push(l), env), out: lines.join('\n') };
  };

  it('valid tables: exit 0, the revision, counts and each rate period (a null rate shown as not published)', () => {
    const { code, out } = run([]);
    expect(code).toBe(0);
    expect(out).toContain(`reform tables in ${DEFAULT_REFORM_TABLES_DIR}: valid`);
    expect(out).toContain('revision: CST 2026-06-22; cClassTrib 2026-06-22');
    expect(out).toContain('cCredPres codes: 13');
    expect(out).toContain('CSTs: 18; cClassTrib codes: 164');
    expect(out).toContain('2027-01-01 to 2028-01-01 (exclusive): IBS UF 0.05%, IBS Mun 0.05%, CBS not published');
  });

  it('bad tables: exit 1 with the file and the row; REFORM_TABLES_DIR is the default folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reform-cli-'));
    try {
      cpSync(DEFAULT_REFORM_TABLES_DIR, dir, { recursive: true });
      writeFileSync(join(dir, 'cst.json'), JSON.stringify({ revision: 'x', csts: [{ cst: '0', description: 'd', ind_gRedx: 1 }] }));
      const { code, out } = run([], { REFORM_TABLES_DIR: dir });
      expect(code).toBe(1);
      expect(out).toContain(`invalid reform tables in ${dir}:`);
      expect(out).toContain('cst.json csts[0] (0): unknown field(s) ind_gRedx');
      expect(run(['--check', dir]).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
