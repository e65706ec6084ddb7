import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { IbsCbsDeferralModel, IbsCbsRegularModel } from '../model.js';

// The deferral (TDif) and regular-taxation (TTribRegular) groups of gIBSCBS, DFeTiposBasicos_v1.00.xsd
// (PL_010_V1.40): gDif {pDif, vDif} inside gIBSUF, gIBSMun and gCBS after the rate; gTribRegular after gCBS
// {CSTReg, cClassTribReg, pAliqEfetRegIBSUF, vTribRegIBSUF, pAliqEfetRegIBSMun, vTribRegIBSMun,
// pAliqEfetRegCBS, vTribRegCBS}.

/** One sphere's gDif, or nothing without deferral. */
export function deferralXml(d: IbsCbsDeferralModel | undefined, value: 'vDifUF' | 'vDifMun' | 'vDifCBS'): string {
  return d ? el('gDif', rate('pDif', d.pDif) + money('vDif', d[value])) : '';
}

export function regularXml(r: IbsCbsRegularModel | undefined): string {
  if (!r) return '';
  return el(
    'gTribRegular',
    leaf('CSTReg', r.CSTReg) +
      leaf('cClassTribReg', r.cClassTribReg) +
      rate('pAliqEfetRegIBSUF', r.pAliqEfetRegIBSUF) +
      money('vTribRegIBSUF', r.vTribRegIBSUF) +
      rate('pAliqEfetRegIBSMun', r.pAliqEfetRegIBSMun) +
      money('vTribRegIBSMun', r.vTribRegIBSMun) +
      rate('pAliqEfetRegCBS', r.pAliqEfetRegCBS) +
      money('vTribRegCBS', r.vTribRegCBS),
  );
}
