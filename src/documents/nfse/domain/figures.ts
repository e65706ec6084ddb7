import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import type { DpsModel } from '../../../fiscal/xml/nfse/model.js';
import { percentOf } from '../../../kernel/decimal.js';
import { ibsCbsFigures, type IbsCbsFigures } from './reform-figures.js';

// The figures of a DPS that Sefin computes into the NFS-e (TCValoresNFSe), computed from the model, in cents.

export interface DpsFigures extends Partial<IbsCbsFigures> {
  vServ: number;
  /** ISSQN base: vServ - vDescIncond - vDR (computed from pDR when a rate is given). */
  vDR: number;
  /** ISSQN base. */
  vBC: number;
  /** vBC x pAliq, when the rate is given. */
  vISSQN?: number;
  /** The ISSQN when withheld (tpRetISSQN 2 or 3), else 0; unknown (absent) when withheld at the rate Sefin decides. */
  vRetISSQN?: number;
  /** PIS and COFINS withheld as tpRetPisCofins says. */
  vRetPisCofins: number;
  /** CP + IRRF + CSLL withheld. */
  vRetFed: number;
  /** Absent when the withheld ISSQN is unknown (no rate given). */
  vLiq?: number;
}

/** vDR, or with pDR the computed vCalcDR = (vServ - vDescIncond) x pDR (Anexo I E0427, item 1), in cents. */
export function deductionOf(v: Pick<DpsModel['valores'], 'vServ' | 'vDescIncond' | 'dedRed'>): number {
  if (!v.dedRed) return 0;
  return 'vDR' in v.dedRed ? v.dedRed.vDR : percentOf(v.vServ - (v.vDescIncond ?? 0), v.dedRed.pDR * 100);
}

/** `tables`: the reform tables in force, for the IBS/CBS figures (reform-figures.ts). */
export function dpsFigures(m: Pick<DpsModel, 'valores' | 'IBSCBS' | 'dCompet'>, tables?: ReformTables): DpsFigures {
  const v = m.valores;
  const vDR = deductionOf(v);
  const vBC = v.vServ - (v.vDescIncond ?? 0) - vDR;
  const vISSQN = v.tribMun.pAliq !== undefined ? percentOf(vBC, v.tribMun.pAliq * 100) : undefined;
  const vRetISSQN = v.tribMun.tpRetISSQN === 1 ? 0 : vISSQN;
  const f = v.tribFed;
  const vRetFed = (f?.vRetCP ?? 0) + (f?.vRetIRRF ?? 0) + (f?.vRetCSLL ?? 0);
  // TSTipoRetPISCofins: PIS withheld with 1, 3, 4, 5, 9; COFINS with 1, 3, 4, 6, 7 (CSLL is vRetCSLL).
  const pc = f?.piscofins;
  const ret = pc?.tpRetPisCofins ?? 0;
  const vRetPisCofins = ([1, 3, 4, 5, 9].includes(ret) ? (pc?.vPis ?? 0) : 0) + ([1, 3, 4, 6, 7].includes(ret) ? (pc?.vCofins ?? 0) : 0);
  // XSD TCValoresNFSe vLiq: service value - conditional discount - unconditional discount - withheld values.
  const out: DpsFigures = { vServ: v.vServ, vDR, vBC, vRetPisCofins, vRetFed };
  if (vISSQN !== undefined) out.vISSQN = vISSQN;
  if (vRetISSQN !== undefined) {
    out.vRetISSQN = vRetISSQN;
    out.vLiq = v.vServ - (v.vDescCond ?? 0) - (v.vDescIncond ?? 0) - vRetISSQN - vRetPisCofins - vRetFed;
  }
  // The IBS/CBS figures Sefin computes into infNFSe/IBSCBS (reform-figures.ts), when the DPS carries the group.
  const reform = ibsCbsFigures(m, out, tables);
  return reform ? { ...out, ...reform } : out;
}
