import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_REFORM_TABLES_DIR, loadReformTables } from './load-reform-tables.js';
import { presumedCreditEntry, presumedCreditInForce } from './presumed-credit-table.js';

// The cCredPres table (NT 2025.002-RTC Anexo IV) as data: the shipped revision of 12/12/2025 and the loader's
// refusal of a bad row (docs/fiscal/reform-tables.md, "The presumed credit table").

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** The shipped tables copied, presumed-credit.json edited. */
function withCredits(edit: (json: { codes: Record<string, unknown>[] }) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'credpres-'));
  dirs.push(dir);
  cpSync(DEFAULT_REFORM_TABLES_DIR, dir, { recursive: true });
  const file = join(dir, 'presumed-credit.json');
  const json = JSON.parse(readFileSync(file, 'utf8'));
  edit(json);
  writeFileSync(file, JSON.stringify(json));
  return dir;
}

describe('the shipped cCredPres table (cCredPres_2025_12_12Public.xlsx)', () => {
  const t = loadReformTables();

  it('holds the 13 codes with the sheet\'s indicators and starts', () => {
    expect(t.presumedCredits?.map((c) => c.code)).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13']);
    expect(t.revision).toContain('cCredPres 2025-12-12');
    // 05: art. 311, on the note, CBS only from 2027; 04: art. 171, deducted; 02: by event only; 03: IBS from 2029.
    expect(presumedCreditEntry(t.presumedCredits, '05')).toMatchObject({ legalReference: 'LC 214/2025 art. 311', viaDocument: true, deducts: false, ibsGroup: false, cbsGroup: true, ibs: null, cbs: { from: '2027-01-01' } });
    expect(presumedCreditEntry(t.presumedCredits, '04')).toMatchObject({ deducts: true, ibsGroup: true, cbsGroup: true });
    expect(presumedCreditEntry(t.presumedCredits, '02')).toMatchObject({ viaDocument: false, viaEvent: true });
    const recycling = presumedCreditEntry(t.presumedCredits, '03')!;
    expect(presumedCreditInForce(recycling, 'cbs', '2027-01-01')).toBe(true);
    expect(presumedCreditInForce(recycling, 'ibs', '2028-12-31')).toBe(false);
    expect(presumedCreditInForce(recycling, 'ibs', '2029-01-01')).toBe(true);
    expect(presumedCreditEntry(t.presumedCredits, '5')).toBeUndefined();
  });

  it('a bad row stops the load naming the file and the row', () => {
    expect(() => loadReformTables(withCredits((j) => void (j.codes[0]!.code = '1')))).toThrow('presumed-credit.json codes[0] (1): code "1" must match');
    expect(() => loadReformTables(withCredits((j) => void (j.codes[4]!.cbsFrom = null)))).toThrow('codes[4] (05): ind_gCBSCredPres 1 needs cbsFrom');
    expect(() => loadReformTables(withCredits((j) => void (j.codes[1]!.code = '01')))).toThrow('code 01 appears twice');
    expect(() => loadReformTables(withCredits((j) => void (j.codes[2]!.ind_gIBS = 1)))).toThrow('unknown field(s) ind_gIBS');
  });
});
