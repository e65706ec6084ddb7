import { DanfeInputError, danfeInputFromXml, renderDanfeNfce } from '../../danfe/index.js';
import { ApiError } from '../../http/errors.js';
import { findIssuer } from '../../storage/repositories/issuer-repository.js';
import type { NfceRow } from '../../storage/repositories/nfce-repository.js';
import { danfeTemplateOf } from '../issuers/danfe-settings.js';
import type { NfceDeps } from './nfce-deps.js';

/**
 * The DANFE NFC-e of a note, drawn from its distributable XML (FACTS 11: the DANFE shows nothing
 * the XML and the authorization do not hold) plus the issuer's DANFE settings.
 */
export async function renderNoteDanfe(deps: NfceDeps, row: NfceRow, width: 80 | 58): Promise<Buffer> {
  if ((row.status !== 'authorized' && row.status !== 'canceled') || !row.proc_xml) {
    throw new ApiError('invalid_state', `NFC-e ${row.id} is ${row.status}; its DANFE is available once authorized`);
  }
  const issuer = await findIssuer(deps.db, row.account_id, row.issuer_id);
  const template = issuer ? danfeTemplateOf(issuer) : null;
  const cancellation = row.cancellation && 'protocolo' in row.cancellation ? row.cancellation : null;
  try {
    const input = danfeInputFromXml(row.proc_xml, {
      settings: {
        ...(template?.logo ? { logo: template.logo.bytes } : {}),
        ...(template?.primaryColor ? { primaryColor: template.primaryColor } : {}),
        ...(template?.footerText ? { footerText: template.footerText } : {}),
      },
      ...(cancellation ? { cancellation: { protocol: cancellation.protocolo, at: cancellation.canceled_at } } : {}),
    });
    return await renderDanfeNfce(input, { width });
  } catch (err) {
    // Stored settings were validated on the way in; a refusal here means they can no longer be drawn.
    if (err instanceof DanfeInputError) throw new ApiError('validation_error', `The DANFE cannot be drawn: ${err.message}`);
    throw err;
  }
}
