// Parses the text `pdftotext -layout` makes of the MOC 7.0 Anexo I PDF into one entry per validation
// rule (sections 4.1 general rules, 4.2.1 authorization rules, 4.3 consumo indevido). The table's
// columns are found on each row's own line (the Aplic./Msg/Efeito cells), so the parser follows the
// small shifts of the columns from page to page. See docs/fiscal/rule-table.md.
import type { MocRule } from '../../src/fiscal/rules/rule-table.js';

/** The parser's entry is the project's rule type (src/fiscal/rules/rule-table.ts reads what it writes). */
export type MocRuleEntry = MocRule;

const FOOTER = /^\s*Página\s+(\d+)\s*\/\s*\d+\s*$/;
const RUNNING_HEAD = /^(Nota Fiscal Eletrônica|MOC 7\.0 – Anexo I, Leiaute e Regras de Validação da NF-e e da NFC-e)\s*$/;
const CELLS = /(Obrig|Facul)\.?\s+(\d{3})\s+(Rej|Den)[.,]?/;
const TABLE_HEAD = /Regra de Validação.*Descrição Erro/;
const GENERAL_ROW = /^(\s{0,8})([A-F]\d{2}[a-zA-Z]?|GAP\d+[a-z]?-\d+)(\s+)/;
const FIELD_ROW = /^(\s{0,6})(\d?[A-Z]{1,3}\d{2}[a-z]?\d*-\d+)(\s+)(55\/65|55|65)(\s+)/;
const CI_ROW = /^(\s{0,3})(55\/65|55|65)(\s+)/;
const SUBHEAD = /^\s{5,20}([A-Z0-9]{1,3}(?:\d{2})?)\.\s+(\S.*)$/;
const GENERAL_GROUP = /^4\.1\.\d\. Grupo ([A-Z]+): (.*)$/;
const CI_SECTION = /^4\.3\.(\d)\. (.*)$/;

interface Block {
  id: string;
  section: MocRuleEntry['section'];
  group: string;
  groupTitle: string;
  models: Array<55 | 65>;
  page: number;
  /** Lines of the row; the first one with its id/model cells blanked out. */
  lines: string[];
}

const modelsOf = (cell: string): Array<55 | 65> => (cell === '55/65' ? [55, 65] : [Number(cell) as 55 | 65]);

/** Joins wrapped pieces: a word cut after a hyphen ("NF-" + "e") closes up, the rest get one space. */
function joinPieces(pieces: string[]): string {
  let out = '';
  for (const raw of pieces) {
    const piece = raw.trim();
    if (!piece) continue;
    if (!out) out = piece;
    else if (/[A-Za-zÀ-ú]-$/.test(out) && /^[a-zà-ú]/.test(piece)) out += piece;
    else out += ' ' + piece;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** Segments of a line separated by 3+ spaces, with their start column. */
function segments(line: string): Array<{ at: number; text: string }> {
  const out: Array<{ at: number; text: string }> = [];
  const re = /\S+(?: {1,2}\S+)*/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push({ at: m.index, text: m[0] });
  return out;
}

function entryOf(b: Block, fieldNames: ReadonlyMap<string, string>): MocRuleEntry | null {
  const cellLine = b.lines.findIndex((l) => CELLS.test(l));
  if (cellLine < 0) return null;
  const m = CELLS.exec(b.lines[cellLine]!)!;
  const aplicAt = m.index;
  const condition: string[] = [];
  const message: string[] = [];
  b.lines.forEach((line, i) => {
    if (i === cellLine) {
      condition.push(line.slice(0, aplicAt));
      message.push(line.slice(aplicAt + m[0].length));
      return;
    }
    for (const s of segments(line)) (s.at >= aplicAt - 1 ? message : condition).push(s.text);
  });
  // Two artifacts of the PDF's own text: a search-and-replace left "Obrig.atório" for "Obrigatório",
  // and one message cell starts with a stray "R " (I17b-10).
  const tidy = (t: string) => t.replace(/Obrig\.at/g, 'Obrigat').replace(/^R (Rejeição)/, '$1');
  const text = tidy(joinPieces(condition));
  const cut = text.search(/\s(Observação|Observacao|Exceção|Excecao|Nota:|Obs\.:)/);
  const fieldId = b.section === '4.2.1' ? fieldIdOf(b.id, b.group, fieldNames) : null;
  const nt = [...new Set([...text.matchAll(/NT\s?(\d{4}[./]\d{3})/g)].map((x) => `NT ${x[1]!.replace('/', '.')}`))];
  return {
    id: b.id,
    section: b.section,
    group: b.group,
    groupTitle: b.groupTitle,
    fieldId,
    field: fieldId ? (fieldNames.get(fieldId) ?? null) : null,
    models: b.models,
    condition: cut > 0 ? text.slice(0, cut).trim() : text,
    notes: cut > 0 ? text.slice(cut).trim() : '',
    cStat: Number(m[2]),
    message: tidy(joinPieces(message)),
    obligation: m[1] === 'Obrig' ? 'mandatory' : 'optional',
    effect: m[3] === 'Den' ? 'denial' : 'rejection',
    nt,
    page: b.page,
    source: 'MOC 7.0 Anexo I',
  };
}

/**
 * The layout field a rule id names: `ZD01-10` -> ZD01. Database rules carry their group's number in
 * front (`1C17-10` -> C17, `3BA02-10` -> BA02), group 2A its letter too (`2AB08-10` -> B08).
 */
function fieldIdOf(id: string, group: string, fieldNames: ReadonlyMap<string, string>): string {
  let f = id.slice(0, id.indexOf('-'));
  if (/^\d/.test(group)) {
    f = f.slice(1);
    const letter = group.slice(1);
    if (letter && f.startsWith(letter) && !fieldNames.has(f)) f = f.slice(letter.length);
  }
  return f;
}

/** Field id (B03, ZD01) -> tag name (cNF, infRespTec), from the layout table of section 2. */
export function layoutFieldNames(lines: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  const row = /^\s*\d+[a-z]*(?:\.\d+)?[a-z]*\s+([A-Z]{1,2}\d{2}[a-z]?\d*(?:\.\d+)?)\s+(\S+)\s{2,}/;
  for (const line of lines) {
    const m = row.exec(line);
    if (m && !names.has(m[1]!) && m[2] !== '-x-') names.set(m[1]!, m[2]!);
  }
  return names;
}

export function parseMocRules(text: string): MocRuleEntry[] {
  const lines = text.split('\n');
  // The body (not the table of contents) of section 4: from its heading without dot leaders to 4.4.
  const start = lines.findIndex((l) => /^4\. Regras de Validação dos Webservices\s*$/.test(l));
  const end = lines.findIndex((l, i) => i > start && /^4\.4\. Lista das Regras de Validação\s*$/.test(l));
  if (start < 0 || end < 0) throw new Error('section 4 of the MOC not found: is this the pdftotext -layout text of Anexo I?');
  const fieldNames = layoutFieldNames(lines.slice(0, start));
  const pageAt = (i: number) => {
    for (let j = i; j < lines.length; j++) {
      const f = FOOTER.exec(lines[j]!);
      if (f) return Number(f[1]);
    }
    return 0;
  };
  const entries: MocRuleEntry[] = [];
  let section: MocRuleEntry['section'] = '4.1';
  let group = '';
  let groupTitle = '';
  let block: Block | null = null;
  const close = () => {
    if (block) {
      const e = entryOf(block, fieldNames);
      if (e) entries.push(e);
    }
    block = null;
  };
  for (let i = start + 1; i < end; i++) {
    const line = lines[i]!.replace(/^\f/, '').replace(/\s+$/, '');
    if (FOOTER.test(line) || RUNNING_HEAD.test(line) || TABLE_HEAD.test(line) || /^\s*Modelo\s+Regra de Validação/.test(line)) continue;
    let m: RegExpExecArray | null;
    if (/^4\.2\.1\. /.test(line)) {
      close();
      section = '4.2.1';
      continue;
    }
    if ((m = GENERAL_GROUP.exec(line))) {
      close();
      [group, groupTitle] = [m[1]!, m[2]!.trim()];
      continue;
    }
    if ((m = CI_SECTION.exec(line))) {
      close();
      section = '4.3';
      [group, groupTitle] = [`4.3.${m[1]}`, `Consumo indevido: ${m[2]!.trim()}`];
      continue;
    }
    if (!(section === '4.3' && CI_ROW.test(line)) && (m = SUBHEAD.exec(line)) && !CELLS.test(line) && !FIELD_ROW.test(line)) {
      close();
      [group, groupTitle] = [m[1]!, m[2]!.trim()];
      continue;
    }
    const row = section === '4.1' ? GENERAL_ROW.exec(line) : section === '4.2.1' ? FIELD_ROW.exec(line) : CI_ROW.exec(line);
    if (row) {
      close();
      const blanked = ' '.repeat(row[0].length) + line.slice(row[0].length);
      const id = section === '4.3' ? group : row[2]!;
      const models = section === '4.1' ? modelsOf('55/65') : modelsOf(section === '4.3' ? row[2]! : row[4]!);
      block = { id, section, group, groupTitle, models, page: pageAt(i), lines: [blanked] };
      continue;
    }
    // Prose or a footnote at the left margin ends the row; indented lines continue it.
    if (/^\S/.test(line)) {
      close();
      continue;
    }
    if (block && line.trim()) (block as Block).lines.push(line);
  }
  close();
  return entries;
}
