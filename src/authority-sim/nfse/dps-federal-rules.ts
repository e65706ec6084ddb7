import type { Element } from '@xmldom/xmldom';
import { childOf, textAt } from './document-checks.js';
import { NfseRefusal } from './nfse-wire.js';

// Sefin Nacional Anexo I rules (RN DPS_NFS-e) on the federal taxes (valores/trib/tribFed) and the
// approximate taxes (valores/trib/totTrib), written from the rule text (assets/fiscal/rules/nfse-anexo-i.json).
// "The situation of the provider in the Simples Nacional" is read from the DPS (prest/regTrib/opSimpNac):
// the simulator has no Simples register.

const cents = (text: string | undefined) => (text === undefined ? undefined : Math.round(Number(text) * 100));
const UNTAXED_CST = new Set(['00', '08', '09']); // none, no incidence, suspension

/** tribFed: E0675-E0701, E0720, E0724. */
export function checkTribFed(inf: Element, trib: Element, vServ: number): void {
  const fed = childOf(trib, 'tribFed');
  if (!fed) return;
  // E0675: no federal taxes when the issuer is a person (CPF); E0676: nor when it is a MEI.
  if (textAt(inf, 'prest/CPF') !== undefined) throw new NfseRefusal('E0675', 'tribFed with a provider identified by CPF');
  if (textAt(inf, 'prest/regTrib/opSimpNac') === '2') throw new NfseRefusal('E0676', 'tribFed with a MEI provider');
  const pc = childOf(fed, 'piscofins');
  if (pc) {
    const cst = textAt(pc, 'CST')!;
    const taxed = !UNTAXED_CST.has(cst);
    const vBC = cents(textAt(pc, 'vBCPisCofins'));
    // E0677: the base not above vServ; E0678: required with a taxed CST; E0680: then above zero; E0682: absent otherwise.
    // (E0680's text also says "less than vServ" where E0677 says "at most": the simulator takes the lenient one.)
    if (vBC !== undefined && vBC > vServ) throw new NfseRefusal('E0677', `vBCPisCofins ${vBC / 100}, vServ ${vServ / 100}`);
    if (taxed && vBC === undefined) throw new NfseRefusal('E0678', `CST ${cst} without vBCPisCofins`);
    if (taxed && vBC! <= 0) throw new NfseRefusal('E0680', `vBCPisCofins ${vBC! / 100}`);
    if (!taxed && vBC !== undefined) throw new NfseRefusal('E0682', `CST ${cst} with vBCPisCofins`);
    const pPis = textAt(pc, 'pAliqPis');
    const pCofins = textAt(pc, 'pAliqCofins');
    // E0684 / E0690: a base needs both rates.
    if (vBC !== undefined && pPis === undefined) throw new NfseRefusal('E0684');
    if (vBC !== undefined && pCofins === undefined) throw new NfseRefusal('E0690');
    // E0688: CST 04 and 06 are zero-rate operations.
    if ((cst === '04' || cst === '06') && (Number(pPis ?? 0) !== 0 || Number(pCofins ?? 0) !== 0)) throw new NfseRefusal('E0688', `CST ${cst}, pAliqPis ${pPis}, pAliqCofins ${pCofins}`);
    // E0694 / E0696: the amount informed is base x rate (a cent of rounding either way accepted).
    const product = (rate: string) => ((vBC ?? 0) * Number(rate)) / 100;
    const vPis = cents(textAt(pc, 'vPis'));
    if (pPis !== undefined && vPis !== undefined && Math.abs(vPis - product(pPis)) >= 1) throw new NfseRefusal('E0694', `vPis ${vPis / 100}, base x rate ${product(pPis) / 100}`);
    const vCofins = cents(textAt(pc, 'vCofins'));
    if (pCofins !== undefined && vCofins !== undefined && Math.abs(vCofins - product(pCofins)) >= 1) throw new NfseRefusal('E0696', `vCofins ${vCofins / 100}, base x rate ${product(pCofins) / 100}`);
    // E0698: a taxed CST needs the withholding type.
    if (taxed && textAt(pc, 'tpRetPisCofins') === undefined) throw new NfseRefusal('E0698', `CST ${cst} without tpRetPisCofins`);
  }
  // E0699 (CP), E0700 (IRRF), E0701 (CSLL): above zero and below vServ.
  for (const [tag, code] of [['vRetCP', 'E0699'], ['vRetIRRF', 'E0700'], ['vRetCSLL', 'E0701']] as const) {
    const v = cents(textAt(fed, tag));
    if (v !== undefined && (v <= 0 || v >= vServ)) throw new NfseRefusal(code, `${tag} ${v / 100}, vServ ${vServ / 100}`);
  }
  const tpRet = pc ? textAt(pc, 'tpRetPisCofins') : undefined;
  const csll = textAt(fed, 'vRetCSLL');
  // E0720: tpRetPisCofins 0 (nothing withheld) excludes vRetCSLL; E0724: other than 0 and 2 requires it.
  if (tpRet === '0' && csll !== undefined) throw new NfseRefusal('E0720');
  if (tpRet !== undefined && tpRet !== '0' && tpRet !== '2' && csll === undefined) throw new NfseRefusal('E0724', `tpRetPisCofins ${tpRet} without vRetCSLL`);
}

/** totTrib: E0702-E0708 (amounts and rates), E0710, E0712, E0713 (which choice the provider may write). */
export function checkTotTrib(inf: Element, trib: Element, vServ: number): void {
  const tot = childOf(trib, 'totTrib')!;
  const op = textAt(inf, 'prest/regTrib/opSimpNac');
  const ind = textAt(tot, 'indTotTrib') !== undefined;
  const sn = textAt(tot, 'pTotTribSN') !== undefined;
  // E0712: never indTotTrib from an ME/EPP; E0710: never pTotTribSN from a MEI; E0713: neither from a provider outside the SN.
  if (op === '3' && ind) throw new NfseRefusal('E0712', 'indTotTrib from an ME/EPP');
  if (op === '2' && sn) throw new NfseRefusal('E0710', 'pTotTribSN from a MEI');
  if (op === '1' && (ind || sn)) throw new NfseRefusal('E0713', `${ind ? 'indTotTrib' : 'pTotTribSN'} from a provider outside the Simples Nacional`);
  for (const [tag, code] of [['vTotTribFed', 'E0702'], ['vTotTribEst', 'E0703'], ['vTotTribMun', 'E0704']] as const) {
    const v = cents(textAt(tot, `vTotTrib/${tag}`));
    if (v !== undefined && (v < 0 || v > vServ)) throw new NfseRefusal(code, `${tag} ${v / 100}, vServ ${vServ / 100}`);
  }
  for (const [tag, code] of [['pTotTribFed', 'E0706'], ['pTotTribEst', 'E0707'], ['pTotTribMun', 'E0708']] as const) {
    const p = textAt(tot, `pTotTrib/${tag}`);
    if (p !== undefined && (Number(p) < 0 || Number(p) > 100)) throw new NfseRefusal(code, `${tag} ${p}`);
  }
}
