// Division III: the sale items. 80 mm: one row per item (Código | Descrição | Qtde | UN | Vl Unit |
// Vl Total, description wrapping). 58 mm: code and description on one line, the numbers below.
import { formatDecimal, formatMoney, toCents } from './br-format.js';
import type { DanfeContext } from './danfe-context.js';
import type { DanfeItem } from './danfe-input.js';
import type { Cell, TextStyle } from './receipt-layout.js';

const GUTTER = 3;

type Column = 'code' | 'description' | 'quantity' | 'unit' | 'unitPrice' | 'total';
type Values = Record<Column, string>;
type Columns = Record<Column, number>;

const HEADINGS: Values = { code: 'Código', description: 'Descrição', quantity: 'Qtde', unit: 'UN', unitPrice: 'Vl Unit', total: 'Vl Total' };

/** Width of the widest value of a column, its heading included, plus a hair of air. */
function widest(ctx: DanfeContext, rows: Values[], col: Column, style: TextStyle, heading: TextStyle): number {
  const { layout } = ctx;
  return Math.max(layout.textWidth(HEADINGS[col], heading), ...rows.map((r) => layout.textWidth(r[col], style))) + 1.5;
}

/**
 * Columns as wide as their widest value, so numbers and GTIN codes never break; the description
 * takes the rest and wraps. Long internal codes (cProd has up to 60 characters) wrap beyond 30 %.
 */
function fittedColumns(ctx: DanfeContext, rows: Values[], style: TextStyle, heading: TextStyle): Columns {
  const { layout } = ctx;
  const usable = layout.width - 5 * GUTTER;
  const fit = (col: Column) => widest(ctx, rows, col, style, heading);
  const fixed = { quantity: fit('quantity'), unit: fit('unit'), unitPrice: fit('unitPrice'), total: fit('total') };
  const numbers = fixed.quantity + fixed.unit + fixed.unitPrice + fixed.total;
  const code = Math.min(fit('code'), usable * 0.3, Math.max(usable - numbers - usable * 0.25, usable * 0.12));
  return { ...fixed, code, description: usable - numbers - code };
}

function itemValues(item: DanfeItem): Values {
  return {
    code: item.code,
    description: item.description,
    quantity: formatDecimal(item.quantity, 0),
    unit: item.unit,
    unitPrice: formatDecimal(item.unitPrice, 2),
    total: formatMoney(item.total),
  };
}

function wideRows(ctx: DanfeContext, style: TextStyle, heading: TextStyle): void {
  const { layout, input } = ctx;
  const rows = input.items.map(itemValues);
  const c = fittedColumns(ctx, rows, style, heading);
  const cells = (v: Values): Cell[] => [
    { text: v.code, width: c.code },
    { text: v.description, width: c.description },
    { text: v.quantity, width: c.quantity, align: 'right' },
    { text: v.unit, width: c.unit, align: 'center' },
    { text: v.unitPrice, width: c.unitPrice, align: 'right' },
    { text: v.total, width: c.total, align: 'right' },
  ];
  layout.row(cells(HEADINGS), heading, GUTTER);
  rows.forEach((values, i) => {
    layout.row(cells(values), style, GUTTER);
    adjustments(ctx, input.items[i]!, style);
  });
}

function narrowRows(ctx: DanfeContext, style: TextStyle, heading: TextStyle): void {
  const { layout, input } = ctx;
  const rows = input.items.map(itemValues);
  const code = Math.min(widest(ctx, rows, 'code', style, heading), layout.width * 0.4);
  const first = (v: Values): Cell[] => [{ text: v.code, width: code }, { text: v.description, width: layout.width - code - GUTTER }];
  // Second line in the usual till-slip form: "2 UN x 2,36" then the item total flush right.
  const total = widest(ctx, rows, 'total', style, heading);
  const second = (v: Values): Cell[] => [
    { text: `${v.quantity} ${v.unit} x ${v.unitPrice}`, width: layout.width - total - GUTTER, align: 'right' },
    { text: v.total, width: total, align: 'right' },
  ];
  layout.row(first(HEADINGS), heading, GUTTER).row(second(HEADINGS), heading, GUTTER);
  rows.forEach((values, i) => {
    layout.row(first(values), style, GUTTER).row(second(values), style, GUTTER);
    adjustments(ctx, input.items[i]!, style);
  });
}

/** Item-level discount / additions, under the item they change. */
function adjustments(ctx: DanfeContext, item: DanfeItem, style: TextStyle): void {
  const small = { ...style, size: ctx.theme.size.small };
  if (item.discount && toCents(item.discount) > 0) ctx.layout.pair('  Desconto no item', `-${formatMoney(item.discount)}`, small);
  if (item.additions && toCents(item.additions) > 0) ctx.layout.pair('  Acréscimo no item', formatMoney(item.additions), small);
}

export function itemsDivision(ctx: DanfeContext): void {
  const { theme } = ctx;
  const style: TextStyle = { size: theme.size.items };
  const heading: TextStyle = { size: theme.size.items, font: 'Helvetica-Bold', color: theme.accent };
  ctx.layout.rule(theme.rule);
  if (theme.roll === 80) wideRows(ctx, style, heading);
  else narrowRows(ctx, style, heading);
}
