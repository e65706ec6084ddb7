// "DADOS ADICIONAIS" (informações complementares, reservado ao fisco) at the foot of the first page,
// and the markings drawn over every page: homologation (no fiscal value) and cancellation.
import { formatDateTime } from '../br-format.js';
import { MM } from '../qr-symbol.js';
import type { DanfeNfeInput } from './danfe-nfe-input.js';
import { ITEM_LINE, ITEM_SIZE } from './nfe-items.js';
import { CONTENT_WIDTH, MARGIN, PAGE, SECTION_HEIGHT, type Sheet } from './nfe-sheet.js';

const CPL_W = 130 * MM;
const FISCO_W = CONTENT_WIDTH - CPL_W;
const LABEL = 3 * MM;
const MIN_LINES = 4;
const MAX_LINES = 24;

const TP_EMIS: Record<number, string> = {
  2: 'FS-IA',
  3: 'SCAN',
  4: 'EPEC',
  5: 'FS-DA',
  6: 'SVC-AN',
  7: 'SVC-RS',
  9: 'OFF-LINE',
};

export interface AdditionalText {
  taxpayer: string[];
  fisco: string[];
  /** Lines the first page shows; the rest continue after the products. */
  shown: number;
  /** Height of the block on the first page, title included. */
  height: number;
}

function taxpayerText(input: DanfeNfeInput): string {
  const parts: string[] = [];
  if (input.tpEmis !== 1) {
    const c = input.contingency;
    const mode = TP_EMIS[input.tpEmis] ?? String(input.tpEmis);
    const since = c?.since ? ` desde ${formatDateTime(c.since)}` : '';
    parts.push(`EMITIDA EM CONTINGÊNCIA (${mode})${since}${c?.reason ? ` - ${c.reason}` : ''}`);
  }
  if (input.taxpayerMessage) parts.push(input.taxpayerMessage);
  return parts.join('\n');
}

/** `room`: the height the block may take on the first page; it shows at least MIN_LINES lines. */
export function measureAdditional(sheet: Sheet, input: DanfeNfeInput, room: number): AdditionalText {
  const taxpayer = sheet.wrap(taxpayerText(input), CPL_W - 3, 'Helvetica', ITEM_SIZE);
  const fisco = sheet.wrap(input.fiscoMessage ?? '', FISCO_W - 3, 'Helvetica', ITEM_SIZE);
  const fit = Math.floor((room - SECTION_HEIGHT - LABEL - 3) / ITEM_LINE);
  const shown = Math.max(MIN_LINES, Math.min(MAX_LINES, fit, Math.max(taxpayer.length, fisco.length)));
  return { taxpayer, fisco, shown, height: SECTION_HEIGHT + LABEL + shown * ITEM_LINE + 3 };
}

/** Lines beyond the first page's box, in reading order (taxpayer's, then the fisco's). */
export function overflowLines(a: AdditionalText): string[] {
  return [...a.taxpayer.slice(a.shown), ...a.fisco.slice(a.shown)];
}

export function drawAdditional(sheet: Sheet, a: AdditionalText, y: number): void {
  const top = sheet.section(y, 'DADOS ADICIONAIS');
  const h = a.height - SECTION_HEIGHT;
  sheet.field(MARGIN.x, top, CPL_W, h, 'Informações complementares', undefined);
  sheet.field(MARGIN.x + CPL_W, top, FISCO_W, h, 'Reservado ao fisco', undefined);
  a.taxpayer.slice(0, a.shown).forEach((line, i) => sheet.text(line, MARGIN.x + 1.5, top + LABEL + i * ITEM_LINE, { size: ITEM_SIZE }));
  a.fisco.slice(0, a.shown).forEach((line, i) => sheet.text(line, MARGIN.x + CPL_W + 1.5, top + LABEL + i * ITEM_LINE, { size: ITEM_SIZE }));
}

export function diagonal(sheet: Sheet, lines: Array<{ text: string; size: number }>, color: string, dy = 0): void {
  const { doc } = sheet;
  const cx = PAGE.width / 2;
  const cy = PAGE.height / 2 + dy;
  doc.save();
  doc.rotate(-40, { origin: [cx, cy] });
  doc.fillOpacity(0.22);
  let y = cy - lines.reduce((h, l) => h + l.size * 1.2, 0) / 2;
  for (const line of lines) {
    sheet.text(line.text, cx - 350, y, { font: 'Helvetica-Bold', size: line.size, width: 700, align: 'center', color });
    y += line.size * 1.2;
  }
  doc.restore();
}

/** Over every page: the homologation warning (tpAmb 2) and the cancellation (sped-da convention). */
export function drawMarkings(sheet: Sheet, input: DanfeNfeInput): void {
  if (input.tpAmb === 2) {
    diagonal(sheet, [{ text: 'SEM VALOR FISCAL', size: 60 }, { text: 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO', size: 20 }], '#808080', input.cancellation ? -110 : 0);
  }
  const c = input.cancellation;
  if (c) {
    const detail = [c.protocol ? `Protocolo de cancelamento: ${c.protocol}` : '', c.at ? formatDateTime(c.at) : ''].filter(Boolean).join(' - ');
    diagonal(sheet, [{ text: 'NF-e CANCELADA', size: 64 }, ...(detail ? [{ text: detail, size: 14 }] : [])], '#c00000', input.tpAmb === 2 ? 110 : 0);
  }
}
