// Division III: the sale items. 80 mm: one row per item (Código | Descrição | Qtde | UN | Vl Unit |
// Vl Total, description wrapping). 58 mm: code and description on one line, the numbers below.
import { formatDecimal, formatMoney, toCents } from './br-format.js';
import type { DanfeContext } from './danfe-context.js';
import type { DanfeItem } from './danfe-input.js';
import type { Cell, TextStyle } from './receipt-layout.js';

const GUTTER = 3;

interface Columns {
  code: number;
  description: number;
  quantity: number;
  unit: number;
  unitPrice: number;
  total: number;
}

// Fractions of the printable width (sped-da uses about the same split on 80 mm).
function wideColumns(width: number): Columns {
  const usable = width - 5 * GUTTER;
  const code = usable * 0.16, quantity = usable * 0.09, unit = usable * 0.07, unitPrice = usable * 0.14, total = usable * 0.15;
  return { code, quantity, unit, unitPrice, total, description: usable - code - quantity - unit - unitPrice - total };
}

function itemValues(item: DanfeItem) {
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
  const c = wideColumns(layout.width);
  const cells = (v: Record<keyof Columns, string>): Cell[] => [
    { text: v.code, width: c.code },
    { text: v.description, width: c.description },
    { text: v.quantity, width: c.quantity, align: 'right' },
    { text: v.unit, width: c.unit, align: 'center' },
    { text: v.unitPrice, width: c.unitPrice, align: 'right' },
    { text: v.total, width: c.total, align: 'right' },
  ];
  layout.row(cells({ code: 'Código', description: 'Descrição', quantity: 'Qtde', unit: 'UN', unitPrice: 'Vl Unit', total: 'Vl Total' }), heading, GUTTER);
  for (const item of input.items) {
    layout.row(cells(itemValues(item)), style, GUTTER);
    adjustments(ctx, item, style);
  }
}

function narrowRows(ctx: DanfeContext, style: TextStyle, heading: TextStyle): void {
  const { layout, input } = ctx;
  const code = layout.width * 0.3;
  const first = (a: string, b: string): Cell[] => [{ text: a, width: code }, { text: b, width: layout.width - code - GUTTER }];
  const quarter = (layout.width - 3 * GUTTER) / 4;
  const second = (q: string, u: string, p: string, t: string): Cell[] => [
    { text: q, width: quarter, align: 'right' },
    { text: u, width: quarter, align: 'center' },
    { text: p, width: quarter, align: 'right' },
    { text: t, width: quarter, align: 'right' },
  ];
  layout.row(first('Código', 'Descrição'), heading, GUTTER).row(second('Qtde', 'UN', 'Vl Unit', 'Vl Total'), heading, GUTTER);
  for (const item of input.items) {
    const v = itemValues(item);
    layout.row(first(v.code, v.description), style, GUTTER).row(second(v.quantity, v.unit, v.unitPrice, v.total), style, GUTTER);
    adjustments(ctx, item, style);
  }
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
