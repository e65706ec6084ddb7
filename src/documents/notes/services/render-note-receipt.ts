import { DanfeInputError, danfeInputFromXml, type DanfeInput } from '../../../danfe/index.js';
import { renderDanfeEscpos } from '../../../danfe/escpos/index.js';
import { renderDanfeHtml } from '../../../danfe/html/index.js';
import { ApiError } from '../../../kernel/errors.js';
import { findIssuer } from '../../../platform/storage/repositories/issuer-repository.js';
import type { NoteRow } from '../../../platform/storage/repositories/note-repository.js';
import { danfeTemplateOf } from '../../../platform/issuers/danfe-settings.js';
import { cancellationOf, type DanfeDeps } from './render-note-danfe.js';

/**
 * The XML the receipt is drawn from: the nfeProc of an authorized (or canceled) note, or the signed
 * tpEmis 9 NFe of a note in offline contingency, which is printed and handed to the consumer before the
 * authority sees it (FACTS 10). Other notes have no DANFE: the same 409 as the PDF's.
 */
function printableXml(row: NoteRow): string {
  if ((row.status === 'authorized' || row.status === 'canceled') && row.proc_xml) return row.proc_xml;
  if (row.status === 'contingency' && row.tp_emis === 9 && row.signed_xml) return row.signed_xml;
  throw new ApiError('invalid_state', `NFC-e ${row.id} is ${row.status}; its DANFE is available once authorized or issued in contingency`);
}

/**
 * What the receipt prints: the same DanfeInput as the PDF (danfeInputFromXml) with the issuer's footer
 * text and the cancellation. The logo and color are the PDF's alone: a thermal printer prints neither
 * without a raster upload, and the HTML page mirrors what the printer prints.
 */
async function receiptInput(deps: DanfeDeps, row: NoteRow): Promise<DanfeInput> {
  const xml = printableXml(row);
  const issuer = await findIssuer(deps.db, row.account_id, row.issuer_id);
  const footerText = issuer ? danfeTemplateOf(issuer).footerText : undefined;
  const cancellation = cancellationOf(row, issuer);
  return drawable(() => danfeInputFromXml(xml, { ...(footerText ? { settings: { footerText } } : {}), ...(cancellation ? { cancellation } : {}) }));
}

// Stored XML that can no longer be drawn is the PDF route's 422, not a 500.
async function drawable<T>(draw: () => T | Promise<T>): Promise<T> {
  try {
    return await draw();
  } catch (err) {
    if (err instanceof DanfeInputError) throw new ApiError('validation_error', `The DANFE cannot be drawn: ${err.message}`);
    throw err;
  }
}

/** The DANFE NFC-e as an ESC/POS stream for an 80 or 58 mm thermal printer. */
export async function renderNoteEscpos(deps: DanfeDeps, row: NoteRow, width: 80 | 58): Promise<Buffer> {
  const input = await receiptInput(deps, row);
  return drawable(() => renderDanfeEscpos(input, { width }));
}

/** The DANFE NFC-e as a self-contained HTML page for browser printing on an 80 or 58 mm roll. */
export async function renderNoteHtml(deps: DanfeDeps, row: NoteRow, width: 80 | 58): Promise<string> {
  const input = await receiptInput(deps, row);
  return drawable(() => renderDanfeHtml(input, { width }));
}
