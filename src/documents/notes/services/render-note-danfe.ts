import type { Note } from '../domain/note.js';
import { cancellationInEventXml, DanfeInputError, DanfeNotAuthorizedError, type DanfeCancellation } from '../../../danfe/index.js';
import { DanfeNfceBusy, renderReceiptOffThread } from '../../../danfe/receipt/index.js';
import { printableLogo } from '../../../danfe/logo/index.js';
import { DanfeNfeBusy, renderDanfeNfeOffThread } from '../../../danfe/nfe/index.js';
import { DanfseBusy, renderDanfse } from '../../../danfe/nfse/index.js';
import { ApiError } from '../../../kernel/errors.js';
import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import { findIssuer } from '../../../infra/storage/repositories/issuer-repository.js';
import type { RegisteredIssuer } from '../../../kernel/issuer.js';
import { danfeTemplateOf, whileLogoThreadsFree } from '../../../platform/issuers/danfe-settings.js';
import type { Ports } from '../../../platform/ports/ports.js';

/** A DANFE is drawn from what is stored. */
export type DanfeDeps = Pick<Ports, 'db'>;

export interface NoteDanfe {
  pdf: Buffer;
  /** Set when the DANFE was printed without something the issuer asked for (its logo), and why. */
  warning?: string;
}

/**
 * The issuer's logo as the DANFE may draw it. A logo stored by an older version (checked only for
 * its magic bytes) may be damaged, a decompression bomb or in a form pdfkit decodes in an
 * asynchronous callback; it is normalized off the event loop first. One that cannot be drawn leaves
 * the DANFE without a logo rather than without a DANFE: the receipt is the legal document the
 * customer waits for at the till, the logo is decoration; the answer says why (X-Danfe-Warning).
 */
async function logoFor(issuerId: string, stored: Buffer): Promise<{ logo?: Buffer; warning?: string }> {
  const outcome = await whileLogoThreadsFree(() => printableLogo(stored));
  if (outcome.ok) return { logo: outcome.logo.bytes };
  const warning =
    `The issuer's DANFE logo cannot be printed (it ${outcome.problem}); the DANFE was printed without it. ` +
    `Set the logo again with PATCH /v1/issuers/${issuerId}/danfe-settings`;
  // A header carries visible ASCII only; a decoder's message could hold anything.
  return { warning: warning.replace(/[^\x20-\x7e]/g, '?') };
}

/**
 * What the DANFE says of a note's cancellation: its protocol and the time the authority registered
 * it (dhRegEvento of the stored procEventoNFe, the state's local time, as the authorization's time
 * is printed). A cancellation settled without the event document (found by consultation) falls
 * back to when the gateway recorded it, in the issuer's local time rather than UTC.
 */
export function cancellationOf(row: Note, issuer: RegisteredIssuer | undefined): DanfeCancellation | undefined {
  const settled = row.cancellation && 'protocolo' in row.cancellation ? row.cancellation : null;
  if (!settled) return undefined;
  const registered = row.cancel_proc_xml ? cancellationInEventXml(row.cancel_proc_xml) : undefined;
  const tz = timeZoneOf(issuer?.endereco?.codigo_municipio ?? '', issuer?.uf ?? '');
  const at = registered?.at ?? localDateTime(new Date(settled.canceled_at), tz).text;
  const protocol = settled.protocolo || registered?.protocol;
  return { ...(protocol ? { protocol } : {}), at };
}

/**
 * The 409 of a note that has no DANFE yet: only an authorized (or canceled) note, or an NFC-e issued in
 * offline contingency (tpEmis 9), is printed.
 */
export function notPrintable(label: string, row: Pick<Note, 'id' | 'status' | 'tp_emis'>): ApiError {
  const how = row.status === 'contingency' ? ` but its document is not a contingency emission (tpEmis ${row.tp_emis})` : '';
  return new ApiError(
    'invalid_state',
    `${label} ${row.id} is ${row.status}${how}; it is not authorized, and only a note issued in contingency (NFC-e tpEmis 9, or tpEmis 4 with its EPEC registered) prints before authorization`,
  );
}

/** The printed form: the NFC-e receipt roll (80 or 58 mm), the NF-e's A4 DANFE, or the NFS-e's DANFSe. */
export type DanfeForm = { model: 65; width: 80 | 58 } | { model: 55 } | { model: 99 };

/**
 * The DANFE of a note, drawn from its distributable XML (docs/fiscal/danfe-nfce.md: the DANFE shows nothing the XML
 * and the authorization do not hold) plus the issuer's DANFE settings: the NFC-e roll, or the NF-e
 * A4 page set or the NFS-e's DANFSe, each drawn in a worker pool of its own (a note may hold 990 items).
 */
export async function renderNoteDanfe(deps: DanfeDeps, row: Note, form: DanfeForm): Promise<NoteDanfe> {
  const label = form.model === 65 ? 'NFC-e' : form.model === 55 ? 'NF-e' : 'NFS-e';
  // An NFC-e in offline contingency (tpEmis 9) prints from its signed XML, marked as issued in contingency
  // (docs/fiscal/offline-contingency.md); no other note prints before authorization (the XML is checked again
  // where it is drawn, so a row and a document that disagree print nothing either).
  const offline = row.status === 'contingency' && form.model === 65 && row.tp_emis === 9;
  // An NF-e issued in EPEC (tpEmis 4) prints from its signed XML once its EPEC is registered, with the EPEC's
  // protocol and mark (docs/fiscal/epec.md#the-danfe), until the state authorizes it.
  // An EPEC whose protocol is not known yet (its answer lost) prints nothing: the DANFE must carry the protocol (NT 2014.001 3.1a C).
  const known = row.epec?.protocol && row.epec.registered_at ? { protocol: row.epec.protocol, registeredAt: row.epec.registered_at } : null;
  const epec = form.model === 55 && row.status === 'processing' && row.tp_emis === 4 ? known : null;
  // SP's NFC-e in EPEC (tpEmis 4) likewise, in contingency until SP authorizes it; the marks stay after (epecNfceMarks).
  const nfceEpec = form.model === 65 && row.tp_emis === 4 ? known : null;
  const nfceEpecPending = nfceEpec && row.status === 'contingency' ? nfceEpec : null;
  const xml = offline || epec || nfceEpecPending ? row.signed_xml : row.proc_xml;
  if ((row.status !== 'authorized' && row.status !== 'canceled' && !offline && !epec && !nfceEpecPending) || !xml) throw notPrintable(label, row);
  const issuer = await findIssuer(deps.db, row.account_id, row.issuer_id);
  const template = issuer ? danfeTemplateOf(issuer) : null;
  const { logo, warning } = template?.logo ? await logoFor(row.issuer_id, template.logo.bytes) : {};
  try {
    if (form.model === 99) {
      // The DANFSe prints the cancellation as a marking with its date (the event's dhProc, docs/fiscal/nfse-national.md#events).
      const canceledAt = row.cancellation && 'protocolo' in row.cancellation ? row.cancellation.canceled_at : undefined;
      const pdf = await renderDanfse(xml, {
        ...(logo ? { logo } : {}),
        ...(template?.primaryColor ? { primaryColor: template.primaryColor } : {}),
        ...(row.status === 'canceled' ? { canceled: true, ...(canceledAt ? { canceledAt } : {}) } : {}),
      });
      return { pdf, ...(warning ? { warning } : {}) };
    }
    const cancellation = cancellationOf(row, issuer);
    if (form.model === 55) {
      const settings = { ...(logo ? { logo } : {}), ...(template?.primaryColor ? { primaryColor: template.primaryColor } : {}) };
      const pdf = await renderDanfeNfeOffThread(xml, {
        settings, ...(cancellation ? { cancellation } : {}), ...(epec ? { epec } : {}),
      });
      return { pdf, ...(warning ? { warning } : {}) };
    }
    // The NFC-e roll is read and drawn in its own worker pool too (990 items held the loop ~1 s).
    const pdf = await renderReceiptOffThread({
      form: 'pdf',
      xml,
      width: form.width,
      settings: {
        ...(logo ? { logo } : {}),
        ...(template?.primaryColor ? { primaryColor: template.primaryColor } : {}),
        ...(template?.footerText ? { footerText: template.footerText } : {}),
      },
      ...(cancellation ? { cancellation } : {}),
      ...(nfceEpec ? { epec: nfceEpec } : {}),
    });
    return { pdf, ...(warning ? { warning } : {}) };
  } catch (err) {
    // Stored settings were validated on the way in; a refusal here means they can no longer be drawn.
    if (err instanceof DanfeNotAuthorizedError) throw notPrintable(label, row);
    if (err instanceof DanfeInputError) throw new ApiError('validation_error', `The DANFE cannot be drawn: ${err.message}`);
    if (err instanceof DanfeNfeBusy || err instanceof DanfseBusy || err instanceof DanfeNfceBusy) throw new ApiError('service_unavailable', 'Every DANFE renderer is busy; try again in a few seconds');
    throw err;
  }
}
