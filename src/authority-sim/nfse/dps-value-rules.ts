import type { Element } from '@xmldom/xmldom';
import { childOf, textAt } from './document-checks.js';
import type { DpsFacts } from './dps-facts.js';
import { checkTotTrib, checkTribFed } from './dps-federal-rules.js';
import { NfseRefusal } from './nfse-wire.js';

// Sefin Nacional Anexo I rules (RN DPS_NFS-e) on the DPS values (valores), written from the rule text
// (assets/fiscal/rules/nfse-anexo-i.json), independently of the gateway's own checks
// (documents/nfse/domain/validate-nfse.ts). Rules that need a municipality's parameters (its service
// list, benefits, agreement) or Sefin's registers are not played: the simulator has none of them.

const cents = (text: string | undefined) => (text === undefined ? undefined : Math.round(Number(text) * 100));
const NOT_TAXABLE = new Set(['2', '3', '4']); // tribISSQN: immunity, export, no incidence
const WITHHELD = new Set(['2', '3']); // tpRetISSQN: by the taker, by the intermediary

/** Throws NfseRefusal with the first rule the DPS breaks. */
export function checkDpsValues(dps: Element, _f: DpsFacts): void {
  const inf = childOf(dps, 'infDPS')!;
  const valores = childOf(inf, 'valores')!;
  const tpEmit = textAt(inf, 'tpEmit');
  // E0424: vReceb only when the intermediary issues the DPS (tpEmit 3).
  if (textAt(valores, 'vServPrest/vReceb') !== undefined && (tpEmit === '1' || tpEmit === '2')) throw new NfseRefusal('E0424', `vReceb with tpEmit ${tpEmit}`);
  const vServ = cents(textAt(valores, 'vServPrest/vServ')) ?? 0;
  // E0431 / E0432: a discount, when informed, above zero and below vServ.
  const incond = cents(textAt(valores, 'vDescCondIncond/vDescIncond'));
  if (incond !== undefined && (incond <= 0 || incond >= vServ)) throw new NfseRefusal('E0431', `vDescIncond ${incond / 100}, vServ ${vServ / 100}`);
  const cond = cents(textAt(valores, 'vDescCondIncond/vDescCond'));
  if (cond !== undefined && (cond <= 0 || cond >= vServ)) throw new NfseRefusal('E0432', `vDescCond ${cond / 100}, vServ ${vServ / 100}`);
  const tribMun = childOf(childOf(valores, 'trib')!, 'tribMun')!;
  const tribISSQN = textAt(tribMun, 'tribISSQN')!;
  const opSimpNac = textAt(inf, 'prest/regTrib/opSimpNac');
  const regEspTrib = textAt(inf, 'prest/regTrib/regEspTrib') ?? '0';
  const pAliq = textAt(tribMun, 'pAliq');
  const tpRet = textAt(tribMun, 'tpRetISSQN') ?? '1';
  const vDR = checkDedRed(inf, valores, { vServ, incond: incond ?? 0, tribISSQN, opSimpNac, regEspTrib, pAliq });
  // E0428: vServ >= discounts + deductions + CP, IRRF, CSLL + PIS, COFINS and ISSQN when withheld (the ISSQN only when
  // the DPS gives its rate: otherwise Sefin takes the municipality's, which the simulator does not hold).
  const fed = childOf(childOf(valores, 'trib')!, 'tribFed');
  const fedCents = (path: string) => (fed ? (cents(textAt(fed, path)) ?? 0) : 0);
  const tpRetPC = fed ? Number(textAt(fed, 'piscofins/tpRetPisCofins') ?? 0) : 0;
  const vRetPC = ([1, 3, 4, 5, 9].includes(tpRetPC) ? fedCents('piscofins/vPis') : 0) + ([1, 3, 4, 6, 7].includes(tpRetPC) ? fedCents('piscofins/vCofins') : 0);
  const vRetISS = WITHHELD.has(tpRet) && pAliq !== undefined ? Math.floor(((vServ - (incond ?? 0) - vDR) * Number(pAliq)) / 100) : 0;
  const deducted = (incond ?? 0) + (cond ?? 0) + vDR + fedCents('vRetCP') + fedCents('vRetIRRF') + fedCents('vRetCSLL') + vRetPC + vRetISS;
  if (deducted > vServ) throw new NfseRefusal('E0428', `deductions and withheld taxes ${deducted / 100}, vServ ${vServ / 100}`);
  // E0532: national code 99.01.01 (no ISSQN nor ICMS) is tribISSQN 4.
  if (textAt(inf, 'serv/cServ/cTribNac') === '990101' && tribISSQN !== '4') throw new NfseRefusal('E0532', `cTribNac 990101 with tribISSQN ${tribISSQN}`);
  // E0580: no retention for an immune, exported or non-incident service.
  if (WITHHELD.has(tpRet) && NOT_TAXABLE.has(tribISSQN)) throw new NfseRefusal('E0580', `tpRetISSQN ${tpRet} with tribISSQN ${tribISSQN}`);
  // E0583: no retention from a MEI provider (opSimpNac 2).
  if (WITHHELD.has(tpRet) && opSimpNac === '2') throw new NfseRefusal('E0583', `tpRetISSQN ${tpRet} for a MEI`);
  // E0588: no retention with a special regime; E0596: nor for national code 22.01.01 (highway operation).
  if (WITHHELD.has(tpRet) && regEspTrib !== '0') throw new NfseRefusal('E0588', `tpRetISSQN ${tpRet} with regEspTrib ${regEspTrib}`);
  if (WITHHELD.has(tpRet) && textAt(inf, 'serv/cServ/cTribNac') === '220101') throw new NfseRefusal('E0596', `tpRetISSQN ${tpRet} with cTribNac 220101`);
  // E0592: tpImunidade exactly when tribISSQN is 2 (immunity); E0585: a suspension only for a taxable service.
  if ((textAt(tribMun, 'tpImunidade') !== undefined) !== (tribISSQN === '2')) throw new NfseRefusal('E0592', `tribISSQN ${tribISSQN}`);
  if (childOf(tribMun, 'exigSusp') && tribISSQN !== '1') throw new NfseRefusal('E0585', `exigSusp with tribISSQN ${tribISSQN}`);
  if (pAliq !== undefined) {
    // E0595: at most 5 %; E0600: no rate for a MEI; E0602: none for an immune, exported or non-incident service.
    if (Number(pAliq) > 5) throw new NfseRefusal('E0595', `pAliq ${pAliq}`);
    if (opSimpNac === '2') throw new NfseRefusal('E0600', `pAliq ${pAliq} for a MEI`);
    if (NOT_TAXABLE.has(tribISSQN)) throw new NfseRefusal('E0602', `pAliq ${pAliq} with tribISSQN ${tribISSQN}`);
    // E0604: no rate with a special regime.
    if (regEspTrib !== '0') throw new NfseRefusal('E0604', `pAliq ${pAliq} with regEspTrib ${regEspTrib}`);
  }
  const trib = childOf(valores, 'trib')!;
  checkTribFed(inf, trib, vServ);
  checkTotTrib(inf, trib, vServ);
}

interface DedRedFacts {
  vServ: number;
  incond: number;
  tribISSQN: string;
  opSimpNac: string | undefined;
  regEspTrib: string;
  pAliq: string | undefined;
}

// LC 116/2003 art. 8-A: the 2 % minimum does not bind sub-items 7.02, 7.05 and 16.01.
const MINIMUM_EXEMPT = new Set(['0702', '0705', '1601']);

/** vDedRed (pDR or vDR; the document list is never written by the gateway): E0435-E0438, E0453, E0427, E0444, E0447. Returns vDR (cents). */
function checkDedRed(inf: Element, valores: Element, f: DedRedFacts): number {
  const dedRed = childOf(valores, 'vDedRed');
  if (!dedRed) return 0;
  // E0435: not for an immune, exported or non-incident service; E0436: nor from a MEI; E0438: nor with a special regime.
  if (f.tribISSQN !== '1') throw new NfseRefusal('E0435', `vDedRed with tribISSQN ${f.tribISSQN}`);
  if (f.opSimpNac === '2') throw new NfseRefusal('E0436', 'vDedRed from a MEI');
  if (f.regEspTrib !== '0') throw new NfseRefusal('E0438', `vDedRed with regEspTrib ${f.regEspTrib}`);
  const pDR = textAt(dedRed, 'pDR');
  // E0453: 0 < pDR <= 100.
  if (pDR !== undefined && (Number(pDR) <= 0 || Number(pDR) > 100)) throw new NfseRefusal('E0453', `pDR ${pDR}`);
  // E0427 item 1: vCalcDR = (vServ - vDescIncond) x pDR; vServ >= vDescIncond + vDR (no municipal benefit is written).
  const vDR = pDR !== undefined ? Math.round(((f.vServ - f.incond) * Number(pDR)) / 100) : (cents(textAt(dedRed, 'vDR')) ?? 0);
  if (f.incond + vDR > f.vServ) throw new NfseRefusal('E0427', `vDescIncond ${f.incond / 100} + vDR ${vDR / 100}, vServ ${f.vServ / 100}`);
  // E0444 (pDR) / E0447 (vDR): the deduction may not bring the ISSQN below 2 % of the base before it (vServ - vDescIncond),
  // except for sub-items 7.02, 7.05, 16.01; only when the DPS gives the rate (the municipality's is not held here).
  const before = f.vServ - f.incond;
  if (f.pAliq !== undefined && vDR > 0 && !MINIMUM_EXEMPT.has((textAt(inf, 'serv/cServ/cTribNac') ?? '').slice(0, 4)) && (before - vDR) * Number(f.pAliq) < 2 * before) {
    throw new NfseRefusal(pDR !== undefined ? 'E0444' : 'E0447', `ISSQN ${(((before - vDR) * Number(f.pAliq)) / 10000).toFixed(2)} below 2 % of ${before / 100}`);
  }
  return vDR;
}
