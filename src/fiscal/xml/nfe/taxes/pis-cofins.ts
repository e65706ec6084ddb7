import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { PisCofinsModel } from '../model.js';

// PIS and COFINS share one shape (XSD PIS/COFINS): Aliq for CST 01/02, NT for 04-09, Outr for
// 49-99 (ad valorem form vBC + rate). CST 03 (per-quantity rate) is not offered: validateSale refuses it.

type Tax = 'PIS' | 'COFINS';

export function pisCofinsGroup(cst: string): 'Aliq' | 'NT' | 'Outr' | null {
  if (cst === '01' || cst === '02') return 'Aliq';
  if (/^0[4-9]$/.test(cst)) return 'NT';
  if (/^(49|5[0-6]|6[0-7]|7[0-5]|98|99)$/.test(cst)) return 'Outr';
  return null;
}

export function pisCofinsXml(tax: Tax, m: PisCofinsModel): string {
  const group = pisCofinsGroup(m.CST);
  if (group === null) throw new Error(`${tax} CST ${m.CST} is not supported`);
  const rateName = tax === 'PIS' ? 'pPIS' : 'pCOFINS';
  const valueName = tax === 'PIS' ? 'vPIS' : 'vCOFINS';
  const body =
    leaf('CST', m.CST) +
    (group === 'NT' ? '' : money('vBC', m.vBC ?? 0) + rate(rateName, m.rate ?? 0) + money(valueName, m.value ?? 0));
  return el(tax, el(tax + group, body));
}
