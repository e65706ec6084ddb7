import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { GovernmentPurchaseTaxModel, IbsCbsModel, IsModel, PresumedCreditModel, PresumedCreditTaxModel, ReformTotModel } from '../model.js';
import { deferralXml, regularXml } from './ibscbs-deferral.js';

// NT 2025.002-RTC groups (PL_010, DFeTiposBasicos_v1.00.xsd): item IS (TIS) and IBSCBS (TTribNFe
// with gIBSCBS), totals ISTot and IBSCBSTot (TIBSCBSMonoTot). Each sphere holds, in TCIBS_NFe order,
// its rate, gDif (deferral, CST 510/515), gRed and its value; gTribRegular and gTribCompraGov follow gCBS.
// The return sub-group (gDevTrib) is never written, so the totals' vDevTrib are zero. Presumed credit
// (gCredPresOper) and credit transfer (gTransfCred) in TTribNFe order (docs/fiscal/tax-reform.md).

export function isXml(m: IsModel): string {
  return el('IS', leaf('CSTIS', m.CSTIS) + leaf('cClassTribIS', m.cClassTribIS) + money('vBCIS', m.vBCIS) + rate('pIS', m.pIS) + money('vIS', m.vIS));
}

/** TCredPres: pCredPres then the choice vCredPres | vCredPresCondSus (the gateway writes vCredPres). */
const credPresXml = (name: string, c: PresumedCreditTaxModel | undefined): string => (c ? el(name, rate('pCredPres', c.pCredPres) + money('vCredPres', c.vCredPres)) : '');

/** TCredPresOper (UB120): vBCCredPres, cCredPres, [gIBSCredPres], [gCBSCredPres]. */
function credPresOperXml(c: PresumedCreditModel | undefined): string {
  if (!c) return '';
  return el('gCredPresOper', money('vBCCredPres', c.vBCCredPres) + leaf('cCredPres', c.cCredPres) + credPresXml('gIBSCredPres', c.gIBSCredPres) + credPresXml('gCBSCredPres', c.gCBSCredPres));
}

/** TTribCompraGov (UB82a): pAliqIBSUF, vTribIBSUF, pAliqIBSMun, vTribIBSMun, pAliqCBS, vTribCBS. */
function tribCompraGovXml(t: GovernmentPurchaseTaxModel | undefined): string {
  if (!t) return '';
  return el('gTribCompraGov', rate('pAliqIBSUF', t.pAliqIBSUF) + money('vTribIBSUF', t.vTribIBSUF) + rate('pAliqIBSMun', t.pAliqIBSMun) + money('vTribIBSMun', t.vTribIBSMun) + rate('pAliqCBS', t.pAliqCBS) + money('vTribCBS', t.vTribCBS));
}

export function ibsCbsXml(m: IbsCbsModel): string {
  const g = m.gIBSCBS;
  const head = leaf('CST', m.CST) + leaf('cClassTrib', m.cClassTrib);
  // TTribNFe: CST, cClassTrib, [indDoacao], the choice gIBSCBS | gIBSCBSMono | gTransfCred | gAjusteCompet
  // (minOccurs 0: a code without rate, CST 410, carries none), [gEstornoCred], [gCredPresOper | gCredPresIBSZFM].
  if (m.gTransfCred) return el('IBSCBS', head + el('gTransfCred', money('vIBS', m.gTransfCred.vIBS) + money('vCBS', m.gTransfCred.vCBS)) + credPresOperXml(m.gCredPresOper));
  if (!g) return el('IBSCBS', head + credPresOperXml(m.gCredPresOper));
  // TRed: pRedAliq then pAliqEfet, after gDif/gDevTrib and before the value (DFeTiposBasicos_v1.00).
  const red = (pAliqEfet: number | undefined, pRedAliq = g.gRed?.pRedAliq): string =>
    g.gRed && pAliqEfet !== undefined && pRedAliq !== undefined ? el('gRed', rate('pRedAliq', pRedAliq) + rate('pAliqEfet', pAliqEfet)) : '';
  const body =
    money('vBC', g.vBC) +
    el('gIBSUF', rate('pIBSUF', g.pIBSUF) + deferralXml(g.gDif, 'vDifUF') + red(g.gRed?.pAliqEfetUF) + money('vIBSUF', g.vIBSUF)) +
    el('gIBSMun', rate('pIBSMun', g.pIBSMun) + deferralXml(g.gDif, 'vDifMun') + red(g.gRed?.pAliqEfetMun) + money('vIBSMun', g.vIBSMun)) +
    money('vIBS', g.vIBSUF + g.vIBSMun) +
    el('gCBS', rate('pCBS', g.pCBS) + deferralXml(g.gDif, 'vDifCBS') + red(g.gRed?.pAliqEfetCBS, g.gRed?.pRedAliqCBS ?? g.gRed?.pRedAliq) + money('vCBS', g.vCBS)) +
    // TCIBS_NFe: ..., gCBS, [gTribRegular], [gTribCompraGov].
    regularXml(g.gTribRegular) +
    tribCompraGovXml(g.gTribCompraGov);
  return el('IBSCBS', head + el('gIBSCBS', body) + credPresOperXml(m.gCredPresOper));
}

export function reformTotalsXml(t: ReformTotModel): string {
  // W38, W43, W53: vDif the sum of the items' gDif/vDif of the sphere; vDevTrib: no return is written.
  const difDev = (vDif = 0) => money('vDif', vDif) + money('vDevTrib', 0);
  // W48 / W56a: vCredPres is the items' gIBSCredPres / gCBSCredPres sum; vCredPresCondSus is never written by an item here.
  const credits = (vCredPres = 0) => money('vCredPres', vCredPres) + money('vCredPresCondSus', 0);
  const gIBS = el('gIBS', el('gIBSUF', difDev(t.vDifUF) + money('vIBSUF', t.vIBSUF)) + el('gIBSMun', difDev(t.vDifMun) + money('vIBSMun', t.vIBSMun)) + money('vIBS', t.vIBS) + credits(t.vCredPresIBS));
  const gCBS = el('gCBS', difDev(t.vDifCBS) + money('vCBS', t.vCBS) + credits(t.vCredPresCBS));
  return (
    (t.vIS !== undefined ? el('ISTot', money('vIS', t.vIS)) : '') +
    el('IBSCBSTot', money('vBCIBSCBS', t.vBCIBSCBS) + gIBS + gCBS) +
    // vNFTot is TDec_1302Opc (never 0): "Valor Total da NF considerando os impostos por fora IBS, CBS e IS".
    (t.vNFTot > 0 ? money('vNFTot', t.vNFTot) : '')
  );
}
