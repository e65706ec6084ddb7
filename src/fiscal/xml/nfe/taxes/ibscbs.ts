import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { IbsCbsModel, IsModel, ReformTotModel } from '../model.js';
import { deferralXml, regularXml } from './ibscbs-deferral.js';

// NT 2025.002-RTC groups (PL_010, DFeTiposBasicos_v1.00.xsd): item IS (TIS) and IBSCBS (TTribNFe
// with gIBSCBS), totals ISTot and IBSCBSTot (TIBSCBSMonoTot). Each sphere holds, in TCIBS_NFe order,
// its rate, gDif (deferral, CST 510/515), gRed and its value; gTribRegular follows gCBS. The return
// sub-group (gDevTrib) is never written, so the totals' vDevTrib are zero.

export function isXml(m: IsModel): string {
  return el('IS', leaf('CSTIS', m.CSTIS) + leaf('cClassTribIS', m.cClassTribIS) + money('vBCIS', m.vBCIS) + rate('pIS', m.pIS) + money('vIS', m.vIS));
}

export function ibsCbsXml(m: IbsCbsModel): string {
  const g = m.gIBSCBS;
  // TTribNFe: the choice of gIBSCBS/gIBSCBSMono/gTransfCred/gAjusteCompet is optional (minOccurs 0):
  // a code without rate (CST 410, immunity and non-incidence) carries only CST and cClassTrib.
  if (!g) return el('IBSCBS', leaf('CST', m.CST) + leaf('cClassTrib', m.cClassTrib));
  // TRed: pRedAliq then pAliqEfet, after gDif/gDevTrib and before the value (DFeTiposBasicos_v1.00).
  const red = (pAliqEfet: number | undefined, pRedAliq = g.gRed?.pRedAliq): string =>
    g.gRed && pAliqEfet !== undefined && pRedAliq !== undefined ? el('gRed', rate('pRedAliq', pRedAliq) + rate('pAliqEfet', pAliqEfet)) : '';
  const body =
    money('vBC', g.vBC) +
    el('gIBSUF', rate('pIBSUF', g.pIBSUF) + deferralXml(g.gDif, 'vDifUF') + red(g.gRed?.pAliqEfetUF) + money('vIBSUF', g.vIBSUF)) +
    el('gIBSMun', rate('pIBSMun', g.pIBSMun) + deferralXml(g.gDif, 'vDifMun') + red(g.gRed?.pAliqEfetMun) + money('vIBSMun', g.vIBSMun)) +
    money('vIBS', g.vIBSUF + g.vIBSMun) +
    el('gCBS', rate('pCBS', g.pCBS) + deferralXml(g.gDif, 'vDifCBS') + red(g.gRed?.pAliqEfetCBS, g.gRed?.pRedAliqCBS ?? g.gRed?.pRedAliq) + money('vCBS', g.vCBS)) +
    regularXml(g.gTribRegular);
  return el('IBSCBS', leaf('CST', m.CST) + leaf('cClassTrib', m.cClassTrib) + el('gIBSCBS', body));
}

export function reformTotalsXml(t: ReformTotModel): string {
  // W38, W43, W53: vDif the sum of the items' gDif/vDif of the sphere; vDevTrib: no return is written.
  const difDev = (vDif = 0) => money('vDif', vDif) + money('vDevTrib', 0);
  const credits = money('vCredPres', 0) + money('vCredPresCondSus', 0);
  const gIBS = el('gIBS', el('gIBSUF', difDev(t.vDifUF) + money('vIBSUF', t.vIBSUF)) + el('gIBSMun', difDev(t.vDifMun) + money('vIBSMun', t.vIBSMun)) + money('vIBS', t.vIBS) + credits);
  const gCBS = el('gCBS', difDev(t.vDifCBS) + money('vCBS', t.vCBS) + credits);
  return (
    (t.vIS !== undefined ? el('ISTot', money('vIS', t.vIS)) : '') +
    el('IBSCBSTot', money('vBCIBSCBS', t.vBCIBSCBS) + gIBS + gCBS) +
    // vNFTot is TDec_1302Opc (never 0): "Valor Total da NF considerando os impostos por fora IBS, CBS e IS".
    (t.vNFTot > 0 ? money('vNFTot', t.vNFTot) : '')
  );
}
