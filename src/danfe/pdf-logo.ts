// The issuer logo as pdfkit may draw it, shared by the DANFE NFC-e and NF-e renderers.
import { DanfeInputError } from './danfe-input.js';
import { isJpeg, readJpegStructure } from './logo/jpeg-structure.js';
import { LogoRefusal } from './logo/logo-refusal.js';
import { isPng, readPngStructure } from './logo/png-structure.js';

type Doc = PDFKit.PDFDocument;
export interface OpenedImage {
  width: number;
  height: number;
}
// pdfkit opens an image once and draws the opened object; its typings omit openImage.
export type ImageDoc = Doc & { openImage(src: Buffer): OpenedImage; image(src: OpenedImage, x: number, y: number, o: object): Doc };

/**
 * Pdfkit decodes a PNG with an alpha channel, a palette with transparency or interlacing
 * in an asynchronous zlib callback, where a damaged image throws past every promise and ends the
 * process. Only the normal form (normalize-logo.ts) reaches it: an 8-bit greyscale/RGB PNG without
 * interlacing, whose data pdfkit copies without decoding, or a JPEG, whose data it copies as well;
 * both within the logo size limits, checked from their headers.
 */
export function checkLogo(logo: Buffer): void {
  try {
    if (isPng(logo)) {
      const png = readPngStructure(logo);
      if (png.bitDepth !== 8 || (png.colorType !== 0 && png.colorType !== 2) || png.interlaced) {
        throw new DanfeInputError('logo must be an 8-bit greyscale or RGB PNG without transparency or interlacing (normalize it first)');
      }
    } else if (isJpeg(logo)) readJpegStructure(logo);
    else throw new DanfeInputError('logo must be a PNG or JPEG image');
  } catch (err) {
    if (err instanceof LogoRefusal) throw new DanfeInputError(`logo ${err.message}`);
    throw err;
  }
}

export function openImage(doc: ImageDoc, data: Buffer): OpenedImage {
  try {
    return doc.openImage(data);
  } catch (err) {
    throw new DanfeInputError(`logo cannot be opened: ${(err as Error).message}`);
  }
}

/** Draws the logo fitted and centred in a box. */
export interface LogoDrawer {
  (x: number, y: number, w: number, h: number): void;
}

/** The issuer's logo, checked and opened once, as a drawer; undefined without a logo. */
export function logoDrawer(doc: ImageDoc, logo: Buffer | undefined): LogoDrawer | undefined {
  if (!logo) return undefined;
  checkLogo(logo);
  const image = openImage(doc, logo);
  return (x, y, w, h) => void doc.image(image, x, y, { fit: [w, h], align: 'center', valign: 'center' });
}
