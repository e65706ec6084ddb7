import type { Note } from '../domain/note.js';
import { DanfeInputError, DanfeNotAuthorizedError } from '../../../danfe/index.js';
import { DanfeNfceBusy, renderReceiptOffThread, type ReceiptForm } from '../../../danfe/receipt/index.js';
import { ApiError } from '../../../kernel/errors.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import { danfeTemplateOf } from '../../../platform/issuers/danfe-settings.js';
import { cancellationOf, notPrintable, type DanfeDeps } from './render-note-danfe.js';

/**
 * The XML the receipt is drawn from: the nfeProc of an authorized (or canceled) note, or the signed
 * tpEmis 9 NFe of a note in offline contingency, which is printed and handed to the consumer before the
 * authority sees it (docs/fiscal/offline-contingency.md). Other notes have no DANFE: the same 409 as the PDF's.
 */
function printableXml(row: Note): string {
  if ((row.status === 'authorized' || row.status === 'canceled') && row.proc_xml) return row.proc_xml;
  if (row.status === 'contingency' && row.tp_emis === 9 && row.signed_xml) return row.signed_xml;
  // SP's NFC-e in EPEC (tpEmis 4): printable once its EPEC is registered (docs/fiscal/offline-contingency.md#epec-sp).
  if (row.status === 'contingency' && row.tp_emis === 4 && epecOf(row) && row.signed_xml) return row.signed_xml;
  throw notPrintable('NFC-e', row);
}

/**
 * The receipt as the printer or the browser takes it: the same DanfeInput as the PDF, with the issuer's
 * footer text and the cancellation. The logo and color are the PDF's alone: a thermal printer prints
 * neither without a raster upload, and the HTML page mirrors what the printer prints. Read and drawn in
 * the DANFE NFC-e worker pool: at 990 items reading the XML alone takes ~100 ms.
 */
async function renderReceipt(deps: DanfeDeps, row: Note, form: Exclude<ReceiptForm, 'pdf'>, width: 80 | 58): Promise<Buffer> {
  const xml = printableXml(row);
  const issuer = await findIssuer(deps.db, row.account_id, row.issuer_id);
  const footerText = issuer ? danfeTemplateOf(issuer).footerText : undefined;
  const cancellation = cancellationOf(row, issuer);
  try {
    const epec = row.tp_emis === 4 ? epecOf(row) : null;
    return await renderReceiptOffThread({ form, xml, width, ...(footerText ? { settings: { footerText } } : {}), ...(cancellation ? { cancellation } : {}), ...(epec ? { epec } : {}) });
  } catch (err) {
    // The document itself is neither authorized nor a contingency emission: the same 409.
    if (err instanceof DanfeNotAuthorizedError) throw notPrintable('NFC-e', row);
    // Stored XML that can no longer be drawn is the PDF route's 422, not a 500.
    if (err instanceof DanfeInputError) throw new ApiError('validation_error', `The DANFE cannot be drawn: ${err.message}`);
    if (err instanceof DanfeNfceBusy) throw new ApiError('service_unavailable', 'Every DANFE renderer is busy; try again in a few seconds');
    throw err;
  }
}

/** The DANFE NFC-e as an ESC/POS stream for an 80 or 58 mm thermal printer. */
export async function renderNoteEscpos(deps: DanfeDeps, row: Note, width: 80 | 58): Promise<Buffer> {
  return renderReceipt(deps, row, 'escpos', width);
}

/** The DANFE NFC-e as a self-contained HTML page for browser printing on an 80 or 58 mm roll. */
export async function renderNoteHtml(deps: DanfeDeps, row: Note, width: 80 | 58): Promise<string> {
  return (await renderReceipt(deps, row, 'html', width)).toString('utf8');
}

/** The registered EPEC of a note, as the DANFE prints it; null while its protocol is unknown. */
function epecOf(row: Note): { protocol: string; registeredAt: string } | null {
  return row.epec?.protocol && row.epec.registered_at ? { protocol: row.epec.protocol, registeredAt: row.epec.registered_at } : null;
}
