import { el } from '../xml-text.js';
import { money } from './format.js';
import type { IcmsTotModel, ReformTotModel } from './model.js';
import { reformTotalsXml } from './taxes/ibscbs.js';

const ICMS_TOT_ORDER: ReadonlyArray<keyof IcmsTotModel> = [
  'vBC', 'vICMS', 'vICMSDeson', 'vFCP', 'vBCST', 'vST', 'vFCPST', 'vFCPSTRet', 'vProd', 'vFrete', 'vSeg',
  'vDesc', 'vII', 'vIPI', 'vIPIDevol', 'vPIS', 'vCOFINS', 'vOutro', 'vNF',
];

export function totalXml(t: IcmsTotModel, reform: ReformTotModel | undefined): string {
  let icmsTot = '';
  for (const name of ICMS_TOT_ORDER) icmsTot += money(name, t[name]);
  if (t.vTotTrib > 0) icmsTot += money('vTotTrib', t.vTotTrib);
  return el('total', el('ICMSTot', icmsTot) + (reform ? reformTotalsXml(reform) : ''));
}
