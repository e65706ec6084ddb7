// DANFSe (the NFS-e Padrão Nacional's auxiliary document) as one A4 portrait page, from the
// authorized NFS-e XML. Since the ADN's DANFSe service was suspended (03/08/2026, NT 008/2026 v1.02;
// docs/fiscal/nfse-national.md#danfse) issuers render it themselves. NT 008 ("DANFSe v2.0") asks, as open implementations
// quote it (§2.2), for a single page with the QR code of the public consultation. Blocks, top to bottom: title, identification + QR code,
// emitente, tomador, intermediário, serviço, ISSQN, federal taxes, totals, approximate taxes,
// IBS/CBS, informações complementares; long texts are cut so the page never overflows.
import PDFDocument from 'pdfkit';
import { pdfBytes } from '../pdf-bytes.js';
import { readNfse, NfseReadError } from '../../fiscal/xml/nfse/read-nfse.js';
import type { NfseView } from '../../fiscal/xml/nfse/nfse-view.js';
import { DanfeInputError } from '../danfe-input.js';
import { legibleInk } from '../danfe-theme.js';
import { logoDrawer, type ImageDoc } from '../pdf-logo.js';
import { MARGIN, PAGE, Sheet } from '../nfe/nfe-sheet.js';
import { drawHeader, type DanfseMarks } from './danfse-header.js';
import { drawMarkings, drawNotes, NOTES_MIN_HEIGHT } from './danfse-notes.js';
import { drawParties } from './danfse-parties.js';
import { DESCRIPTION_LINE, descriptionLines, drawService, SERVICE_FIXED_HEIGHT } from './danfse-service.js';
import { drawTaxes, taxesHeight } from './danfse-taxes.js';

export interface DanfseOptions {
  /** Prints the cancellation marking (the NFS-e carries no event: the caller knows it was canceled). */
  canceled?: boolean;
  /** dhProc of the cancellation event, printed with the marking. */
  canceledAt?: string;
  /** The issuer's logo in normal form (danfe/logo: normalizeLogoOffThread), PNG or JPEG. */
  logo?: Buffer;
  /** '#RRGGBB' for the section titles, made legible as on the DANFE NF-e. */
  primaryColor?: string;
}

/** The PDF of an NfseView (see renderDanfseInThread for the XML entry). */
export async function renderDanfseView(view: NfseView, options: DanfseOptions = {}): Promise<Buffer> {
  const accent = options.primaryColor === undefined ? '#000000' : legibleInk(options.primaryColor);
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: 0,
    info: { Title: `DANFSe ${view.accessKey}`, Author: view.emit.xNome, Creator: 'fiscal-gateway' },
  }) as ImageDoc;
  const done = pdfBytes(doc);
  const sheet = new Sheet(doc, accent);
  const marks: DanfseMarks = { canceled: options.canceled === true, ...(options.canceledAt ? { canceledAt: options.canceledAt } : {}) };
  const bottom = PAGE.height - MARGIN.bottom;

  let y = drawHeader(sheet, view, MARGIN.top, marks, logoDrawer(doc, options.logo));
  y = drawParties(sheet, view, y);
  // The description takes what the fixed blocks and the smallest notes box leave (one page, NT 008).
  const lines = descriptionLines(sheet, view);
  const room = bottom - y - SERVICE_FIXED_HEIGHT - taxesHeight(view) - NOTES_MIN_HEIGHT;
  y = drawService(sheet, view, y, lines, Math.floor(room / DESCRIPTION_LINE));
  y = drawTaxes(sheet, view, y);
  drawNotes(sheet, view, y, bottom);
  drawMarkings(sheet, view, marks);
  doc.end();
  return done;
}

/** The DANFSe of an authorized NFS-e XML. Synchronous work: call renderDanfse (worker threads). */
export async function renderDanfseInThread(xml: string, options: DanfseOptions = {}): Promise<Buffer> {
  let view: NfseView;
  try {
    view = readNfse(xml);
  } catch (err) {
    if (err instanceof NfseReadError) throw new DanfeInputError(err.message);
    throw err;
  }
  return renderDanfseView(view, options);
}
