// TCValoresNFSe: what Sefin computes from the DPS values (XSD TCValoresNFSe; the RJ sample: vServ
// 10000.00, IRRF 150.00 + CSLL 465.00 withheld -> vTotalRet 615.00, vLiq 9385.00). The simulator has
// no municipal rate table: without DPS/pAliq it writes no rate and no ISSQN (all three are optional).
import { percentOf } from '../../kernel/decimal.js';
import type { DpsAmounts } from './dps-facts.js';

export interface NfseValues {
  vBC: number;
  pAliqAplic?: number;
  vISSQN?: number;
  vTotalRet: number;
  vLiq: number;
}

export function nfseValues(v: DpsAmounts): NfseValues {
  // Anexo I E0427: with pDR the deduction is (vServ - vDescIncond) x pDR.
  const vDR = v.pDR !== undefined ? percentOf(v.vServ - v.vDescIncond, v.pDR * 100) : v.vDR;
  const vBC = v.vServ - v.vDescIncond - vDR;
  const vISSQN = v.pAliq !== undefined ? percentOf(vBC, v.pAliq * 100) : undefined;
  // TSTipoRetISSQN: 2 withheld by the taker, 3 by the intermediary.
  const vRetISSQN = v.tpRetISSQN !== 1 ? (vISSQN ?? 0) : 0;
  // TSTipoRetPISCofins: PIS withheld with 1, 3, 4, 5, 9; COFINS with 1, 3, 4, 6, 7; CSLL is vRetCSLL.
  const ret = v.tpRetPisCofins;
  const vRetPisCofins = ([1, 3, 4, 5, 9].includes(ret) ? v.vPis : 0) + ([1, 3, 4, 6, 7].includes(ret) ? v.vCofins : 0);
  const vTotalRet = vRetISSQN + vRetPisCofins + v.vRetCP + v.vRetIRRF + v.vRetCSLL;
  // XSD vLiq: service value - conditional and unconditional discounts - withheld values.
  const out: NfseValues = { vBC, vTotalRet, vLiq: v.vServ - v.vDescCond - v.vDescIncond - vTotalRet };
  if (v.pAliq !== undefined && vISSQN !== undefined) {
    out.pAliqAplic = v.pAliq;
    out.vISSQN = vISSQN;
  }
  return out;
}
