// DANFE NFC-e as a PDF: one page as long as the receipt (Manual DANFE NFC-e divisions I-IX).
import PDFDocument from 'pdfkit';
import { pdfBytes } from './pdf-bytes.js';
import { CONTINGENCY_COPY_LABELS, type DanfeContext } from './danfe-context.js';
import { footerDivisions } from './danfe-footer.js';
import { headerDivisions } from './danfe-header.js';
import { assertPrintable, DanfeInputError, type DanfeInput } from './danfe-input.js';
import { itemsDivision } from './danfe-items.js';
import { checkLogo, openImage, type ImageDoc, type OpenedImage } from './pdf-logo.js';
import { danfeTheme, type RollWidth } from './danfe-theme.js';
import { totalsDivision } from './danfe-totals.js';
import { MM } from './qr-symbol.js';
import { ReceiptLayout, type DrawOp, type FontName } from './receipt-layout.js';

export interface DanfeRenderOptions {
  /** Roll width in mm: 80 (default) or 58. */
  width?: RollWidth;
}

const TOP_MM = 3;
// Blank paper after the last line so the tear bar does not cut the footer.
const BOTTOM_MM = 8;

function draw(doc: ImageDoc, ops: DrawOp[], images: Map<Buffer, OpenedImage>): void {
  let font: FontName | undefined;
  let size = 0;
  for (const op of ops) {
    switch (op.kind) {
      case 'text':
        if (op.font !== font) doc.font((font = op.font));
        if (op.size !== size) doc.fontSize((size = op.size));
        doc.fillColor(op.color).text(op.text, op.x, op.y, { lineBreak: false });
        break;
      case 'rule':
        doc.lineWidth(0.5).strokeColor(op.color);
        if (op.dashed) doc.dash(1.5, { space: 1.5 });
        doc.moveTo(op.x, op.y).lineTo(op.x + op.width, op.y).stroke();
        if (op.dashed) doc.undash();
        break;
      case 'frame':
        doc.lineWidth(0.8).strokeColor(op.color).rect(op.x, op.y, op.width, op.height).stroke();
        break;
      case 'image':
        doc.image(images.get(op.data) ?? openImage(doc, op.data), op.x, op.y, { width: op.width, height: op.height });
        break;
      case 'qr': {
        // All modules in one path and one fill: no anti-aliasing seams between adjacent squares.
        const m = op.module;
        for (const [row, col, len] of op.symbol.runs) doc.rect(op.x + col * m, op.y + row * m, len * m, m);
        doc.fillColor('#000000').fill();
        break;
      }
    }
  }
}

export async function renderDanfeNfce(input: DanfeInput, options: DanfeRenderOptions = {}): Promise<Buffer> {
  const roll = options.width ?? 80;
  if (roll !== 80 && roll !== 58) throw new DanfeInputError(`width must be 80 or 58 (mm), got ${String(roll)}`);
  if (!input.qrCode) throw new DanfeInputError('qrCode is missing: the DANFE NFC-e must carry the QR code');
  assertPrintable(input);
  const logo = input.settings?.logo;
  if (logo) checkLogo(logo);
  const theme = danfeTheme(roll, input.settings?.primaryColor);

  const doc = new PDFDocument({
    autoFirstPage: false,
    margin: 0,
    info: { Title: `DANFE NFC-e ${input.accessKey}`, Author: input.issuer.name, Creator: 'fiscal-gateway' },
  }) as ImageDoc;
  const images = new Map<Buffer, OpenedImage>();
  // docs/fiscal/offline-contingency.md: a contingency note not yet authorized prints two copies, the consumer's and the
  // establishment's (kept for the Fisco until authorization), one page each; the ESC/POS and HTML forms
  // print the same two (receipt-text.ts receiptCopies).
  const labels = input.tpEmis === 9 && !input.authorization ? CONTINGENCY_COPY_LABELS : [undefined];
  const done = pdfBytes(doc);
  for (const copyLabel of labels) {
    const layout = new ReceiptLayout(
      { width: (text, font, size) => doc.font(font).fontSize(size).widthOfString(text) },
      theme.margin,
      theme.contentWidth,
      TOP_MM * MM,
    );
    const ctx: DanfeContext = {
      input,
      theme,
      layout,
      ...(copyLabel ? { copyLabel } : {}),
      imageSize: (data) => {
        let image = images.get(data);
        if (!image) images.set(data, (image = openImage(doc, data)));
        return image;
      },
    };
    headerDivisions(ctx);
    itemsDivision(ctx);
    totalsDivision(ctx);
    footerDivisions(ctx);
    doc.addPage({ size: [theme.pageWidth, Math.ceil(layout.y + BOTTOM_MM * MM)], margin: 0 });
    draw(doc, layout.ops, images);
  }
  doc.end();
  return done;
}
