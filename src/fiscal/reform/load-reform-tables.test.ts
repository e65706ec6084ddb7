import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_REFORM_TABLES_DIR, loadReformTables, reformTablesDir } from './load-reform-tables.js';
import { reformTablesInForce, useReformTables } from './reform-tables-in-force.js';
import { classesFor, classificationOn, rateOn, ratesOn } from './reform-tables.js';

// docs/fiscal/reform-tables.md: the tables are data read at start; a bad file is refused with its
// name and row; a new revision dropped in a folder is used with no code change.

const dirs: string[] = [];
/** A table file's parsed JSON, edited freely by the tests. */
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
/** A copy of the shipped tables in a temporary folder, with `edit` applied to each file's JSON. */
function copyWith(edit: Partial<Record<'cst.json' | 'classification.json' | 'rates.json', (json: Json) => void>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'reform-tables-'));
  dirs.push(dir);
  cpSync(DEFAULT_REFORM_TABLES_DIR, dir, { recursive: true });
  for (const [file, change] of Object.entries(edit)) {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    change(json);
    writeFileSync(join(dir, file), JSON.stringify(json));
  }
  return dir;
}
afterEach(() => useReformTables(undefined));
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('a new revision in a folder: lookups return it with no code change', () => {
  // A made-up revision: class 200099 and a 2027 CBS of 8.7 are TEST values, not published ones.
  const newRevision = () => copyWith({
    'classification.json': (j) => {
      j.revision = '2026-12-15';
      j.classes.push({ ...j.classes.find((c: Json) => c.code === '200003'), code: '200099', name: 'Classe de teste', validFrom: '2027-01-01', validUntil: null });
    },
    'rates.json': (j) => {
      j.periods[1].cbs = 8.7;
      j.periods[1].source = 'Resolução de teste';
    },
  });

  it('loaded from the folder given', () => {
    const t = loadReformTables(newRevision());
    expect(t.revision).toContain('cClassTrib 2026-12-15');
    expect(classificationOn(t, '200099', '2026-12-31')).toBeUndefined();
    expect(classificationOn(t, '200099', '2027-01-01')).toMatchObject({ cst: '200', pRedIBS: 100, documents: ['nfe', 'nfce'] });
    expect(classesFor(t, '200', 'nfce', '2027-01-01').map((c) => c.code)).toContain('200099');
    expect(ratesOn(t, '2027-06-30')?.cbs).toBe(8.7);
    expect(rateOn(t, 'cbs', '2027-06-30')).toEqual({ rate: 8.7, source: 'Resolução de teste' });
    expect(ratesOn(t, '2028-01-01')?.cbs).toBeNull();
  });

  it('REFORM_TABLES_DIR names the folder the process reads; useReformTables swaps the tables in force', () => {
    const dir = newRevision();
    expect(reformTablesDir({ REFORM_TABLES_DIR: dir })).toBe(dir);
    expect(reformTablesDir({})).toBe(DEFAULT_REFORM_TABLES_DIR);
    const before = process.env.REFORM_TABLES_DIR;
    process.env.REFORM_TABLES_DIR = dir;
    try {
      useReformTables(undefined);
      expect(ratesOn(reformTablesInForce(), '2027-01-01')?.cbs).toBe(8.7);
    } finally {
      if (before === undefined) delete process.env.REFORM_TABLES_DIR;
      else process.env.REFORM_TABLES_DIR = before;
    }
    useReformTables(loadReformTables(DEFAULT_REFORM_TABLES_DIR));
    expect(ratesOn(reformTablesInForce(), '2027-01-01')?.cbs).toBeNull();
    expect(classificationOn(reformTablesInForce(), '200099', '2027-01-01')).toBeUndefined();
  });
});

describe('bad data is refused at load, naming the file and the row', () => {
  const refused = (edit: Parameters<typeof copyWith>[0]) => () => loadReformTables(copyWith(edit));

  it('a reduction that is not a number', () => {
    expect(refused({ 'classification.json': (j) => void (j.classes[3].pRedIBS = '60') })).toThrow('classification.json classes[3] (000004): pRedIBS must be a number from 0 to 100');
  });
  it('a code of an unknown CST, a code that does not start with its CST, a bad date, an end before the start', () => {
    expect(refused({ 'classification.json': (j) => void (j.classes[0].cst = '001') })).toThrow('classes[0] (000001): cst 001 is not in cst.json');
    expect(refused({ 'classification.json': (j) => void (j.classes[5].code = '200777') })).toThrow('classes[5] (200777): code 200777 does not start with its cst 010');
    expect(refused({ 'classification.json': (j) => void (j.classes[7].validFrom = '2026-02-30') })).toThrow('classes[7] (011001): validFrom must be a date YYYY-MM-DD');
    expect(refused({ 'classification.json': (j) => void (j.classes[7].validUntil = '2026-01-01') })).toThrow('validUntil 2026-01-01 must be after validFrom 2026-01-01 (the end is exclusive)');
  });
  it('two versions of a code in force on the same day', () => {
    expect(refused({ 'classification.json': (j) => void j.classes.push({ ...j.classes[0], validFrom: '2026-06-01' }) })).toThrow('classes[164] (000001): in force on 2026-06-01 as classes[0] is');
  });
  it('an indicator other than 0/1, an unknown document, a misspelt field, an unknown rate type', () => {
    expect(refused({ 'cst.json': (j) => void (j.csts[3].ind_gRed = true) })).toThrow('cst.json csts[3] (200): ind_gRed must be 0 or 1');
    expect(refused({ 'classification.json': (j) => void (j.classes[2].documents = ['nfe', 'cte']) })).toThrow('classes[2] (000003): documents must be a list of distinct nfe / nfce / nfse');
    expect(refused({ 'classification.json': (j) => void (j.classes[2].pRedIbs = 0) })).toThrow('classes[2] (000003): unknown field(s) pRedIbs');
    expect(refused({ 'classification.json': (j) => void (j.classes[2].rateType = 'Sem Alíquota') })).toThrow('rateType "Sem Alíquota" must be one of');
  });
  it('rate periods with a gap, or a null rate without the reason', () => {
    expect(refused({ 'rates.json': (j) => void (j.periods[1].from = '2027-01-02') })).toThrow('rates.json periods[0] (2026-01-01): the next period must start on 2027-01-01');
    expect(refused({ 'rates.json': (j) => void delete j.periods[1].note })).toThrow('rates.json periods[1] (2027-01-01): cbs null needs a note');
  });
  it('a missing file, a file that is not JSON, a duplicated CST', () => {
    const dir = copyWith();
    rmSync(join(dir, 'rates.json'));
    expect(() => loadReformTables(dir)).toThrow(`${join(dir, 'rates.json')}: cannot be read (ENOENT)`);
    const broken = copyWith();
    writeFileSync(join(broken, 'cst.json'), '{"revision": ');
    expect(() => loadReformTables(broken)).toThrow(`${join(broken, 'cst.json')}: not JSON`);
    expect(refused({ 'cst.json': (j) => void j.csts.push(j.csts[0]) })).toThrow('cst.json csts[18]: cst 000 appears twice');
  });
});
