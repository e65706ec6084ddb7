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
  // E0532: national code 99.01.01 (no ISSQN nor ICMS) is tribISSQN 4.
  if (textAt(inf, 'serv/cServ/cTribNac') === '990101' && tribISSQN !== '4') throw new NfseRefusal('E0532', `cTribNac 990101 with tribISSQN ${tribISSQN}`);
  const tpRet = textAt(tribMun, 'tpRetISSQN') ?? '1';
  // E0580: no retention for an immune, exported or non-incident service.
  if (WITHHELD.has(tpRet) && NOT_TAXABLE.has(tribISSQN)) throw new NfseRefusal('E0580', `tpRetISSQN ${tpRet} with tribISSQN ${tribISSQN}`);
  const opSimpNac = textAt(inf, 'prest/regTrib/opSimpNac');
  // E0583: no retention from a MEI provider (opSimpNac 2).
  if (WITHHELD.has(tpRet) && opSimpNac === '2') throw new NfseRefusal('E0583', `tpRetISSQN ${tpRet} for a MEI`);
  const pAliq = textAt(tribMun, 'pAliq');
  if (pAliq !== undefined) {
    // E0595: at most 5 %; E0600: no rate for a MEI; E0602: none for an immune, exported or non-incident service.
    if (Number(pAliq) > 5) throw new NfseRefusal('E0595', `pAliq ${pAliq}`);
    if (opSimpNac === '2') throw new NfseRefusal('E0600', `pAliq ${pAliq} for a MEI`);
    if (NOT_TAXABLE.has(tribISSQN)) throw new NfseRefusal('E0602', `pAliq ${pAliq} with tribISSQN ${tribISSQN}`);
  }
  const trib = childOf(valores, 'trib')!;
  checkTribFed(inf, trib, vServ);
  checkTotTrib(inf, trib, vServ);
}
