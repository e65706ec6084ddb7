// Regenerates src/fiscal/layout/ncm-table.ts from a copy of the Siscomex "Tabela NCM vigente" JSON
// (docs/fiscal/ncm.md says where it is published and which copy the project used).
//   npx tsx scripts/generate-ncm-table.ts /path/to/ncm.json
// Keeps the 8-digit codes, one string per chapter, and the codes that start after NCM 2022 by date.
import { readFileSync, writeFileSync } from 'node:fs';

interface Entry { Codigo: string; Data_Inicio: string; Data_Fim: string }
interface Table { Data_Ultima_Atualizacao_NCM: string; Ato: string; Nomenclaturas: Entry[] }

const DEFAULT_START = '2022-04-01';
const DEFAULT_END = '9999-12-31';
const iso = (br: string): string => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(br);
  if (!m) throw new Error(`not a dd/mm/yyyy date: ${br}`);
  return `${m[3]}-${m[2]}-${m[1]}`;
};

const path = process.argv[2];
if (!path) throw new Error('usage: tsx scripts/generate-ncm-table.ts <ncm.json>');
const table = JSON.parse(readFileSync(path, 'utf8')) as Table;
const vigente = /Vigente em (\d{2}\/\d{2}\/\d{4})/.exec(table.Data_Ultima_Atualizacao_NCM);
if (!vigente) throw new Error(`unexpected header: ${table.Data_Ultima_Atualizacao_NCM}`);

const codes = table.Nomenclaturas
  .map((e) => ({ code: e.Codigo.replace(/\./g, ''), start: iso(e.Data_Inicio), end: iso(e.Data_Fim) }))
  .filter((e) => e.code.length === 8);
for (const e of codes) {
  // The module keeps one end date for every code: a table in force that lists ended codes needs a new format.
  if (e.end !== DEFAULT_END) throw new Error(`${e.code} ends on ${e.end}: the format assumes ${DEFAULT_END}`);
  if (!/^\d{8}$/.test(e.code)) throw new Error(`not an 8-digit code: ${e.code}`);
}

// chapter -> heading -> last 4 digits, in the table's order
const chapters = new Map<string, Map<string, string[]>>();
for (const { code } of codes) {
  const headings = chapters.get(code.slice(0, 2)) ?? new Map<string, string[]>();
  chapters.set(code.slice(0, 2), headings);
  const items = headings.get(code.slice(2, 4)) ?? [];
  headings.set(code.slice(2, 4), items);
  items.push(code.slice(4));
}
const later = new Map<string, string[]>();
for (const e of codes) if (e.start !== DEFAULT_START) later.set(e.start, [...(later.get(e.start) ?? []), e.code]);

const lines = [...chapters].map(([ch, hs]) => `  '${ch} ${[...hs].map(([h, items]) => h + items.join('')).join(' ')}',`);
const starts = [...later].sort(([a], [b]) => a.localeCompare(b)).map(([d, cs]) => `  '${d}': '${cs.join(' ')}',`);

writeFileSync('src/fiscal/layout/ncm-table.ts', `// Generated from the Siscomex "Tabela NCM vigente" (Data_Ultima_Atualizacao_NCM: "${table.Data_Ultima_Atualizacao_NCM}",
// Ato: ${table.Ato}); source, date and format in docs/fiscal/ncm.md. Do not edit by hand:
// scripts/generate-ncm-table.ts writes it.

/** The table's own date: what it says is true on this day (docs/fiscal/ncm.md). */
export const NCM_TABLE_DATE = '${iso(vigente[1]!)}';
/** Data_Inicio of every code not listed in NCM_LATER_STARTS (NCM 2022, Resolução Camex 272/2021). */
export const NCM_DEFAULT_START = '${DEFAULT_START}';
/** Every code's Data_Fim in this table (the current table holds no code that ended). */
export const NCM_DEFAULT_END = '${DEFAULT_END}';

/**
 * One string per chapter: the 2-digit chapter, a space, then per heading (space-separated) the
 * heading's 2 digits followed by the last 4 digits of each 8-digit code, in the table's order.
 */
export const NCM_CHAPTERS: readonly string[] = [
${lines.join('\n')}
];

/** Codes whose Data_Inicio is after NCM_DEFAULT_START, by that date. */
export const NCM_LATER_STARTS: Readonly<Record<string, string>> = {
${starts.join('\n')}
};
`);
console.log(`${codes.length} eight-digit codes, ${later.size} later start dates, table of ${vigente[1]}`);
