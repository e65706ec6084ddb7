import { mocRule } from '../fiscal/rules/rule-table.js';
import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';

// The item rules NT 2023.001 (v1.60, section 4.3) created for the monophase ICMS groups, from the rule text
// (assets/fiscal/rules/moc-anexo-i.json, entries of source "NT 2023.001"; docs/fiscal/icms-monophase.md).
// Not here: N12-100/N12-110 (959/960) need the table of fuels subject to the monophase regime, which the
// project does not hold; N38-10/N40-10/N44-10 were revoked (v1.10) and N45-10 excluded (v1.20).

/** The diesel B codes N41-10 leaves out and N41-20 names (retention at a third of the product). */
const N41_20_ANP_CODES = new Set(['420102004', '420102005', '420105001', '820101003', '820101011', '820101012', '820101013', '820101026', '820101027', '820101032', '820101033', '820101034']);

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const leaf = (within: ElementSlice | null, name: string): string | null => el(within, name)?.inner.trim() ?? null;

/** The rule row's words, the item number in its bracket. */
const rejectRow = (rule: string, cStat: number, nItem: string, detail: string): Rejection => ({
  cStat,
  xMotivo: `${(mocRule(rule, cStat)?.message ?? '').replace(/\s*\[[^\]]*\]\s*$/, '').trim()} [nItem:${nItem}]`,
  detail: `${detail} (NT 2023.001 ${rule})`,
});

const scaled4 = (v: string) => BigInt(Math.round(Number(v) * 10_000));
/** (*4): quantity x ad rem rate (x factor, scale 4), rounded to two decimals, in cents. */
function product(q: string, rate: string, factor4 = 10_000n): bigint {
  const raw = scaled4(q) * scaled4(rate) * factor4; // scale 12
  return (raw + 5_000_000_000n) / 10_000_000_000n;
}
const cents = (v: string) => BigInt(Math.round(Number(v) * 100));
/** (*4): a tolerance of R$ 0.01 either way. */
const differs = (value: string, expected: bigint) => {
  const d = cents(value) - expected;
  return d > 1n || d < -1n;
};

interface MonoItem {
  nItem: string;
  cst: string;
  group: ElementSlice | null;
  anp: string;
}

function monoItems(xml: string): MonoItem[] {
  const out: MonoItem[] = [];
  for (const det of sliceAll(xml, 'det')) {
    const icms = el(el(det, 'imposto'), 'ICMS');
    const tag = icms ? /^\s*<(?:[A-Za-z0-9]+:)?(ICMS(?:02|15|53|61))[\s>]/.exec(icms.inner)?.[1] : undefined;
    if (!tag) continue;
    const nItem = /\snItem\s*=\s*"([^"]*)"/.exec(det.outer.slice(0, det.outer.indexOf('>')))?.[1] ?? '';
    out.push({ nItem, cst: tag.slice(4), group: el(icms, tag), anp: leaf(el(el(det, 'prod'), 'comb'), 'cProdANP') ?? '' });
  }
  return out;
}

/** NT 2023.001 N43a-10 (769, models 55 and 65): CST 61 needs qBCMonoRet. */
function retainedQuantityRejection(i: MonoItem): Rejection | null {
  return i.cst === '61' && leaf(i.group, 'qBCMonoRet') === null ? rejectRow('N43a-10', 769, i.nItem, 'ICMS61 without qBCMonoRet') : null;
}

/** NT 2023.001 N37a-10 (767), N39a-10 (768), N39-10 (962), N41-10 / N41-20 (964): model 55 only. */
function model55Rejection(finNFe: string, i: MonoItem): Rejection | null {
  const qBCMono = leaf(i.group, 'qBCMono');
  if (i.cst !== '61' && qBCMono === null) return rejectRow('N37a-10', 767, i.nItem, `ICMS${i.cst} without qBCMono`);
  const qReten = leaf(i.group, 'qBCMonoReten');
  if (i.cst === '15' && qReten === null) return rejectRow('N39a-10', 768, i.nItem, 'ICMS15 without qBCMonoReten');
  if (finNFe !== '1') return null;
  if ((i.cst === '02' || i.cst === '15') && qBCMono !== null) {
    const expected = product(qBCMono, leaf(i.group, 'adRemICMS') ?? '0');
    const v = leaf(i.group, 'vICMSMono') ?? '';
    if (differs(v, expected)) return rejectRow('N39-10', 962, i.nItem, `vICMSMono ${v}, qBCMono x adRemICMS ${expected}`);
  }
  if (i.cst === '15' && qReten !== null) {
    // N41-20: for the diesel B codes it lists, the retention is a third (0.3333) of the product.
    const third = N41_20_ANP_CODES.has(i.anp);
    const expected = product(qReten, leaf(i.group, 'adRemICMSReten') ?? '0', third ? 3_333n : 10_000n);
    const v = leaf(i.group, 'vICMSMonoReten') ?? '';
    if (differs(v, expected)) return rejectRow(third ? 'N41-20' : 'N41-10', 964, i.nItem, `vICMSMonoReten ${v}, expected ${expected} cents`);
  }
  return null;
}

/** The first NT 2023.001 item rule `f` breaks, or null. */
export function monoRejection(f: NfeFacts): Rejection | null {
  const finNFe = leaf(el(sliceElement(f.xml, 'infNFe'), 'ide'), 'finNFe') ?? '';
  for (const i of monoItems(f.xml)) {
    const r = retainedQuantityRejection(i) ?? (f.mod === '55' ? model55Rejection(finNFe, i) : null);
    if (r) return r;
  }
  return null;
}
