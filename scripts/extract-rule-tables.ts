// Regenerates the rule tables the project ships (docs/fiscal/rule-table.md):
//   assets/fiscal/rules/moc-anexo-i.json   MOC 7.0 Anexo I (NF-e/NFC-e) + the later-NT entries of later-nt-rules.json
//   assets/fiscal/rules/nfse-anexo-i.json  NFS-e national Anexo I/II, from assets/fiscal/nfse-codes/nfse_error_codes.csv
// Usage: npx tsx scripts/extract-rule-tables.ts <MOC-7.0-Anexo-I.pdf | its pdftotext -layout text>
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMocRules } from './extract-rule-tables/moc-parser.js';
import { nfseEntries } from './extract-rule-tables/nfse-table.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'assets', 'fiscal', 'rules');
const input = process.argv[2];
if (!input) {
  console.error('usage: npx tsx scripts/extract-rule-tables.ts <MOC-7.0-Anexo-I-Leiaute-Regras-NFe-NFCe.pdf | moc.txt>');
  process.exit(2);
}
const text = input.endsWith('.pdf') ? execFileSync('pdftotext', ['-layout', input, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }) : readFileSync(input, 'utf8');

/** One entry a line: readable diffs when a rule changes. */
const write = (file: string, head: Record<string, unknown>, rules: unknown[]) => {
  const body = JSON.stringify(head, null, 2).replace(/\n}$/, `,\n  "rules": [\n${rules.map((r) => '    ' + JSON.stringify(r)).join(',\n')}\n  ]\n}\n`);
  writeFileSync(join(out, file), body);
  console.log(`${file}: ${rules.length} entries`);
};

mkdirSync(out, { recursive: true });
const later = JSON.parse(readFileSync(join(root, 'scripts', 'extract-rule-tables', 'later-nt-rules.json'), 'utf8')) as { rules: Array<{ id: string; cStat: number }> };
// A later-NT entry with the id and cStat of a MOC row is that row as the NT amended it: it takes the row's place.
const rowKey = (r: { id: string; cStat: number }) => `${r.id}/${r.cStat}`;
const amended = new Map(later.rules.map((r) => [rowKey(r), r]));
const parsed = parseMocRules(text);
const moc = parsed.map((r) => amended.get(rowKey(r)) ?? r);
const mocKeys = new Set(parsed.map(rowKey));
write(
  'moc-anexo-i.json',
  {
    title: 'MOC 7.0 Anexo I - Leiaute e Regras de Validação da NF-e e da NFC-e: rules of sections 4.1, 4.2.1 and 4.3',
    source: 'MOC-7.0-Anexo-I-Leiaute-Regras-NFe-NFCe.pdf (ENCAT, version 7.03, PDF of 2020-11-04, 153 pages)',
    generatedBy: 'scripts/extract-rule-tables.ts (pdftotext -layout, then scripts/extract-rule-tables/moc-parser.ts)',
    doc: 'docs/fiscal/rule-table.md',
  },
  [...moc, ...later.rules.filter((r) => !mocKeys.has(rowKey(r)))],
);
write(
  'nfse-anexo-i.json',
  {
    title: 'Sistema Nacional NFS-e: Anexo I (DPS/NFS-e) and Anexo II (events) rejection rules',
    source: 'assets/fiscal/nfse-codes/nfse_error_codes.csv (official workbooks v1.00-20251226 + v1.01-20260209 rows)',
    generatedBy: 'scripts/extract-rule-tables.ts (scripts/extract-rule-tables/nfse-table.ts)',
    doc: 'docs/fiscal/rule-table.md',
  },
  nfseEntries(readFileSync(join(root, 'assets', 'fiscal', 'nfse-codes', 'nfse_error_codes.csv'), 'utf8')),
);
