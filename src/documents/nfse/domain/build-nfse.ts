import { timeZoneOf } from '../../../fiscal/layout/ibge.js';
import { localDateTime } from '../../../fiscal/layout/local-time.js';
import type { DpsModel } from '../../../fiscal/xml/nfse/model.js';
import { signDps } from '../../../fiscal/xml/nfse/sign-dps.js';
import { percentOf } from '../../../kernel/decimal.js';
import type { NfseDocumentContext } from './nfse-context.js';
import type { PreparedDps } from './prepare-nfse.js';

// One numbered, signed DPS of a prepared request: only what the number decides is done here.

const DEFAULT_VER_APLIC = 'fiscal-gateway 0.1.0';

export interface BuiltDps {
  xml: string;
  dpsId: string;
  digestValue: string;
  dhEmi: string;
  model: DpsModel;
  /** Figures in cents, computed (never taken from the request). */
  figures: { vServ: number; vBC: number; vISSQN?: number; vRetISSQN: number; vRetPisCofins: number; vRetFed: number; vLiq: number };
}

export function dpsFigures(m: DpsModel): BuiltDps['figures'] {
  const v = m.valores;
  const vDR = v.dedRed && 'vDR' in v.dedRed ? v.dedRed.vDR : 0;
  const vBC = v.vServ - (v.vDescIncond ?? 0) - vDR;
  const vISSQN = v.tribMun.pAliq !== undefined ? percentOf(vBC, v.tribMun.pAliq * 100) : undefined;
  const vRetISSQN = v.tribMun.tpRetISSQN !== 1 ? (vISSQN ?? 0) : 0;
  const f = v.tribFed;
  const vRetFed = (f?.vRetCP ?? 0) + (f?.vRetIRRF ?? 0) + (f?.vRetCSLL ?? 0);
  // TSTipoRetPISCofins: PIS withheld with 1, 3, 4, 5, 9; COFINS with 1, 3, 4, 6, 7 (CSLL is vRetCSLL).
  const pc = f?.piscofins;
  const ret = pc?.tpRetPisCofins ?? 0;
  const vRetPisCofins = ([1, 3, 4, 5, 9].includes(ret) ? (pc?.vPis ?? 0) : 0) + ([1, 3, 4, 6, 7].includes(ret) ? (pc?.vCofins ?? 0) : 0);
  // XSD TCValoresNFSe vLiq: service value - conditional discount - unconditional discount - withheld values.
  const vLiq = v.vServ - (v.vDescCond ?? 0) - (v.vDescIncond ?? 0) - vRetISSQN - vRetPisCofins - vRetFed;
  const out: BuiltDps['figures'] = { vServ: v.vServ, vBC, vRetISSQN, vRetPisCofins, vRetFed, vLiq };
  if (vISSQN !== undefined) out.vISSQN = vISSQN;
  return out;
}

/** Throws Error when the competence date falls after the emission (Anexo I E0015). */
export function buildPreparedDps(prepared: PreparedDps, ctx: NfseDocumentContext): BuiltDps {
  const dh = localDateTime(ctx.emittedAt, timeZoneOf(prepared.cLocEmi, ''));
  if (prepared.dCompet > dh.text.slice(0, 10)) throw new Error('competence date after the emission date (Anexo I E0015)');
  const model: DpsModel = { ...prepared, dhEmi: dh.text, verAplic: ctx.verAplic ?? DEFAULT_VER_APLIC, serie: ctx.serie, nDPS: ctx.nDPS };
  const signed = signDps(model, ctx.signingKey, ctx.profile);
  return { xml: signed.xml, dpsId: signed.id, digestValue: signed.digestValue, dhEmi: dh.text, model, figures: dpsFigures(model) };
}
