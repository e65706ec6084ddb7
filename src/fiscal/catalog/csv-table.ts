import { readFileSync } from 'node:fs';

/**
 * Reads one of the IBGE tables shipped in assets/ (plain comma-separated, no quoted fields, optional
 * UTF-8 BOM, optional final newline) as records keyed by the header names.
 */
export function readCsvTable(path: string): Record<string, string>[] {
  const lines = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.length > 0);
  const header = (lines.shift() ?? '').split(',');
  return lines.map((line, i) => {
    const cells = line.split(',');
    if (cells.length !== header.length) throw new Error(`${path}:${i + 2}: expected ${header.length} fields, got ${cells.length}`);
    return Object.fromEntries(header.map((h, j) => [h, cells[j]!]));
  });
}
