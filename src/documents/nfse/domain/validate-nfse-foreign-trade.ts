import { checkNumber, checkPattern, checkText, fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { DpsComExt } from '../../../fiscal/xml/nfse/model.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { toCents } from '../../../kernel/decimal.js';
import { PROVISION_MODES, RELATIONSHIPS, TEMPORARY_GOODS, type NfseForeignTrade, type NfseRequest } from './nfse-request.js';

// serv/comExt, foreign trade of services (NFS-e Anexo I, docs/fiscal/exports-and-delivery.md).

const AT = 'service.foreign_trade';

/** Anexo I E0330 (tpEmit 1, the only one Sefin takes): a taker or intermediary abroad, cPaisPrestacao or tribISSQN 3. */
export function isServiceExport(req: NfseRequest): boolean {
  return (
    req.tomador?.address?.country_code !== undefined ||
    req.intermediario?.address?.country_code !== undefined ||
    req.service.place_of_provision.country_code !== undefined ||
    req.values.iss.taxation === 'exportacao'
  );
}

function enumOf(errors: Errors, field: string, table: Record<string, number>, value: unknown): void {
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) fail(errors, field, `must be one of ${Object.keys(table).join(', ')}`);
}

export function checkForeignTrade(errors: Errors, req: NfseRequest): void {
  const f = req.service.foreign_trade;
  if (!f) {
    if (isServiceExport(req)) {
      fail(errors, AT, 'is required in an export of services (a taker or intermediary abroad, a service provided abroad or taxation exportacao): give how the service was provided, the currency and value abroad and the support mechanisms (Anexo I E0330)', 'E0330');
    }
    return;
  }
  enumOf(errors, `${AT}.provision_mode`, PROVISION_MODES, f.provision_mode);
  enumOf(errors, `${AT}.relationship`, RELATIONSHIPS, f.relationship);
  enumOf(errors, `${AT}.temporary_goods`, TEMPORARY_GOODS, f.temporary_goods);
  checkPattern(errors, `${AT}.currency`, f.currency, /^[0-9]{3}$/, 'must be the 3-digit currency code of the Banco Central table (TSCodMoeda), e.g. 220');
  checkNumber(errors, `${AT}.foreign_amount`, f.foreign_amount, { places: 2, sign: 'non-negative', max: 9_999_999_999_999.99 });
  checkPattern(errors, `${AT}.provider_support`, f.provider_support, /^0[1-8]$/, 'must be 01 to 08 (TSMecAFComExPrest; 00 is refused, Anexo I E0341)');
  checkPattern(errors, `${AT}.taker_support`, f.taker_support, /^(0[1-9]|1[0-9]|2[0-6])$/, 'must be 01 to 26 (TSMecAFComExToma; 00 is refused, Anexo I E0343)');
  checkText(errors, `${AT}.import_declaration`, f.import_declaration, 1, 12, false);
  checkText(errors, `${AT}.export_registration`, f.export_registration, 1, 12, false);
  if (f.temporary_goods === 'declaracao_importacao' && f.import_declaration === undefined) {
    fail(errors, `${AT}.import_declaration`, 'is required with temporary_goods declaracao_importacao (Anexo I E0352)', 'E0352');
  }
  if (f.temporary_goods === 'declaracao_exportacao' && f.export_registration === undefined) {
    fail(errors, `${AT}.export_registration`, 'is required with temporary_goods declaracao_exportacao (Anexo I E0356)', 'E0356');
  }
  if (f.temporary_goods === 'nao' && (f.import_declaration !== undefined || f.export_registration !== undefined)) {
    fail(errors, f.import_declaration !== undefined ? `${AT}.import_declaration` : `${AT}.export_registration`, 'is not given when temporary_goods is nao (Anexo I E0354)', 'E0354');
  }
}

/** comExt of a request checkForeignTrade accepted. */
export function comExtOf(f: NfseForeignTrade): DpsComExt {
  const out: DpsComExt = {
    mdPrestacao: PROVISION_MODES[f.provision_mode],
    vincPrest: RELATIONSHIPS[f.relationship],
    tpMoeda: f.currency,
    vServMoeda: toCents(f.foreign_amount),
    mecAFComexP: f.provider_support,
    mecAFComexT: f.taker_support,
    movTempBens: TEMPORARY_GOODS[f.temporary_goods],
    mdic: f.share_with_mdic ? 1 : 0,
  };
  if (f.import_declaration !== undefined) out.nDI = layoutText(f.import_declaration);
  if (f.export_registration !== undefined) out.nRE = layoutText(f.export_registration);
  return out;
}
