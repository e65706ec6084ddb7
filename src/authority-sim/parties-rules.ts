import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { accessKeyCheckDigit } from '../fiscal/layout/access-key.js';
import { municipality, ufCode } from '../fiscal/layout/ibge.js';
import { ufAbbreviation } from '../fiscal/sefaz/endpoints.js';
import { isStateRegistrationValid } from '../fiscal/layout/state-registration.js';
import { mocRule } from '../fiscal/rules/rule-table.js';
import { cnpjCheckDigits, isValidCpf } from '../kernel/tax-id.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { ContentContext, Rejection } from './nfe-rules.js';

// MOC 7.0 Anexo I rules on emitter (C), recipient (E) and referenced documents (BA), written from the rule text
// (assets/fiscal/rules/moc-anexo-i.json), independently of the gateway's own checks. In the MOC's order:
// references (BA), issuer (C), recipient (E).

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner ?? '';

/** The MOC row's words (these codes' words in cstat.json are often another rule's), placeholders dropped. */
const words = (rule: string, cStat: number) => (mocRule(rule, cStat)?.message ?? motivo(cStat)).replace(/\s*\[[^\]]*\]/g, '').trim();
const reject = (rule: string, cStat: number, detail: string, suffix = ''): Rejection => ({ cStat, xMotivo: words(rule, cStat) + suffix, detail: `${detail} (MOC ${rule})` });

/** CNPJ "com zeros, nulo ou DV inválido" (C02-10, E02-10): the check digits of the 2026 alphanumeric form too. */
const badCnpj = (v: string) => !/^[0-9A-Z]{12}[0-9]{2}$/.test(v) || /^0+$/.test(v) || cnpjCheckDigits(v.slice(0, 12)) !== v.slice(12);

/** The parts of the note these rules read. */
interface View {
  mod: string;
  ide: ElementSlice | null;
  emit: ElementSlice | null;
  dest: ElementSlice | null;
  inf: ElementSlice;
}

/** The first of these rules `f` breaks, or null. */
export function partyRejection(f: NfeFacts, ctx: ContentContext): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  if (!inf) return null;
  const v: View = { mod: f.mod, ide: el(inf, 'ide'), emit: el(inf, 'emit'), dest: el(inf, 'dest'), inf };
  const enderDest = el(v.dest, 'enderDest');
  return (
    referenceRejection(f, v, ctx.now) ??
    issuerRejection(f, v) ??
    recipientIdRejection(v) ??
    cityRejection(enderDest, [274, 'E10-10'], [275, 'E10-20']) ??
    abroadCityRejection(v.mod, enderDest) ??
    recipientStateRejection(v) ??
    countryRejection(v) ??
    recipientIeRejection(f, v)
  );
}

/**
 * BA01-10 (708): an NFC-e references nothing. Each refNFe of an NF-e, in order: BA02-10 (547) check digit, BA02-14 (522) UF,
 * BA02-20/24 (524) year and month, BA02-30 (552) CNPJ (series 0-909) or CPF (910-969), BA02-34 (679) model, BA02-40 (683)
 * number, BA02-44 (680) given twice, BA02-50 (316) this note's own key. BA02-10..44 are optional rules of every state's.
 */
function referenceRejection(f: NfeFacts, v: View, now: Date): Rejection | null {
  const refs = sliceAll(v.ide?.inner ?? '', 'NFref');
  if (v.mod === '65') return refs.length > 0 ? reject('BA01-10', 708, `NFC-e with ${refs.length} NFref`) : null;
  const seen = new Set<string>();
  for (const [i, r] of refs.entries()) {
    const key = el(r, 'refNFe')?.inner;
    if (key === undefined) continue;
    const n = `[nOcor:${i + 1}]`;
    const refuse = (rule: string, cStat: number, what: string) => reject(rule, cStat, `refNFe ${i + 1} ${key}: ${what}`, n);
    if (accessKeyCheckDigit(key.slice(0, 43)) !== Number(key[43])) return refuse('BA02-10', 547, 'wrong check digit');
    if (!ufAbbreviation(key.slice(0, 2))) return refuse('BA02-14', 522, `UF code ${key.slice(0, 2)}`);
    const yy = Number(key.slice(2, 4));
    if (yy < 6 || yy > now.getUTCFullYear() % 100) return refuse('BA02-20', 524, `year ${key.slice(2, 4)}`);
    const mm = Number(key.slice(4, 6));
    if (mm < 1 || mm > 12) return refuse('BA02-24', 524, `month ${key.slice(4, 6)}`);
    const serie = Number(key.slice(22, 25));
    const id = key.slice(6, 20);
    if ((serie <= 909 && badCnpj(id)) || (serie >= 910 && serie <= 969 && !validCpfInKey(id))) return refuse('BA02-30', 552, `issuer ${id} with series ${serie}`);
    if (!['55', '65', '59'].includes(key.slice(20, 22))) return refuse('BA02-34', 679, `model ${key.slice(20, 22)}`);
    if (/^0+$/.test(key.slice(25, 34))) return refuse('BA02-40', 683, 'number zero');
    if (seen.has(key)) return refuse('BA02-44', 680, 'given twice');
    seen.add(key);
    if (key === f.accessKeyFromId) return refuse('BA02-50', 316, 'this note\'s own key');
  }
  return null;
}

/** BA02-30: a CPF in a key (three zeros, then the CPF), not zeros and with right check digits. */
// (a CPF of one repeated digit has right check digits: only zeros are refused here, not 111... as in E03-10)
const validCpfInKey = (id: string) => id.startsWith('000') && !/^0+$/.test(id) && (/^(\d)\1{10}$/.test(id.slice(3)) || isValidCpf(id.slice(3)));

/** C02-10 (207), C02-30 (503), C02a-04 (337), C02a-08 (652), C10-10/20 (272/273), C12-10 (247), C17-30 (554), C18-10..40 (718, 347, 211, 363). */
function issuerRejection(f: NfeFacts, v: View): Rejection | null {
  const { emit, mod } = v;
  const serie = Number(f.serie);
  const cnpj = el(emit, 'CNPJ');
  if (cnpj) {
    if (badCnpj(cnpj.inner)) return reject('C02-10', 207, `emit/CNPJ ${cnpj.inner}`);
    if (serie > 909) return reject('C02-30', 503, `issuer with CNPJ in series ${f.serie}, outside 000-909`);
  }
  if (el(emit, 'CPF')) {
    if (mod === '65') return reject('C02a-04', 337, 'NFC-e issued by a CPF');
    // C02a-08 (652): the MOC's rule, "opcional a critério da UF" in its note; the simulator's states apply it,
    // so C02a-10 (495), C02a-14 (407) and C02a-20 (401) on a CPF issuer never come into play here.
    return reject('C02a-08', 652, 'NF-e issued by a CPF');
  }
  const enderEmit = el(emit, 'enderEmit');
  const city = cityRejection(enderEmit, [272, 'C10-10'], [273, 'C10-20']);
  if (city) return city;
  const uf = textIn(enderEmit, 'UF');
  // The simulator answers every state's web service; the one addressed is the lot's cUF (B02-10, 226).
  if (ufCode(uf) !== f.cUF) return reject('C12-10', 247, `enderEmit/UF ${uf} but the web service of cUF ${f.cUF}`);
  const ie = textIn(emit, 'IE');
  if (ie === 'ISENTO' && (mod === '65' || serie < 890 || serie > 919)) return reject('C17-30', 554, `emit/IE ISENTO in a model ${mod} note of series ${f.serie}`);
  const iest = el(emit, 'IEST')?.inner;
  if (iest === undefined) return null;
  if (mod === '65') return reject('C18-10', 718, `NFC-e with emit/IEST ${iest}`);
  const idDest = textIn(v.ide, 'idDest');
  // C18-14 (347): IEST in an internal or foreign operation (its exception is a state's choice, not taken).
  if (idDest === '1' || idDest === '3') return reject('C18-14', 347, `emit/IEST with idDest ${idDest}`);
  // C18-30 (211): valid for the recipient's UF, the delivery place's in a direct billing of new vehicles (veicProd/tpOp 2;
  // without entrega/UF that note is C18-20's, 478, vehicle-rules.ts).
  const directBilling = /<(?:[A-Za-z0-9]+:)?tpOp>\s*2\s*</.test(v.inf.inner);
  const entregaUf = textIn(el(v.inf, 'entrega'), 'UF');
  const destUf = directBilling ? entregaUf : textIn(el(v.dest, 'enderDest'), 'UF');
  if (!(directBilling && entregaUf === '') && !isStateRegistrationValid(destUf, iest)) return reject('C18-30', 211, `emit/IEST ${iest} is not a valid ${destUf} registration`);
  const destIe = textIn(v.dest, 'IE');
  if (iest === ie || (destIe !== '' && iest === destIe)) return reject('C18-40', 363, `emit/IEST ${iest} equals the ${iest === ie ? 'issuer' : 'recipient'}'s IE`);
  return null;
}

/** E01-20 (787), E02-10 (208), E02-20 (220), E03-10 (237), E03a-30 (925), E03a-60 (372), E05-20 (788). */
function recipientIdRejection(v: View): Rejection | null {
  const { dest, mod } = v;
  const homeDelivery = mod === '65' && textIn(v.ide, 'indPres') === '4';
  if (!dest) return homeDelivery ? reject('E01-20', 787, 'NFC-e with indPres 4 and no dest') : null;
  const cnpj = el(dest, 'CNPJ');
  if (cnpj && badCnpj(cnpj.inner)) return reject('E02-10', 208, `dest/CNPJ ${cnpj.inner}`);
  if (cnpj && mod === '65' && cnpj.inner === textIn(v.emit, 'CNPJ')) return reject('E02-20', 220, `dest/CNPJ ${cnpj.inner} is the issuer's`);
  const cpf = el(dest, 'CPF');
  if (cpf && !isValidCpf(cpf.inner)) return reject('E03-10', 237, `dest/CPF ${cpf.inner}`);
  const foreign = el(dest, 'idEstrangeiro');
  if (foreign) {
    if (el(dest, 'IE')) return reject('E03a-30', 925, `dest with idEstrangeiro and IE ${textIn(dest, 'IE')}`);
    if (!/^[0-9A-Za-z:.+\- /()]*$/.test(foreign.inner)) return reject('E03a-60', 372, `dest/idEstrangeiro "${foreign.inner}"`);
  }
  if (homeDelivery && !el(dest, 'enderDest')) return reject('E05-20', 788, 'NFC-e with indPres 4 and no dest/enderDest');
  return null;
}

/**
 * MOC C10-10 (272) / E10-10 (274): cMun not in the IBGE table; C10-20 (273) / E10-20 (275): its first two
 * digits differ from the code of the address's UF. The recipient's only when not abroad (UF <> EX).
 */
function cityRejection(ender: ElementSlice | null, unknown: [number, string], otherUf: [number, string]): Rejection | null {
  const uf = textIn(ender, 'UF');
  if (!ender || uf === 'EX') return null;
  const cMun = textIn(ender, 'cMun');
  if (!municipality(cMun)) return { cStat: unknown[0], xMotivo: motivo(unknown[0]), detail: `cMun ${cMun} is not in the IBGE table (MOC ${unknown[1]})` };
  if (cMun.slice(0, 2) !== ufCode(uf)) return { cStat: otherUf[0], xMotivo: motivo(otherUf[0]), detail: `cMun ${cMun} is not in ${uf} (MOC ${otherUf[1]})` };
  return null;
}

/** MOC E10-30 (509), model 55: abroad (UF EX), cMun must be 9999999. */
function abroadCityRejection(mod: string, ender: ElementSlice | null): Rejection | null {
  if (mod !== '55' || textIn(ender, 'UF') !== 'EX' || textIn(ender, 'cMun') === '9999999') return null;
  return { cStat: 509, xMotivo: motivo(509), detail: `dest UF EX with cMun ${textIn(ender, 'cMun')} (MOC E10-30)` };
}

/**
 * E12-30/50 (772): an interstate NF-e to the issuer's own state (unless to the issuer itself); E12-40/60 (773): an
 * internal NF-e, not to a final consumer, to another state. The exceptions need entrega, retirada or UFCons,
 * which the gateway does not write.
 */
function recipientStateRejection(v: View): Rejection | null {
  if (v.mod !== '55' || !v.dest) return null;
  const idDest = textIn(v.ide, 'idDest');
  const outbound = textIn(v.ide, 'tpNF') === '1';
  const destUf = textIn(el(v.dest, 'enderDest'), 'UF');
  const emitUf = textIn(el(v.emit, 'enderEmit'), 'UF');
  if (idDest === '2' && destUf === emitUf && textIn(v.emit, 'CNPJ') !== textIn(v.dest, 'CNPJ')) {
    return reject(outbound ? 'E12-30' : 'E12-50', 772, `idDest 2 with issuer and recipient in ${destUf}`);
  }
  if (idDest === '1' && textIn(v.ide, 'indFinal') !== '1' && destUf !== emitUf) {
    return reject(outbound ? 'E12-40' : 'E12-60', 773, `idDest 1, indFinal 0, issuer in ${emitUf} and recipient in ${destUf}`);
  }
  return null;
}

/** E14-10 (510), E14-20 (511), E14-30 (926): the recipient's country against the destination. */
function countryRejection(v: View): Rejection | null {
  const ender = el(v.dest, 'enderDest');
  if (!ender) return null;
  const idDest = textIn(v.ide, 'idDest');
  const cPais = el(ender, 'cPais')?.inner;
  const brazil = cPais !== undefined && Number(cPais) === 1058;
  // E14-10 (510, optional, every state's): abroad, a country other than Brazil.
  if (v.mod === '55' && idDest === '3' && (cPais === undefined || brazil)) return reject('E14-10', 510, `idDest 3 with cPais ${cPais ?? '(none)'}`);
  // E14-20 (511, optional, every state's): in Brazil, Brazil, unless the recipient is a foreigner.
  if (idDest !== '3' && cPais !== undefined && !brazil && !el(v.dest, 'idEstrangeiro')) return reject('E14-20', 511, `idDest ${idDest} with cPais ${cPais}`);
  // MOC E14-30 (926, NT 2019.001): abroad (UF EX), cPais cannot be 1058 (Brazil).
  if (textIn(ender, 'UF') === 'EX' && brazil) return reject('E14-30', 926, 'dest UF EX with cPais 1058');
  return null;
}

/** E16a-30 (805): the states that do not admit an exempt taxpayer (indIEDest 2) in an interstate operation. */
const NO_EXEMPT_TAXPAYER = new Set(['AM', 'BA', 'CE', 'GO', 'MG', 'MS', 'MT', 'PA', 'PE', 'RN', 'SE', 'SP']);
/** E16a-30 exception 4: exempt (CST 40, CSOSN 103), immune or untaxed (CST 41, CSOSN 300, 400). */
const EXEMPT_CODES = new Set(['40', '41', '103', '300', '400']);

/** E16a-10 (789), E16a-20 (790), E16a-30 (805), E16a-40 (696), E17-20 (728), E17-30 (791), E17-40 (792), E18-10 (730), E18-30 (251). */
function recipientIeRejection(f: NfeFacts, v: View): Rejection | null {
  const { dest, mod } = v;
  if (!dest) return null;
  const ind = textIn(dest, 'indIEDest');
  const idDest = textIn(v.ide, 'idDest');
  const ie = el(dest, 'IE');
  const destUf = textIn(el(dest, 'enderDest'), 'UF');
  if (mod === '65') {
    if (ind !== '9') return reject('E16a-10', 789, `NFC-e with indIEDest ${ind}`);
    if (el(dest, 'ISUF')) return reject('E18-10', 730, 'NFC-e with dest/ISUF');
    return null;
  }
  if (idDest === '3' && ind !== '9') return reject('E16a-20', 790, `idDest 3 with indIEDest ${ind}`);
  if (ind === '2' && idDest === '2' && NO_EXEMPT_TAXPAYER.has(destUf) && !exemptTaxpayerExcepted(f, v)) {
    return reject('E16a-30', 805, `indIEDest 2 in an interstate operation to ${destUf}`);
  }
  if (ind === '9' && textIn(v.ide, 'indFinal') !== '1' && textIn(v.ide, 'tpNF') === '1' && idDest !== '3') {
    return reject('E16a-40', 696, `indIEDest 9, indFinal ${textIn(v.ide, 'indFinal')} in an outbound operation`);
  }
  if (ind === '1' && !ie) return reject('E17-20', 728, 'indIEDest 1 without dest/IE');
  if (ind === '2' && ie) return reject('E17-30', 791, `indIEDest 2 with dest/IE ${ie.inner}`);
  if (ie && destUf === 'EX') return reject('E17-40', 792, `dest/IE ${ie.inner} abroad`);
  if (el(dest, 'ISUF')) {
    // E18-30 (251): SUFRAMA covers AC, AM, RO, RR and, in AP, Macapá and Santana only.
    const cMun = textIn(el(dest, 'enderDest'), 'cMun');
    const suframa = ['AC', 'AM', 'RO', 'RR'].includes(destUf) || (destUf === 'AP' && ['1600303', '1600600'].includes(cMun));
    if (!suframa) return reject('E18-30', 251, `dest/ISUF with recipient in ${destUf} ${cMun}`);
  }
  return null;
}

/** E16a-30 exceptions 1-4: ICMS-ST charged or retained before in an item, production before 2016-07-01, exempt items. */
function exemptTaxpayerExcepted(f: NfeFacts, v: View): boolean {
  if (f.tpAmb === '1' && f.dhEmi.slice(0, 10) < '2016-07-01') return true;
  return sliceAll(v.inf.inner, 'det').some((d) => {
    const icms = el(el(d, 'imposto'), 'ICMS');
    const inner = icms?.inner ?? '';
    const st = /<vICMSST>([^<]*)</.exec(inner)?.[1];
    const code = /<(?:CST|CSOSN)>([0-9]+)</.exec(inner)?.[1] ?? '';
    return (st !== undefined && Number(st) > 0) || inner.includes('<vICMSSTRet>') || EXEMPT_CODES.has(code);
  });
}
