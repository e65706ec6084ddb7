// "DADOS DOS PRODUTOS / SERVIÇOS": the item table. Rows are measured first (the description wraps,
// infAdProd goes under it) so pages can be planned before anything is drawn.
import { formatDecimal, formatMoney } from '../br-format.js';
import { MM } from '../qr-symbol.js';
import type { DanfeNfeItem } from './danfe-nfe-input.js';
import { MARGIN, type Align, type Sheet } from './nfe-sheet.js';

export const ITEM_SIZE = 6;
export const ITEM_LINE = 7;
const ROW_PAD = 1.6;
export const TABLE_HEAD = 6 * MM;

interface Column {
  label: [string, string?];
  mm: number;
  align: Align;
  value: (item: DanfeNfeItem) => string;
}

const money = (v: string | undefined) => (v === undefined ? '' : formatMoney(v));
const rate = (v: string | undefined) => (v === undefined ? '' : formatDecimal(v, 2));

export const COLUMNS: Column[] = [
  { label: ['CÓDIGO', 'PRODUTO'], mm: 16, align: 'left', value: (i) => i.code },
  { label: ['DESCRIÇÃO DO PRODUTO / SERVIÇO'], mm: 45, align: 'left', value: () => '' },
  { label: ['NCM/SH'], mm: 13, align: 'center', value: (i) => i.ncm },
  { label: ['CST/', 'CSOSN'], mm: 9, align: 'center', value: (i) => i.cst },
  { label: ['CFOP'], mm: 8, align: 'center', value: (i) => i.cfop },
  { label: ['UN'], mm: 8, align: 'center', value: (i) => i.unit },
  { label: ['QUANT.'], mm: 14, align: 'right', value: (i) => formatDecimal(i.quantity, 2) },
  { label: ['VALOR', 'UNIT.'], mm: 15, align: 'right', value: (i) => formatDecimal(i.unitPrice, 2) },
  { label: ['VALOR', 'TOTAL'], mm: 15, align: 'right', value: (i) => money(i.total) },
  { label: ['B. CÁLC.', 'ICMS'], mm: 14, align: 'right', value: (i) => money(i.icmsBase) },
  { label: ['VALOR', 'ICMS'], mm: 12, align: 'right', value: (i) => money(i.icmsValue) },
  { label: ['VALOR', 'IPI'], mm: 11, align: 'right', value: (i) => money(i.ipiValue) },
  { label: ['ALÍQ.', 'ICMS'], mm: 8, align: 'right', value: (i) => rate(i.icmsRate) },
  { label: ['ALÍQ.', 'IPI'], mm: 8, align: 'right', value: (i) => rate(i.ipiRate) },
];
const DESCRIPTION = 1;
const CELL_PAD = 1.2;

function columnX(index: number): number {
  let x = MARGIN.x;
  for (let i = 0; i < index; i++) x += COLUMNS[i]!.mm * MM;
  return x;
}

export interface ItemRow {
  item: DanfeNfeItem;
  /** Description lines, then infAdProd lines (in italics). */
  lines: Array<{ text: string; extra: boolean }>;
  height: number;
}

export function measureItem(sheet: Sheet, item: DanfeNfeItem): ItemRow {
  const width = COLUMNS[DESCRIPTION]!.mm * MM - 2 * CELL_PAD;
  const lines = sheet.wrap(item.description, width, 'Helvetica', ITEM_SIZE).map((text) => ({ text, extra: false }));
  if (item.extra) lines.push(...sheet.wrap(item.extra, width, 'Helvetica-Oblique', ITEM_SIZE - 0.5).map((text) => ({ text, extra: true })));
  return { item, lines, height: Math.max(1, lines.length) * ITEM_LINE + 2 * ROW_PAD };
}

export function drawTableHead(sheet: Sheet, y: number): number {
  COLUMNS.forEach((c, i) => {
    const x = columnX(i);
    const w = c.mm * MM;
    sheet.box(x, y, w, TABLE_HEAD);
    const [first, second] = c.label;
    const o = { size: 5, width: w - 1, align: 'center' as const };
    if (second) {
      sheet.text(first, x + 0.5, y + 3, o);
      sheet.text(second, x + 0.5, y + 9, o);
    } else sheet.text(first, x + 0.5, y + 6, o);
  });
  return y + TABLE_HEAD;
}

export function drawItemRow(sheet: Sheet, row: ItemRow, y: number, last: boolean): void {
  const top = y + ROW_PAD;
  COLUMNS.forEach((c, i) => {
    const x = columnX(i) + CELL_PAD;
    const w = c.mm * MM - 2 * CELL_PAD;
    if (i !== DESCRIPTION) {
      sheet.text(c.value(row.item), x, top, { size: ITEM_SIZE, width: w, align: c.align });
      return;
    }
    row.lines.forEach((line, n) => {
      sheet.text(line.text, x, top + n * ITEM_LINE, { size: line.extra ? ITEM_SIZE - 0.5 : ITEM_SIZE, font: line.extra ? 'Helvetica-Oblique' : 'Helvetica', width: w });
    });
  });
  if (!last) {
    const x0 = MARGIN.x;
    const x1 = columnX(COLUMNS.length);
    sheet.doc.lineWidth(0.3).strokeColor('#b0b0b0').moveTo(x0, y + row.height).lineTo(x1, y + row.height).stroke();
  }
}

/** Column rules and the frame around rows drawn from `top` to `bottom`. */
export function drawTableFrame(sheet: Sheet, top: number, bottom: number): void {
  const doc = sheet.doc;
  doc.lineWidth(0.5).strokeColor('#000000');
  for (let i = 1; i < COLUMNS.length; i++) {
    const x = columnX(i);
    doc.moveTo(x, top).lineTo(x, bottom);
  }
  doc.stroke();
  sheet.box(MARGIN.x, top, columnX(COLUMNS.length) - MARGIN.x, bottom - top);
}
