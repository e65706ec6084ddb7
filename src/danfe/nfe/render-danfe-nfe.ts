// DANFE NF-e (model 55) as an A4 portrait PDF, from the authorised nfeProc. Layout after the MOC's
// DANFE (Anexo II is not among our sources; the well-known layout is followed): canhoto, header
// (issuer, DANFE, key as Code-128C, protocol), destinatário, fatura, imposto, transporte, products
// with continuation sheets that repeat the header, dados adicionais.
import PDFDocument from 'pdfkit';
import { pdfBytes } from '../pdf-bytes.js';
import { legibleInk } from '../danfe-theme.js';
import { logoDrawer, type ImageDoc } from '../pdf-logo.js';
import { MM } from '../qr-symbol.js';
import { danfeNfeInputFromXml, type DanfeNfeExtras } from './danfe-nfe-from-xml.js';
import type { DanfeNfeInput } from './danfe-nfe-input.js';
import { drawAdditional, drawMarkings, measureAdditional, overflowLines } from './nfe-additional.js';
import { billingBlock, duplicatesOverflow, issqnBlock, issqnHeight, recipientBlock, taxesBlock, transportBlock } from './nfe-blocks.js';
import { drawHeader, drawStub, type SheetLabel } from './nfe-header.js';
import { drawItemRow, drawTableFrame, drawTableHead, ITEM_LINE, ITEM_SIZE, measureItem, TABLE_HEAD, type ItemRow } from './nfe-items.js';
import { CONTENT_WIDTH, MARGIN, PAGE, SECTION_HEIGHT, Sheet } from './nfe-sheet.js';

export type DanfeNfeOptions = DanfeNfeExtras;

type Flow = { kind: 'item'; row: ItemRow; height: number } | { kind: 'info'; text: string; height: number };

const GAP = 1 * MM;
/** Room the first page keeps for products below the table head. */
const PAGE1_PRODUCTS = 25 * MM;

class Pager {
  private next = 0;
  constructor(
    private readonly sheet: Sheet,
    private readonly flow: Flow[],
  ) {}

  get done(): boolean {
    return this.next >= this.flow.length;
  }

  /** Draws rows from `y` while they fit above `bottom`; the table frame runs to `bottom` when `fill`. */
  fill(y: number, bottom: number, first: boolean): void {
    const { sheet, flow } = this;
    let inTable = false;
    let tableTop = 0;
    let placed = 0;
    if (first || flow[this.next]?.kind === 'item') {
      if (!first) y = sheet.section(y, 'DADOS DOS PRODUTOS / SERVIÇOS');
      y = drawTableHead(sheet, y);
      inTable = true;
      tableTop = y;
    }
    while (this.next < flow.length) {
      const r = flow[this.next]!;
      const opening = r.kind === 'info' && (inTable || placed === 0) ? SECTION_HEIGHT + GAP : 0;
      // A row never fits nowhere: a continuation sheet takes it whatever its height (rows are bounded).
      if (y + opening + r.height > bottom && (placed > 0 || first)) break;
      if (opening) {
        if (inTable) drawTableFrame(sheet, tableTop, y);
        inTable = false;
        y = sheet.section(y + GAP, 'DADOS ADICIONAIS (CONTINUAÇÃO)');
      }
      if (r.kind === 'item') drawItemRow(sheet, r.row, y, flow[this.next + 1]?.kind !== 'item');
      else sheet.text(r.text, MARGIN.x + 1.5, y, { size: ITEM_SIZE, width: CONTENT_WIDTH - 3 });
      y += r.height;
      placed++;
      this.next++;
    }
    if (inTable) drawTableFrame(sheet, tableTop, this.done || flow[this.next]?.kind === 'item' ? bottom : y);
  }
}

/** The PDF of a DanfeNfeInput (see renderDanfeNfe for the XML entry). */
export async function renderDanfeNfeInput(input: DanfeNfeInput): Promise<Buffer> {
  const accent = input.settings?.primaryColor === undefined ? '#000000' : legibleInk(input.settings.primaryColor);
  const doc = new PDFDocument({
    autoFirstPage: false,
    bufferPages: true,
    margin: 0,
    info: { Title: `DANFE NF-e ${input.accessKey}`, Author: input.issuer.name, Creator: 'fiscal-gateway' },
  }) as ImageDoc;
  const done = pdfBytes(doc);
  const sheet = new Sheet(doc, accent);
  const logo = logoDrawer(doc, input.settings?.logo);
  const addPage = () => doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });

  const flow: Flow[] = input.items.map((item) => {
    const row = measureItem(sheet, item);
    return { kind: 'item', row, height: row.height };
  });
  const labels: SheetLabel[] = [];
  const pageBottom = PAGE.height - MARGIN.bottom;

  addPage();
  let y = drawStub(sheet, input, MARGIN.top);
  const header = drawHeader(sheet, input, y, logo);
  labels.push(header.label);
  y = recipientBlock(sheet, input, header.bottom);
  y = billingBlock(sheet, input, y);
  y = taxesBlock(sheet, input, y);
  y = transportBlock(sheet, input, y);
  y = sheet.section(y, 'DADOS DOS PRODUTOS / SERVIÇOS');
  // The first page keeps room for the table head and a few products; what does not fit continues.
  const additional = measureAdditional(sheet, input, pageBottom - y - TABLE_HEAD - PAGE1_PRODUCTS - issqnHeight(input));
  const dups = duplicatesOverflow(input);
  const overflow = [...overflowLines(additional), ...(dups ? sheet.wrap(dups, CONTENT_WIDTH - 3, 'Helvetica', ITEM_SIZE) : [])];
  for (const text of overflow) flow.push({ kind: 'info', text, height: ITEM_LINE });
  const pager = new Pager(sheet, flow);
  const additionalTop = pageBottom - additional.height;
  const issqnTop = additionalTop - issqnHeight(input);
  pager.fill(y, issqnTop - GAP, true);
  issqnBlock(sheet, input, issqnTop);
  drawAdditional(sheet, additional, additionalTop);
  while (!pager.done) {
    addPage();
    const h = drawHeader(sheet, input, MARGIN.top, logo);
    labels.push(h.label);
    pager.fill(h.bottom + GAP, pageBottom, false);
  }
  labels.forEach((label, i) => {
    doc.switchToPage(i);
    sheet.text(`FOLHA ${i + 1}/${labels.length}`, label.x, label.y, { font: 'Helvetica-Bold', size: 8.5, width: label.width, align: 'center' });
    // Last: poppler reads horizontal text drawn after a rotated block as diagonal too.
    drawMarkings(sheet, input);
  });
  doc.end();
  return done;
}

/** The DANFE NF-e of an authorised nfeProc (model 55), A4 portrait. Synchronous work: see the pool. */
export async function renderDanfeNfe(nfeProcXml: string, options: DanfeNfeOptions = {}): Promise<Buffer> {
  return renderDanfeNfeInput(danfeNfeInputFromXml(nfeProcXml, options));
}
