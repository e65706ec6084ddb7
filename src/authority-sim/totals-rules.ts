import { isStateRegistrationValid } from '../fiscal/layout/state-registration.js';
import { municipality } from '../fiscal/layout/ibge.js';
import { mocRule } from '../fiscal/rules/rule-table.js';
import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { cnpjProblem } from '../fiscal/tax-id.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on totals (W), billing (Y), payments (YA), intermediary (YB), transport (X), technical responsible (ZD), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks.

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner.trim() ?? '';
const cents = (v: string) => Math.round(Number(v || '0') * 100);
const reais = (c: number) => (c / 100).toFixed(2);

/** The words of the rule: the code table's (webservices/cstat.json) when it has them, else the MOC row's. */
function words(rule: string, cStat: number): string {
  const m = motivo(cStat);
  // 288 and 722 have other words in cstat.json (another rule's); the MOC row's are these rules'.
  const text = /código \d+$/.test(m) || cStat === 288 || cStat === 722 ? (mocRule(rule, cStat)?.message ?? m) : m;
  return text.replace(/\s*\[[^\]]*\]/g, '').trim();
}
const reject = (rule: string, cStat: number, detail: string, suffix = ''): Rejection => ({ cStat, xMotivo: words(rule, cStat) + suffix, detail: `${detail} (MOC ${rule})` });

// ---- W: each total of ICMSTot against the sum of the items' values ----

/** One item as the sums read it: its ICMS group, the ICMSUFDest group, prod, imposto and impostoDevol. */
interface ItemParts { prod: ElementSlice | null; imposto: ElementSlice | null; icms: ElementSlice | null; difal: ElementSlice | null; devol: ElementSlice | null }

function itemParts(det: ElementSlice): ItemParts {
  const imposto = el(det, 'imposto');
  return { prod: el(det, 'prod'), imposto, icms: el(imposto, 'ICMS'), difal: el(imposto, 'ICMSUFDest'), devol: el(det, 'impostoDevol') };
}

/** CST 40, 41, 50: no ICMS of its own counted in vICMS (W04-10). */
const icmsCode = (p: ItemParts) => /<(?:CST|CSOSN)>([0-9]+)</.exec(p.icms?.inner ?? '')?.[1] ?? '';

interface TotalRule { rule: string; cStat: number; total: string; models: readonly string[]; item: (p: ItemParts) => string }

const BOTH = ['55', '65'] as const;
const NFE = ['55'] as const;

// In the MOC's field order (W03 ... W16a); the values named by the rule's ids (N15, N17, I15, Q09...).
const TOTAL_RULES: readonly TotalRule[] = [
  { rule: 'W03-10', cStat: 531, total: 'vBC', models: BOTH, item: (p) => textIn(p.icms, 'vBC') },
  { rule: 'W04-10', cStat: 532, total: 'vICMS', models: BOTH, item: (p) => (['40', '41', '50'].includes(icmsCode(p)) ? '' : textIn(p.icms, 'vICMS')) },
  { rule: 'W04a-10', cStat: 795, total: 'vICMSDeson', models: BOTH, item: (p) => textIn(p.icms, 'vICMSDeson') },
  { rule: 'W04b-10', cStat: 861, total: 'vFCP', models: BOTH, item: (p) => textIn(p.icms, 'vFCP') },
  { rule: 'W04c-10', cStat: 798, total: 'vFCPUFDest', models: NFE, item: (p) => textIn(p.difal, 'vFCPUFDest') },
  { rule: 'W04e-10', cStat: 799, total: 'vICMSUFDest', models: NFE, item: (p) => textIn(p.difal, 'vICMSUFDest') },
  { rule: 'W04g-10', cStat: 800, total: 'vICMSUFRemet', models: NFE, item: (p) => textIn(p.difal, 'vICMSUFRemet') },
  { rule: 'W05-10', cStat: 533, total: 'vBCST', models: BOTH, item: (p) => textIn(p.icms, 'vBCST') },
  { rule: 'W06-10', cStat: 534, total: 'vST', models: BOTH, item: (p) => textIn(p.icms, 'vICMSST') },
  { rule: 'W06a-10', cStat: 862, total: 'vFCPST', models: NFE, item: (p) => textIn(p.icms, 'vFCPST') },
  { rule: 'W06b-10', cStat: 859, total: 'vFCPSTRet', models: NFE, item: (p) => textIn(p.icms, 'vFCPSTRet') },
  { rule: 'W08-10', cStat: 535, total: 'vFrete', models: BOTH, item: (p) => textIn(p.prod, 'vFrete') },
  { rule: 'W09-10', cStat: 536, total: 'vSeg', models: BOTH, item: (p) => textIn(p.prod, 'vSeg') },
  { rule: 'W10-10', cStat: 537, total: 'vDesc', models: BOTH, item: (p) => textIn(p.prod, 'vDesc') },
  { rule: 'W11-10', cStat: 601, total: 'vII', models: NFE, item: (p) => textIn(el(p.imposto, 'II'), 'vII') },
  { rule: 'W12-10', cStat: 538, total: 'vIPI', models: NFE, item: (p) => textIn(el(p.imposto, 'IPI'), 'vIPI') },
  { rule: 'W12a-10', cStat: 863, total: 'vIPIDevol', models: NFE, item: (p) => textIn(el(p.devol, 'IPI'), 'vIPIDevol') },
  // W13-10/W14-10 (NT 2011.004): only the items subject to ICMS (with the ICMS group) count.
  { rule: 'W13-10', cStat: 602, total: 'vPIS', models: BOTH, item: (p) => (p.icms ? textIn(el(p.imposto, 'PIS'), 'vPIS') : '') },
  { rule: 'W14-10', cStat: 603, total: 'vCOFINS', models: BOTH, item: (p) => (p.icms ? textIn(el(p.imposto, 'COFINS'), 'vCOFINS') : '') },
  { rule: 'W15-10', cStat: 604, total: 'vOutro', models: BOTH, item: (p) => textIn(p.prod, 'vOutro') },
  // W16a-10: vTotTrib is optional in the item and in the totals; absent counts as 0.
  { rule: 'W16a-10', cStat: 685, total: 'vTotTrib', models: BOTH, item: (p) => textIn(p.imposto, 'vTotTrib') },
];

/** W03-10 ... W16a-10: the first total of ICMSTot that is not the sum of its items' values (absent = 0). */
function sumRejection(mod: string, tot: ElementSlice, items: readonly ItemParts[]): Rejection | null {
  for (const r of TOTAL_RULES) {
    if (!r.models.includes(mod)) continue;
    const sum = items.reduce((acc, p) => acc + cents(r.item(p)), 0);
    const total = cents(textIn(tot, r.total));
    if (sum !== total) return reject(r.rule, r.cStat, `ICMSTot/${r.total} ${reais(total)} but the items add up to ${reais(sum)}`);
  }
  return null;
}

// W16-30 (780): the NFC-e's ceiling, R$ 200.000,00 unless the state sets another (the default: the
// simulator knows no state's own). W16-40 (750): above R$ 10.000,00 the consumer is identified.
// W16-50/60 (751/752, name and address) are the state's choice (MOC: "opcional, a critério da UF"): not played.
const NFCE_CEILING = 20_000_000;
const NFCE_IDENTIFIED_ABOVE = 1_000_000;

function nfceValueRejection(f: NfeFacts): Rejection | null {
  const vNF = cents(f.vNF);
  if (vNF > NFCE_CEILING) return reject('W16-30', 780, `vNF ${f.vNF} above R$ 200000.00`, ' [Limite: R$ 200.000,00]');
  if (vNF > NFCE_IDENTIFIED_ABOVE && (f.dest === null || f.dest.kind === null)) {
    return reject('W16-40', 750, `vNF ${f.vNF} above R$ 10000.00 without dest CNPJ, CPF or idEstrangeiro`, ' [Limite: R$ 10.000,00]');
  }
  // W16-50 (751, xNome) is optional, the state's choice: not played.
  if (vNF > NFCE_IDENTIFIED_ABOVE && !/<(?:[A-Za-z0-9]+:)?enderDest[\s>]/.test(f.xml)) {
    return reject('W16-60', 752, `vNF ${f.vNF} above R$ 10000.00 without dest/enderDest`, ' [Limite: R$ 10.000,00]');
  }
  return null;
}

// ---- X: transport ----

/**
 * MOC X02-20 (868, model 55): an interstate operation (idDest 2) carries neither veicTransp nor reboque
 * (Obs. 1, the same for internal operations between municipalities, is the state's choice: not played).
 * X07-20 (544): the carrier's IE, unless ISENTO, valid for the carrier's UF (without UF: X07-10, 559).
 * X17-10 (288): retTransp/cMunFG, when given, an IBGE municipality. X04-10 (362, fuel sales) and
 * X16-10 (722) need the CFOP table's indComb/indTransp, which the simulator does not hold: not played.
 * Applied with the other transp rules (goods-group-rules.ts), after the items' (I08, NA01) rules.
 */
export function transportRejection(mod: string, ide: ElementSlice | null, transp: ElementSlice | null): Rejection | null {
  if (mod === '55' && textIn(ide, 'idDest') === '2' && (el(transp, 'veicTransp') || el(transp, 'reboque'))) {
    return reject('X02-20', 868, 'veicTransp or reboque in an interstate operation');
  }
  const carrier = el(transp, 'transporta');
  const ie = textIn(carrier, 'IE');
  const uf = textIn(carrier, 'UF');
  if (ie && ie !== 'ISENTO' && uf && !isStateRegistrationValid(uf, ie)) return reject('X07-20', 544, `transporta/IE ${ie} is not a valid ${uf} registration`);
  const fg = textIn(el(transp, 'retTransp'), 'cMunFG');
  if (mod === '55' && fg && !municipality(fg)) return reject('X17-10', 288, `retTransp/cMunFG ${fg} is not an IBGE municipality`);
  return null;
}

// ---- Y: billing ----

/** MOC Y01-10 (760, NFC-e), Y05-10 (901), Y08-10 (852), Y09-20 (900), in the MOC's order. */
function billingRejection(f: NfeFacts, inf: ElementSlice): Rejection | null {
  const cobr = el(inf, 'cobr');
  if (!cobr) return null;
  if (f.mod === '65') return reject('Y01-10', 760, 'NFC-e with cobr');
  const fat = el(cobr, 'fat');
  // Y05-10: the optional values not given count as zero.
  if (fat && cents(textIn(fat, 'vDesc')) > cents(textIn(fat, 'vOrig'))) return reject('Y05-10', 901, `fat/vDesc ${textIn(fat, 'vDesc')} above vOrig ${textIn(fat, 'vOrig') || '0'}`);
  const issued = f.dhEmi.slice(0, 10);
  const dups = sliceAll(cobr.inner, 'dup');
  for (const [i, d] of dups.entries()) {
    // Y08-10: three digits, sequential and consecutive: 001, 002, 003...
    const nDup = textIn(d, 'nDup');
    if (nDup !== String(i + 1).padStart(3, '0')) return reject('Y08-10', 852, `dup ${i + 1} has nDup "${nDup}"`, `[nOcor:${i + 1}]`);
  }
  for (const [i, d] of dups.entries()) {
    const due = textIn(d, 'dVenc');
    if (!due || due < issued) return reject('Y09-20', 900, `dup ${i + 1} due ${due || '(none)'} before the emission date ${issued}`, `[nOcor:${i + 1}]`);
  }
  return null;
}

// ---- YA: payments ----

/** Card rules do not apply in production to notes issued before 2016-04-01 (YA04-10, YA05-10 exception). */
const cardRulesApply = (f: NfeFacts) => !(f.tpAmb === '1' && f.dhEmi.slice(0, 10) < '2016-04-01');

function methodRejection(f: NfeFacts): Rejection | null {
  const methods = f.paymentMethods;
  // YA02-04 (871, model 55): an adjustment or return note is paid "sem pagamento" (90).
  if (f.mod === '55' && (f.finNFe === '3' || f.finNFe === '4') && methods.some((t) => t !== '90')) {
    return reject('YA02-04', 871, `finNFe ${f.finNFe} with tPag ${methods.find((t) => t !== '90')}`);
  }
  if (f.mod !== '65') return null;
  // YA02-10 (857), YA02-40 (899), YA02-50 (436): an NFC-e is paid neither by duplicata mercantil, nor "sem pagamento", nor "outros".
  if (methods.includes('14')) return reject('YA02-10', 857, 'NFC-e with tPag 14');
  if (methods.includes('90')) return reject('YA02-40', 899, 'NFC-e with tPag 90');
  if (methods.includes('99')) return reject('YA02-50', 436, 'NFC-e with tPag 99');
  return null;
}

/** YA03-30 (904), YA04-10 (391, NFC-e), YA05-10 (392), YA05-20 (437), detPag by detPag. */
function detPagRejection(f: NfeFacts, pag: ElementSlice): Rejection | null {
  for (const d of sliceAll(pag.inner, 'detPag')) {
    const tPag = textIn(d, 'tPag');
    if (tPag === '90' && cents(textIn(d, 'vPag')) !== 0) return reject('YA03-30', 904, `tPag 90 with vPag ${textIn(d, 'vPag')}`);
    const card = el(d, 'card');
    if (f.mod === '65' && (tPag === '03' || tPag === '04') && !card && cardRulesApply(f)) return reject('YA04-10', 391, `tPag ${tPag} without card`);
    if (!card) continue;
    if (textIn(card, 'tpIntegra') === '1' && (!textIn(card, 'CNPJ') || !textIn(card, 'cAut')) && cardRulesApply(f)) {
      return reject('YA05-10', 392, 'card with tpIntegra 1 without CNPJ and cAut');
    }
    const cnpj = el(card, 'CNPJ');
    const bad = cnpj && (cnpj.inner.trim() === '' ? 'empty' : cnpjProblem(cnpj.inner.trim()));
    if (bad) return reject('YA05-20', 437, `card/CNPJ ${cnpj.inner} ${bad}`);
  }
  return null;
}

// ---- YB: intermediary (model 55 in the MOC's table) ----

/** MOC YB01-10 (438), YB01-20 (439), YB02-10 (440), NT 2020.006. */
function intermediaryRejection(ide: ElementSlice | null, inf: ElementSlice): Rejection | null {
  const ind = textIn(ide, 'indIntermed');
  const m = el(inf, 'infIntermed');
  if (ind === '1' && !m) return reject('YB01-10', 438, 'indIntermed 1 without infIntermed');
  if (ind !== '' && ind !== '1' && m) return reject('YB01-20', 439, `infIntermed with indIntermed ${ind}`);
  const cnpj = m ? textIn(m, 'CNPJ') : null;
  const bad = cnpj !== null && (cnpj === '' ? 'empty' : cnpjProblem(cnpj));
  return bad ? reject('YB02-10', 440, `infIntermed/CNPJ ${cnpj} ${bad}`) : null;
}

/** The first of these rules `f` breaks, or null: totals (W), billing (Y), payments (YA), intermediary (YB); transport (X): transportRejection. */
export function totalsPaymentRejection(f: NfeFacts, _ctx: ContentContext): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  const tot = el(el(inf, 'total'), 'ICMSTot');
  if (!inf || !tot) return null;
  const ide = el(inf, 'ide');
  const items = sliceAll(inf.inner, 'det').map(itemParts);
  const pag = el(inf, 'pag');
  return (
    sumRejection(f.mod, tot, items) ??
    (f.mod === '65' ? nfceValueRejection(f) : null) ??
    billingRejection(f, inf) ??
    methodRejection(f) ??
    (pag ? detPagRejection(f, pag) : null) ??
    (f.mod === '55' ? intermediaryRejection(ide, inf) : null)
  );
}
