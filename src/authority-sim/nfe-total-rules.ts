import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';

// MOC 7.0 rule W16-10 (610), models 55 and 65, as later notes changed it (docs/fiscal/icms-relief.md):
//   vNF = vProd - vDesc - vICMSDeson + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol
//         (+ vServ of ISSQNtot, NT 2011/005) (+ vICMSMonoReten, NT 2023.001)
//         (+ PISST/vPIS if indSomaPISST 1, + COFINSST/vCOFINS if indSomaCOFINSST 1, NT 2020.005)
// where vICMSDeson counts only the items whose indDeduzDeson is 1 (NT 2023.004: 0 or absent, the
// relief is informed but not taken off). Exception 1: direct billing of new vehicles (tpOp 2) leaves
// out vST, vFCPST and vIPIDevol. Exception 2: imports (a CFOP starting with 3) are not checked.
// Written from the rule text, independently of the gateway's computation (documents/nfe/domain).

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner.trim() ?? '';
const cents = (v: string) => Math.round(Number(v || '0') * 100);
const reais = (c: number) => (c / 100).toFixed(2);

interface ItemSums { deducted: number; pisSt: number; cofinsSt: number; directVehicle: boolean; importCfop: boolean }

function itemSums(inf: ElementSlice): ItemSums {
  const sums: ItemSums = { deducted: 0, pisSt: 0, cofinsSt: 0, directVehicle: false, importCfop: false };
  for (const det of sliceAll(inf.inner, 'det')) {
    const prod = el(det, 'prod');
    if (textIn(prod, 'CFOP').startsWith('3')) sums.importCfop = true;
    if (textIn(el(prod, 'veicProd'), 'tpOp') === '2') sums.directVehicle = true;
    const imposto = el(det, 'imposto');
    const icms = el(imposto, 'ICMS');
    if (textIn(icms, 'indDeduzDeson') === '1') sums.deducted += cents(textIn(icms, 'vICMSDeson'));
    const pisSt = el(imposto, 'PISST');
    if (textIn(pisSt, 'indSomaPISST') === '1') sums.pisSt += cents(textIn(pisSt, 'vPIS'));
    const cofinsSt = el(imposto, 'COFINSST');
    if (textIn(cofinsSt, 'indSomaCOFINSST') === '1') sums.cofinsSt += cents(textIn(cofinsSt, 'vCOFINS'));
  }
  return sums;
}

/** W16-10 (610): vNF against the sum of the values that make it up. Null when it matches. */
export function totalRejection(f: NfeFacts): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  const tot = el(el(inf, 'total'), 'ICMSTot');
  if (!inf || !tot) return null;
  const s = itemSums(inf);
  if (s.importCfop) return null;
  const v = (name: string) => cents(textIn(tot, name));
  let expected = v('vProd') - v('vDesc') - s.deducted + v('vFrete') + v('vSeg') + v('vOutro') + v('vII') + v('vIPI') + s.pisSt + s.cofinsSt;
  if (!s.directVehicle) expected += v('vST') + v('vFCPST') + v('vIPIDevol') + v('vICMSMonoReten');
  expected += cents(textIn(el(el(inf, 'total'), 'ISSQNtot'), 'vServ'));
  const vNF = cents(f.vNF);
  if (vNF === expected) return null;
  const relief = v('vICMSDeson');
  const why = relief > 0 && s.deducted !== relief ? `; vICMSDeson ${reais(relief)}, of which indDeduzDeson 1 deducts ${reais(s.deducted)}` : '';
  return { cStat: 610, xMotivo: motivo(610), detail: `vNF ${f.vNF} but its parts add up to ${reais(expected)}${why} (MOC W16-10)` };
}
