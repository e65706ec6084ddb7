import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import type { DpsModel } from '../../../fiscal/xml/nfse/model.js';
import { signDps } from '../../../fiscal/xml/nfse/sign-dps.js';
import { dpsFigures, type DpsFigures } from './figures.js';
import type { NfseDocumentContext } from './nfse-context.js';
import type { PreparedDps } from './prepare-nfse.js';

// One numbered, signed DPS of a prepared request: only what the number decides is done here.

/** verAplic of the DPS and of the event requests the gateway signs. */
export const DEFAULT_VER_APLIC = 'fiscal-gateway 0.1.0';

export interface BuiltDps {
  xml: string;
  dpsId: string;
  digestValue: string;
  dhEmi: string;
  model: DpsModel;
  /** Figures in cents, computed (never taken from the request). */
  figures: DpsFigures;
}

/** Throws Error for an unusable context: a series outside 1-49999 (E0010) or a competence after the emission (E0015). */
export function buildPreparedDps(prepared: PreparedDps, ctx: NfseDocumentContext): BuiltDps {
  // Anexo I E0010: series 00001-49999 belong to the taxpayer's own software (50000+ are Sefin's emitters and transcription).
  if (!/^[0-9]{1,5}$/.test(ctx.serie) || Number(ctx.serie) < 1 || Number(ctx.serie) > 49_999) throw new Error('serie must be 1 to 49999 (own software, Anexo I E0010)');
  const dh = localDateTime(ctx.emittedAt, timeZoneOf(prepared.cLocEmi, ''));
  if (prepared.dCompet > dh.text.slice(0, 10)) throw new Error('competence date after the emission date (Anexo I E0015)');
  const model: DpsModel = { ...prepared, dhEmi: dh.text, verAplic: ctx.verAplic ?? DEFAULT_VER_APLIC, serie: ctx.serie, nDPS: ctx.nDPS };
  const signed = signDps(model, ctx.signingKey, ctx.profile);
  return { xml: signed.xml, dpsId: signed.id, digestValue: signed.digestValue, dhEmi: dh.text, model, figures: dpsFigures(model, ctx.reformTables) };
}
