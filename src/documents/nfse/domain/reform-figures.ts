import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { nfseIbsCbsTerms } from '../../../fiscal/xml/nfse/ibscbs-terms.js';
import { nfseIbsCbsValues } from '../../../fiscal/xml/nfse/ibscbs-values.js';
import type { DpsModel } from '../../../fiscal/xml/nfse/model.js';

// The IBS/CBS figures Sefin will write into the NFS-e (infNFSe/IBSCBS) for a DPS with the reform group, computed
// by the gateway from its own model (the DPS itself carries no IBS/CBS value: TCRTCInfoIBSCBS has none).
// docs/fiscal/nfse-reform.md.

/** Amounts in cents; vBCIBSCBS is the IBS/CBS base (the NFS-e's vBC of valores is the ISSQN base). */
export interface IbsCbsFigures {
  vBCIBSCBS: number;
  vIBSUF: number;
  vIBSMun: number;
  vIBSTot: number;
  vCBS: number;
  vTotNF: number;
}

/** The ISSQN of the NFS-e: 0 without incidence (tribISSQN 2 immunity, 3 export, 4 no incidence), unknown without a rate. */
function issqnOf(m: Pick<DpsModel, 'valores'>, vISSQN: number | undefined): number | undefined {
  return m.valores.tribMun.tribISSQN === 1 ? vISSQN : 0;
}

/**
 * The figures, or undefined when the DPS has no IBSCBS, when the tables give no rates or reductions for its
 * classification on the competence (fiscal/xml/nfse/ibscbs-terms.ts; without tables only CST 000 in 2026), or
 * when the ISSQN, part of the base, is left to Sefin's rate.
 */
export function ibsCbsFigures(m: Pick<DpsModel, 'valores' | 'IBSCBS' | 'dCompet'>, f: { vISSQN?: number; vLiq?: number }, tables?: ReformTables): IbsCbsFigures | undefined {
  const g = m.IBSCBS;
  const terms = g && nfseIbsCbsTerms(tables, g.CST, g.cClassTrib, m.dCompet);
  const vISSQN = issqnOf(m, f.vISSQN);
  if (!terms || vISSQN === undefined || f.vLiq === undefined) return undefined;
  const v = m.valores;
  const pc = v.tribFed?.piscofins;
  const parts = { dCompet: m.dCompet, vServ: v.vServ, vDescIncond: v.vDescIncond ?? 0, vCalcReeRepRes: 0, vISSQN, vPis: pc?.vPis ?? 0, vCofins: pc?.vCofins ?? 0 };
  const x = nfseIbsCbsValues(parts, terms.rates, f.vLiq, terms.reduction);
  return { vBCIBSCBS: x.vBC, vIBSUF: x.vIBSUF, vIBSMun: x.vIBSMun, vIBSTot: x.vIBSTot, vCBS: x.vCBS, vTotNF: x.vTotNF };
}
