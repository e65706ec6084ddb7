import { mocRule } from '../fiscal/rules/rule-table.js';
import { attributeOf, sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { cnpjProblem, cpfProblem } from '../fiscal/tax-id.js';
import { fuelRejection } from './fuel-rules.js';
import { medicineRejection } from './medicine-rules.js';
import { vehicleRejection } from './vehicle-rules.js';
import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on products (I, H, GA), IPI (O), PIS (Q), COFINS (S), DIFAL (NA), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks. The words are each rule row's
// (cstat.json lacks several of these codes or words them for another rule), with the item number in the bracket.

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner.trim() ?? null;

function reject(rule: string, cStat: number, detail: string, nItem?: string): Rejection {
  const words = (mocRule(rule, cStat)?.message ?? `Rejeição: código ${cStat}`).replace(/\s*\[[^\]]*\]/g, '').trim();
  return { cStat, xMotivo: nItem === undefined ? words : `${words} [nItem:${nItem}]`, detail: `${detail} (MOC ${rule})` };
}

/** GTIN-8/12/13/14 check digit (GS1 mod 10, weights 3 and 1 from the right). */
function gtinDigitOk(gtin: string): boolean {
  const digits = [...gtin].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}
/** A GTIN is "informed" when it is neither SEM GTIN nor empty (MOC I03/I12: “SEM GTIN” ou Nulo). */
const specific = (g: string | null) => g !== null && g !== '' && g !== 'SEM GTIN';

interface Item {
  nItem: string;
  prod: ElementSlice | null;
  imposto: ElementSlice | null;
  text: (name: string) => string | null;
}

function itemsOf(inf: ElementSlice | null): Item[] {
  return (inf ? sliceAll(inf.inner, 'det') : []).map((det) => {
    const prod = el(det, 'prod');
    // prod's text leaves read in one pass (a slice per lookup re-scans each text it switches to: 990 items cost ~0.1 s).
    // The first of a name wins: prod's own fields come before its groups (DI, detExport, rastro, comb).
    const leaves = new Map<string, string>();
    for (const m of (prod?.inner ?? '').matchAll(/<(?:[A-Za-z0-9]+:)?([A-Za-z0-9]+)>([^<]*)<\/(?:[A-Za-z0-9]+:)?\1>/g)) if (!leaves.has(m[1]!)) leaves.set(m[1]!, m[2]!.trim());
    return { nItem: attributeOf(det, 'nItem') ?? '', prod, imposto: el(det, 'imposto'), text: (name: string) => leaves.get(name) ?? null };
  });
}

// ---- GA: authorized downloaders ----

/** MOC GA02-10 (323), GA03-10 (325), GA03-20 (326). */
function downloaderRejection(inf: ElementSlice | null): Rejection | null {
  const destCpf = textIn(el(inf, 'dest'), 'CPF');
  for (const a of inf ? sliceAll(inf.inner, 'autXML') : []) {
    const cnpj = textIn(a, 'CNPJ');
    const cpf = textIn(a, 'CPF');
    if (cnpj !== null && cnpjProblem(cnpj)) return reject('GA02-10', 323, `autXML/CNPJ ${cnpj} ${cnpjProblem(cnpj)}`);
    if (cpf !== null && cpfProblem(cpf)) return reject('GA03-10', 325, `autXML/CPF ${cpf} ${cpfProblem(cpf)}`);
    if (cpf !== null && cpf === destCpf) return reject('GA03-20', 326, `autXML/CPF ${cpf} is the recipient's`);
  }
  return null;
}

// ---- I: products ----

/** MOC I08-150 (725): the only CFOPs of an NFC-e. */
const NFCE_CFOPS = new Set(['5101', '5102', '5103', '5104', '5115', '5405', '5656', '5667', '5933']);

/** MOC I03-10 (611), I03-30 (883), I12-10 (612), I12-30 (885), I12-40 (886), I12-60 (888); I03-20/I12-20 (GS1 prefixes) need the portal's table. */
function gtinRejection(i: Item): Rejection | null {
  const cEAN = i.text('cEAN');
  const cEANTrib = i.text('cEANTrib');
  if (specific(cEAN) && !gtinDigitOk(cEAN!)) return reject('I03-10', 611, `cEAN ${cEAN} has a wrong check digit`, i.nItem);
  if (cEAN === '') return reject('I03-30', 883, 'cEAN is empty', i.nItem);
  if (specific(cEANTrib) && !gtinDigitOk(cEANTrib!)) return reject('I12-10', 612, `cEANTrib ${cEANTrib} has a wrong check digit`, i.nItem);
  if (specific(cEAN) && !specific(cEANTrib)) return reject('I12-30', 885, `cEAN ${cEAN} with cEANTrib "${cEANTrib}"`, i.nItem);
  if (specific(cEANTrib) && !specific(cEAN)) return reject('I12-40', 886, `cEANTrib ${cEANTrib} with cEAN "${cEAN}"`, i.nItem);
  if (cEANTrib === '') return reject('I12-60', 888, 'cEANTrib is empty', i.nItem);
  return null;
}

/** MOC I05-10 (777), I05-24 (471), I05e-10 (879), I05e-20 (489). */
function ncmRejection(i: Item, finNFe: string): Rejection | null {
  const ncm = i.text('NCM') ?? '';
  // I05-10: the full NCM (8 digits); "00" only for a service or an item with no goods (I05-24 says when).
  if (ncm.length !== 8 && ncm !== '00') return reject('I05-10', 777, `NCM ${ncm}`, i.nItem);
  if (ncm === '00' && finNFe !== '3' && !el(i.imposto, 'ISSQN')) return reject('I05-24', 471, 'NCM 00 in an item without ISSQN of a note that is not an adjustment', i.nItem);
  const cnpjFab = i.text('CNPJFab');
  if (i.text('indEscala') === 'N' && cnpjFab === null) return reject('I05e-10', 879, 'indEscala N without CNPJFab', i.nItem);
  if (cnpjFab !== null && cnpjProblem(cnpjFab)) return reject('I05e-20', 489, `CNPJFab ${cnpjFab} ${cnpjProblem(cnpjFab)}`, i.nItem);
  return null;
}

/** MOC I08-150 (725), I08-160 / I08-170 (374), NFC-e; I08-184 / I08-190 (701), NF-e. */
function cfopRejection(i: Item, mod: string, hasNfRef: boolean): Rejection | null {
  const cfop = i.text('CFOP') ?? '';
  const issqn = el(i.imposto, 'ISSQN') !== null;
  if (mod === '65') {
    if (!NFCE_CFOPS.has(cfop)) return reject('I08-150', 725, `CFOP ${cfop} in an NFC-e`, i.nItem);
    if (cfop === '5933' && !issqn) return reject('I08-160', 374, 'CFOP 5933 without ISSQN', i.nItem);
    if (cfop !== '5933' && issqn) return reject('I08-170', 374, `CFOP ${cfop} with ISSQN`, i.nItem);
    return null;
  }
  if ((cfop === '5929' || cfop === '6929') && !hasNfRef) return reject('I08-184', 701, `CFOP ${cfop} without NFref`, i.nItem);
  if ((cfop === '3503' || cfop === '7501') && !hasNfRef) return reject('I08-190', 701, `CFOP ${cfop} without NFref`, i.nItem);
  return null;
}

/** MOC I13-20 (854): GLP (cProdANP 210203001) taxed in a unit other than kg. */
function unitRejection(i: Item): Rejection | null {
  const anp = textIn(el(i.prod, 'comb'), 'cProdANP');
  const uTrib = i.text('uTrib') ?? '';
  return anp === '210203001' && uTrib.toLowerCase() !== 'kg' ? reject('I13-20', 854, `GLP with uTrib ${uTrib}`, i.nItem) : null;
}

const cents = (v: string | null) => Math.round(Number(v ?? '0') * 100);

/** MOC I17-10 (483), I17b-10 (774, NFC-e), I50-10 (336), I83-10 (877), I84-10 (870). */
function valueAndTraceRejection(i: Item, mod: string, idDest: string, today: string): Rejection | null {
  const vDesc = i.text('vDesc');
  if (vDesc !== null && cents(vDesc) > cents(i.text('vProd'))) return reject('I17-10', 483, `vDesc ${vDesc} > vProd ${i.text('vProd')}`, i.nItem);
  if (mod === '65' && i.text('indTot') === '0') return reject('I17b-10', 774, 'indTot 0 in an NFC-e', i.nItem);
  if (idDest !== '3' && el(i.prod, 'detExport')) return reject('I50-10', 336, `detExport with idDest ${idDest}`, i.nItem);
  for (const r of i.prod ? sliceAll(i.prod.inner, 'rastro') : []) {
    const dFab = textIn(r, 'dFab') ?? '';
    const dVal = textIn(r, 'dVal') ?? '';
    if (dFab > today) return reject('I83-10', 877, `dFab ${dFab} after ${today}`, i.nItem);
    if (dVal < dFab) return reject('I84-10', 870, `dVal ${dVal} before dFab ${dFab}`, i.nItem);
  }
  return null;
}

/** `day` (YYYY-MM-DD) moved by whole years and days. */
function shiftDay(day: string, years: number, days = 0): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Import declaration (DI) and export detail, model 55: MOC I23-10 (376), I23b-10 (330), I23d-10 (331),
 * I23d-20 (332), I23e-10 (333), I29a-10 (334), I51-10 (338).
 */
function importExportRejection(i: Item, today: string): Rejection | null {
  const cfop = i.text('CFOP') ?? '';
  // The earliest date anywhere in Brazil is the day before the UTC date: 5 years back from it.
  const fiveYearsAgo = shiftDay(today, -5, -1);
  for (const di of i.prod ? sliceAll(i.prod.inner, 'DI') : []) {
    const dDesemb = textIn(di, 'dDesemb') ?? '';
    if (dDesemb > today || dDesemb < fiveYearsAgo) return reject('I23-10', 376, `dDesemb ${dDesemb} (today ${today})`, i.nItem);
    if (textIn(di, 'tpViaTransp') === '1' && textIn(di, 'vAFRMM') === null) return reject('I23b-10', 330, 'DI by sea without vAFRMM');
    const onBehalf = ['2', '3'].includes(textIn(di, 'tpIntermedio') ?? '');
    const cnpj = textIn(di, 'CNPJ');
    // The layout later added CPF beside CNPJ (choice): either identifies the acquirer.
    if (onBehalf && cnpj === null && textIn(di, 'CPF') === null) return reject('I23d-10', 331, `tpIntermedio ${textIn(di, 'tpIntermedio')} without the acquirer's CNPJ`);
    if (cnpj !== null && cnpjProblem(cnpj)) return reject('I23d-20', 332, `DI/CNPJ ${cnpj} ${cnpjProblem(cnpj)}`);
    if (onBehalf && textIn(di, 'UFTerceiro') === null) return reject('I23e-10', 333, `tpIntermedio ${textIn(di, 'tpIntermedio')} without UFTerceiro`);
    if ((cfop === '3127' || cfop === '3211') && sliceAll(di.inner, 'adi').some((a) => textIn(a, 'nDraw') === null)) return reject('I29a-10', 334, `CFOP ${cfop}: an adi without nDraw`);
  }
  if ((cfop === '7127' || cfop === '7211') && !(i.prod ? sliceAll(i.prod.inner, 'detExport') : []).some((e) => textIn(e, 'nDraw') !== null)) {
    return reject('I51-10', 338, `CFOP ${cfop} without detExport/nDraw`);
  }
  return null;
}

// ---- NA: ICMS to the destination state (DIFAL) ----

const SOUTH_SOUTHEAST_BUT_ES = new Set(['SP', 'RJ', 'MG', 'PR', 'SC', 'RS']);
/** NA09-30: sale CFOPs (61xx, 64xx) are never returns of goods (the exception needs the CFOP table's indRetor): the rule is applied to them only. */
const saleCfop = (cfop: string) => /^6[14][0-9]{2}$/.test(cfop);

/** NA11-10: EC 87/2015 art. 99 ADCT, the destination state's share of the DIFAL by year (NT 2015.003). */
const interPart = (year: number) => (year <= 2016 ? 40 : year === 2017 ? 60 : year === 2018 ? 80 : 100);

/** Rounded to cents (*4: "arredondado para duas casas decimais, tolerância de R$ 0,01"). */
const product = (...factors: number[]) => Math.round(factors.reduce((a, b) => a * b, 1) * 100);
const offByMore = (informed: string | null, expected: number) => Math.abs(cents(informed) - expected) > 1;

interface Doc {
  mod: string;
  tpNF: string;
  finNFe: string;
  emitUf: string;
  destUf: string;
  entregaUf: string | null;
  retiradaUf: string | null;
  /** Year of the emission, or of the referenced note when finNFe <> 1 (NA11-10 observation). */
  shareYear: number;
}

/** MOC NA01-10 (807), NA09-10 / NA09-20 (697), NA09-30 (698), NA11-10 (699), NA13-10 (793), NA15-10 (815), NA17-10 (816). */
function difalRejection(i: Item, d: Doc): Rejection | null {
  const g = el(i.imposto, 'ICMSUFDest');
  if (!g) return null;
  if (d.mod === '65') return reject('NA01-10', 807, 'ICMSUFDest in an NFC-e', i.nItem);
  const icms = el(i.imposto, 'ICMS');
  const orig = (icms && /<(?:[A-Za-z0-9]+:)?orig>\s*([0-9])/.exec(icms.inner)?.[1]) ?? '';
  const inter = Number(textIn(g, 'pICMSInter'));
  const imported = ['1', '2', '3', '8'].includes(orig);
  if (inter === 4 && !imported) return reject('NA09-10', 697, `pICMSInter 4 with orig ${orig}`, i.nItem);
  if ((inter === 7 || inter === 12) && imported) return reject('NA09-20', 697, `pICMSInter ${inter} with orig ${orig}`, i.nItem);
  if ((inter === 7 || inter === 12) && d.tpNF === '1' && d.finNFe === '1' && saleCfop(i.text('CFOP') ?? '') && (d.entregaUf === null || d.entregaUf === d.emitUf) && (d.retiradaUf === null || d.retiradaUf === d.destUf)) {
    const expected = SOUTH_SOUTHEAST_BUT_ES.has(d.emitUf) && !SOUTH_SOUTHEAST_BUT_ES.has(d.destUf) ? 7 : 12;
    if (inter !== expected) return reject('NA09-30', 698, `pICMSInter ${inter} from ${d.emitUf} to ${d.destUf} (expected ${expected})`, i.nItem);
  }
  const part = Number(textIn(g, 'pICMSInterPart'));
  if (part !== interPart(d.shareYear)) return reject('NA11-10', 699, `pICMSInterPart ${part} in ${d.shareYear} (expected ${interPart(d.shareYear)})`, i.nItem);
  const vFCP = textIn(g, 'vFCPUFDest');
  if (vFCP !== null) {
    const expected = product(Number(textIn(g, 'vBCFCPUFDest') ?? '0'), Number(textIn(g, 'pFCPUFDest') ?? '0') / 100);
    if (offByMore(vFCP, expected)) return reject('NA13-10', 793, `vFCPUFDest ${vFCP}, calculated ${(expected / 100).toFixed(2)}`, i.nItem);
  }
  const vBC = Number(textIn(g, 'vBCUFDest'));
  const diff = (Number(textIn(g, 'pICMSUFDest')) - inter) / 100;
  const vDest = textIn(g, 'vICMSUFDest');
  const expectedDest = product(vBC, diff, part / 100);
  if (offByMore(vDest, expectedDest)) return reject('NA15-10', 815, `vICMSUFDest ${vDest}, calculated ${(expectedDest / 100).toFixed(2)}`, i.nItem);
  const vRemet = textIn(g, 'vICMSUFRemet');
  const expectedRemet = product(vBC, diff) - cents(vDest);
  if (offByMore(vRemet, expectedRemet)) return reject('NA17-10', 816, `vICMSUFRemet ${vRemet}, calculated ${(expectedRemet / 100).toFixed(2)}`, i.nItem);
  return null;
}

// ---- O, Q, S: IPI, PIS, COFINS ----

/** MOC O09-10: the cEnq range each IPINT CST of exemption, immunity or suspension goes with. */
const CENQ_RANGES: Record<string, [number, number]> = { '02': [301, 399], '52': [301, 399], '04': [1, 99], '54': [1, 99], '05': [101, 199], '55': [101, 199] };

/**
 * MOC O01-10 (742, NFC-e), O09-10 (388), Q01-20 (745), S01-20 (748). A credit or debit note (finNFe 5/6)
 * carries no PIS nor COFINS: NT 2025.002-RTC B25-80 forbids them (adjustment-note-rules.ts).
 */
function federalTaxRejection(i: Item, mod: string, finNFe: string): Rejection | null {
  const ipi = el(i.imposto, 'IPI');
  if (mod === '65') return ipi ? reject('O01-10', 742, 'IPI in an NFC-e') : null;
  if (ipi) {
    const cst = textIn(el(ipi, 'IPINT'), 'CST');
    const range = cst === null ? undefined : CENQ_RANGES[cst];
    const cEnq = textIn(ipi, 'cEnq') ?? '';
    if (range && !(/^[0-9]{3}$/.test(cEnq) && Number(cEnq) >= range[0] && Number(cEnq) <= range[1])) {
      return reject('O09-10', 388, `IPINT CST ${cst} with cEnq ${cEnq}`, i.nItem);
    }
  }
  if (finNFe === '5' || finNFe === '6') return null;
  if (!el(i.imposto, 'PIS')) return reject('Q01-20', 745, `item ${i.nItem} without PIS`);
  if (!el(i.imposto, 'COFINS')) return reject('S01-20', 748, `item ${i.nItem} without COFINS`);
  return null;
}

/** Year of the first referenced NF-e's key (AAMM at positions 3-6), else of dhEmi. */
function shareYear(inf: ElementSlice | null, f: NfeFacts): number {
  const ref = f.finNFe !== '1' ? textIn(el(el(inf, 'ide'), 'NFref'), 'refNFe') : null;
  return ref && /^[0-9]{6}/.test(ref) ? 2000 + Number(ref.slice(2, 4)) : Number(f.dhEmi.slice(0, 4));
}

/** The first of these rules `f` breaks, or null. */
export function itemRuleRejection(f: NfeFacts, ctx: ContentContext): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  const ide = el(inf, 'ide');
  const downloader = downloaderRejection(inf);
  if (downloader) return downloader;
  const items = itemsOf(inf);
  // MOC H02-10 (927): nItem in increasing, consecutive order from 1.
  const out = items.findIndex((i, k) => i.nItem !== String(k + 1));
  if (out >= 0) return reject('H02-10', 927, `det ${out + 1} has nItem ${items[out]!.nItem}`);
  const idDest = textIn(ide, 'idDest') ?? '1';
  const hasNfRef = el(ide, 'NFref') !== null;
  const today = ctx.now.toISOString().slice(0, 10); // UTC: never before the date anywhere in Brazil
  const doc: Doc = {
    mod: f.mod,
    tpNF: textIn(ide, 'tpNF') ?? '',
    finNFe: f.finNFe,
    emitUf: textIn(el(el(inf, 'emit'), 'enderEmit'), 'UF') ?? '',
    destUf: textIn(el(el(inf, 'dest'), 'enderDest'), 'UF') ?? '',
    entregaUf: textIn(el(inf, 'entrega'), 'UF'),
    retiradaUf: textIn(el(inf, 'retirada'), 'UF'),
    shareYear: shareYear(inf, f),
  };
  for (const i of items) {
    const r =
      gtinRejection(i) ??
      ncmRejection(i, f.finNFe) ??
      cfopRejection(i, f.mod, hasNfRef) ??
      unitRejection(i) ??
      fuelRejection(i.prod, i.nItem, f.mod, i.text('CFOP') ?? '', i.imposto) ??
      medicineRejection(i.prod, i.nItem, f.mod) ??
      vehicleRejection(i.prod, i.nItem, f.mod, doc.entregaUf) ??
      valueAndTraceRejection(i, f.mod, idDest, today) ??
      (f.mod === '55' ? importExportRejection(i, today) : null) ??
      difalRejection(i, doc) ??
      federalTaxRejection(i, f.mod, f.finNFe);
    if (r) return r;
  }
  return null;
}
