import { el, leaf } from '../../xml-text.js';
import { money, rate } from '../format.js';
import type { IcmsModel } from '../model.js';
import { retainedBlock, stBlock } from './icms-blocks.js';
import { icms90Own } from './icms-normal.js';

// ICMS groups of Simples Nacional issuers (CRT 1, 2, 4), keyed by CSOSN, fields in XSD order.

const head = (m: IcmsModel): string => leaf('orig', m.orig) + leaf('CSOSN', m.code);
const credit = (m: IcmsModel): string => (m.credit ? rate('pCredSN', m.credit.pCredSN) + money('vCredICMSSN', m.credit.vCredICMSSN) : '');

function need<T>(value: T | undefined, what: string, csosn: string): T {
  if (value === undefined) throw new Error(`CSOSN ${csosn} needs ${what} (validateSale should have caught this)`);
  return value;
}

const WRITERS: Record<string, [string, (m: IcmsModel) => string]> = {
  '101': ['ICMSSN101', (m) => head(m) + credit(m)],
  // orig is optional in ICMSSN102 but we always send it (docs/fiscal/icms-groups.md).
  '102': ['ICMSSN102', head],
  '103': ['ICMSSN102', head],
  '300': ['ICMSSN102', head],
  '400': ['ICMSSN102', head],
  '201': ['ICMSSN201', (m) => head(m) + stBlock(need(m.st, 'ST', '201')) + credit(m)],
  '202': ['ICMSSN202', (m) => head(m) + stBlock(need(m.st, 'ST', '202'))],
  '203': ['ICMSSN202', (m) => head(m) + stBlock(need(m.st, 'ST', '203'))],
  '500': ['ICMSSN500', (m) => head(m) + retainedBlock(m.retained)],
  // ICMSSN900 own block has the ICMS90 order (modBC, vBC, [pRedBC], pICMS, vICMS) and no FCP.
  '900': ['ICMSSN900', (m) => head(m) + icms90Own(m.own) + (m.st ? stBlock(m.st) : '') + credit(m)],
};

export const SIMPLES_CSOSNS: readonly string[] = Object.keys(WRITERS);

export function icmsSimplesXml(m: IcmsModel): string {
  const writer = WRITERS[m.code];
  if (!writer) throw new Error(`CSOSN ${m.code} has no NFC-e group`);
  return el(writer[0], writer[1](m));
}
