import type { FieldError } from '../../../fiscal/layout/field-rules.js';
import { infNfeXml, type AnyNfeModel } from '../../../fiscal/xml/nfe/inf-nfe.js';

// MOC 7.0 Anexo I B01 (214): the authority refuses a data message (the enviNFe lot) above 500 KB.
// The items make the size (990 of them with long texts pass it), so a sale is measured before it is
// numbered: infNFe is written with the widest ide the number can give, plus what the gateway adds
// around it at most (signature and certificate, QR code, the lot).

// "500 KB" is read the strict way here (500,000 bytes; the simulator reads 500 x 1024, never stricter
// than the authority), so that neither reading refuses a note the gateway sends.
export const MAX_MESSAGE_BYTES = 500_000;
/** Signature with a 4096-bit certificate (~4.5 KB), infNFeSupl (~0.7 KB), enviNFe (~0.2 KB), hashCSRT; rounded up. */
export const AROUND_INF_NFE_BYTES = 8 * 1024;

const bytes = (text: string) => new TextEncoder().encode(text).length;

/** The most bytes the lot of this note can have (infNFe as written plus AROUND_INF_NFE_BYTES). */
export function messageBytesAtMost(model: AnyNfeModel): number {
  return bytes(infNfeXml(model, false)) + AROUND_INF_NFE_BYTES;
}

/** The 422 for a note whose lot would pass 500 KB, naming `items`; null when it fits. */
export function messageSizeError(model: AnyNfeModel): FieldError | null {
  const size = messageBytesAtMost(model);
  if (size <= MAX_MESSAGE_BYTES) return null;
  return {
    field: 'items',
    message: `make a note of about ${Math.ceil(size / 1024)} KB, above the 500 KB the authority accepts (MOC B01, 214): split the sale into several notes or shorten the item texts`,
    rule: 'B01',
  };
}

/** The widest ide values a number can give (serie, nNF, cNF, dhEmi, contingency), for the measure. */
export const WIDEST_IDE = {
  cUF: '00', cNF: '00000000', serie: 999, nNF: 999_999_999, dhEmi: '2000-01-01T00:00:00-03:00', cMunFG: '0000000', cDV: 0,
  verProc: 'x'.repeat(20), contingency: { dhCont: '2000-01-01T00:00:00-03:00', xJust: 'x'.repeat(256) },
} as const;
