import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { IbsCbsModel, IsModel, ReformTotModel } from '../model.js';

// NT 2025.002-RTC groups (PL_010, DFeTiposBasicos_v1.00.xsd): item IS (TIS) and IBSCBS (TTribNFe
// with gIBSCBS), totals ISTot and IBSCBSTot (TIBSCBSMonoTot). Deferral, return and reduction
// sub-groups are not used by a 2026 retail sale, so the totals' vDif/vDevTrib are zero.

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
    el('gIBSUF', rate('pIBSUF', g.pIBSUF) + red(g.gRed?.pAliqEfetUF) + money('vIBSUF', g.vIBSUF)) +
    el('gIBSMun', rate('pIBSMun', g.pIBSMun) + red(g.gRed?.pAliqEfetMun) + money('vIBSMun', g.vIBSMun)) +
    money('vIBS', g.vIBSUF + g.vIBSMun) +
    el('gCBS', rate('pCBS', g.pCBS) + red(g.gRed?.pAliqEfetCBS, g.gRed?.pRedAliqCBS ?? g.gRed?.pRedAliq) + money('vCBS', g.vCBS));
  return el('IBSCBS', leaf('CST', m.CST) + leaf('cClassTrib', m.cClassTrib) + el('gIBSCBS', body));
}

export function reformTotalsXml(t: ReformTotModel): string {
  const zero = money('vDif', 0) + money('vDevTrib', 0);
  const credits = money('vCredPres', 0) + money('vCredPresCondSus', 0);
  const gIBS = el('gIBS', el('gIBSUF', zero + money('vIBSUF', t.vIBSUF)) + el('gIBSMun', zero + money('vIBSMun', t.vIBSMun)) + money('vIBS', t.vIBS) + credits);
  const gCBS = el('gCBS', zero + money('vCBS', t.vCBS) + credits);
  return (
    (t.vIS !== undefined ? el('ISTot', money('vIS', t.vIS)) : '') +
    el('IBSCBSTot', money('vBCIBSCBS', t.vBCIBSCBS) + gIBS + gCBS) +
    // vNFTot is TDec_1302Opc (never 0): "Valor Total da NF considerando os impostos por fora IBS, CBS e IS".
    (t.vNFTot > 0 ? money('vNFTot', t.vNFTot) : '')
  );
}
