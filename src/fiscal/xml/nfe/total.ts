import { el } from '../xml-text.js';
import { money } from './format.js';
import type { IcmsTotModel, ReformTotModel } from './model.js';
import { reformTotalsXml } from './taxes/ibscbs.js';

// vFCPUFDest, vICMSUFDest and vICMSUFRemet (DIFAL, model 55) and the monophase totals (NT 2023.001) are optional
// and written when defined; the monophase quantities are TDec_1302 too, so they are hundredths here.
const ICMS_TOT_ORDER: ReadonlyArray<keyof IcmsTotModel> = [
  'vBC', 'vICMS', 'vICMSDeson', 'vFCPUFDest', 'vICMSUFDest', 'vICMSUFRemet', 'vFCP', 'vBCST', 'vST', 'vFCPST', 'vFCPSTRet',
  'qBCMono', 'vICMSMono', 'qBCMonoReten', 'vICMSMonoReten', 'qBCMonoRet', 'vICMSMonoRet', 'vProd', 'vFrete', 'vSeg',
  'vDesc', 'vII', 'vIPI', 'vIPIDevol', 'vPIS', 'vCOFINS', 'vOutro', 'vNF',
];

export function totalXml(t: IcmsTotModel, reform: ReformTotModel | undefined): string {
  let icmsTot = '';
  for (const name of ICMS_TOT_ORDER) {
    const value = t[name];
    if (value !== undefined) icmsTot += money(name, value);
  }
  if (t.vTotTrib > 0) icmsTot += money('vTotTrib', t.vTotTrib);
  return el('total', el('ICMSTot', icmsTot) + (reform ? reformTotalsXml(reform) : ''));
}
