import { sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';

// Authorization rules of the NF-e (model 55) that the NFC-e does not have: recipient, destination
// against the parties' states and the CFOPs, DANFE format, DIFAL group and billing. Written from
// the MOC 7.0 rules (Anexo I), independently of the gateway's own checks (documents/nfe/domain),
// so that the simulator catches a gateway bug instead of sharing it.

// The words of MOC 7.0 section 4.4 (cstat/cstat_nfe.csv), placeholders filled by the rules.
const MOC: Record<number, string> = {
  520: 'Rejeição: CFOP de Operação com Exterior e UF destinatário difere de “EX”',
  521: 'Rejeição: Operação Interna e UF do emitente difere da UF do destinatário/remetente contribuinte do ICMS',
  523: 'Rejeição: CFOP não é de Operação Estadual e UF emitente igual à UF destinatário',
  694: 'Rejeição: Não informado o grupo de ICMS para a UF de destino',
  695: 'Rejeição: Informado indevidamente o grupo de ICMS para a UF de destino',
  710: 'Rejeição: NF-e com formato de DANFE inválido',
  719: 'Rejeição: NF-e sem a identificação do destinatário',
  720: 'Rejeição: Na operação com Exterior deve ser informada tag idEstrangeiro',
  721: 'Rejeição: Informado idEstrangeiro e Operação não é com consumidor final.',
  724: 'Rejeição: NF-e sem o nome do destinatário',
  726: 'Rejeição: NF-e sem a informação de endereço do destinatário',
  727: 'Rejeição: Operação com Exterior e UF diferente de EX',
  731: 'Rejeição: CFOP de operação com Exterior e idDest <> 3',
  732: 'Rejeição: CFOP de operação interestadual e idDest <> 2',
  733: 'Rejeição: CFOP de operação interna e idDest <> 1',
  794: 'Rejeição: NF-e com indicativo de NFC-e com entrega a domicílio',
  850: 'Rejeição: Data de vencimento da parcela não informada ou menor que a Data de vencimento da parcela anterior',
  851: 'Rejeição: Soma do valor das parcelas difere do Valor Líquido da Fatura',
  902: 'Rejeição: Valor Liquido da Fatura difere do Valor Original menos o Valor do Desconto',
  905: 'Rejeição: Campos do grupo Fatura não informados',
};

const reject = (cStat: number, detail: string, suffix = ''): Rejection => ({ cStat, xMotivo: MOC[cStat]! + suffix, detail });
const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner ?? '';
const cents = (v: string) => Math.round(Number(v || '0') * 100);

/** ICMS codes exempt, immune or not taxed (MOC NA01-20 exception 10). */
const UNTAXED = new Set(['40', '41', '103', '300', '400']);
/** NA01-20 exception 9: asset transfer, future-delivery billing, coupon entry. */
const DIFAL_EXEMPT_CFOPS = new Set(['6552', '6922', '6929']);

function recipientRejection(ide: ElementSlice | null, dest: ElementSlice | null, emitUf: string): Rejection | null {
  if (!dest) return reject(719, 'model 55 without dest (MOC E01-10)');
  if (!el(dest, 'xNome')) return reject(724, 'dest without xNome (MOC E04-10)');
  const ender = el(dest, 'enderDest');
  if (!ender) return reject(726, 'dest without enderDest (MOC E05-10)');
  const idDest = textIn(ide, 'idDest');
  const destUf = textIn(ender, 'UF');
  const foreign = el(dest, 'idEstrangeiro') !== null;
  if (idDest === '3' && !foreign) return reject(720, 'idDest 3 without idEstrangeiro (MOC E03a-10)');
  // E03a-20 (NT 2015.002): in Brazil, idEstrangeiro identifies a foreign final consumer only (indFinal 1).
  if (idDest !== '3' && foreign && textIn(ide, 'indFinal') !== '1') return reject(721, `idEstrangeiro with idDest ${idDest} and indFinal ${textIn(ide, 'indFinal')} (MOC E03a-20)`);
  if (idDest === '3' && destUf !== 'EX') return reject(727, `idDest 3 but recipient UF ${destUf}`);
  // MOC I08-70 (521): internal operation with a taxpayer of another state, unless presential without freight.
  const presentialNoFreight = textIn(ide, 'indPres') === '1';
  if (idDest === '1' && destUf !== emitUf && textIn(dest, 'indIEDest') === '1' && !presentialNoFreight) {
    return reject(521, `idDest 1 but issuer UF ${emitUf} and recipient UF ${destUf}`);
  }
  return null;
}

interface ItemView { nItem: string; cfop: string; icmsCode: string; difal: boolean; partilha: boolean }

function itemsOf(inf: ElementSlice): ItemView[] {
  return sliceAll(inf.inner, 'det').map((d) => {
    const icms = el(el(d, 'imposto'), 'ICMS');
    return {
      nItem: /nItem="(\d+)"/.exec(d.outer)?.[1] ?? '?',
      cfop: textIn(el(d, 'prod'), 'CFOP'),
      icmsCode: /<(?:CST|CSOSN)>([0-9]+)</.exec(icms?.inner ?? '')?.[1] ?? '',
      difal: el(el(d, 'imposto'), 'ICMSUFDest') !== null,
      partilha: el(icms, 'ICMSPart') !== null,
    };
  });
}

/** MOC I08-30..90 (731-733, 520, 523) and NA01-20/30 (694/695), item by item. */
function itemRejection(items: ItemView[], ide: ElementSlice | null, dest: ElementSlice, emit: ElementSlice | null, crt: string): Rejection | null {
  const idDest = textIn(ide, 'idDest');
  const destUf = textIn(el(dest, 'enderDest'), 'UF');
  const emitUf = textIn(el(emit, 'enderEmit'), 'UF');
  const sameParty = (textIn(emit, 'CNPJ') || textIn(emit, 'CPF')) === (textIn(dest, 'CNPJ') || textIn(dest, 'CPF'));
  const finNFe = textIn(ide, 'finNFe');
  const difalOperation = idDest === '2' && textIn(ide, 'indFinal') === '1' && textIn(dest, 'indIEDest') === '9';
  for (const item of items) {
    const first = item.cfop[0];
    const n = `[nItem:${item.nItem}]`;
    if ((first === '3' || first === '7') && idDest !== '3') return reject(731, `CFOP ${item.cfop} with idDest ${idDest}`, n);
    if ((first === '2' || first === '6') && idDest !== '2') return reject(732, `CFOP ${item.cfop} with idDest ${idDest}`, n);
    if ((first === '1' || first === '5') && idDest !== '1') return reject(733, `CFOP ${item.cfop} with idDest ${idDest}`, n);
    if ((first === '3' || first === '7') && destUf !== 'EX') return reject(520, `CFOP ${item.cfop} to UF ${destUf}`, n);
    if ((first === '2' || first === '6') && destUf === emitUf && !sameParty) return reject(523, `CFOP ${item.cfop} inside ${emitUf}`, n);
    if (item.difal && !difalOperation) return reject(695, `ICMSUFDest in item ${item.nItem} outside an interstate sale to a non-taxpayer final consumer (MOC NA01-30)`, n);
    // NA01-20 exception 1: not required when the item has the ICMS split (ICMSPart). A credit or debit
    // note (finNFe 5/6) may not carry ICMSUFDest at all (NT 2025.002-RTC B25-80, adjustment-note-rules.ts).
    const adjustment = finNFe === '5' || finNFe === '6';
    const required =
      difalOperation && !adjustment && !item.partilha && textIn(ide, 'tpNF') === '1' && crt !== '1' && finNFe !== '2' && finNFe !== '3' && !UNTAXED.has(item.icmsCode) && !DIFAL_EXEMPT_CFOPS.has(item.cfop);
    if (required && !item.difal) return reject(694, `item ${item.nItem} (CST/CSOSN ${item.icmsCode}) lacks ICMSUFDest (MOC NA01-20)`, n);
  }
  return null;
}

/** MOC Y01-20 (905), Y06-10 (902), Y09-30 (850), Y10-10 (851). */
function billingRejection(inf: ElementSlice): Rejection | null {
  const cobr = el(inf, 'cobr');
  if (!cobr) return null;
  const fat = el(cobr, 'fat');
  if (!fat || !el(fat, 'nFat') || !el(fat, 'vOrig') || !el(fat, 'vLiq')) return reject(905, 'cobr without nFat, vOrig and vLiq');
  const vLiq = cents(textIn(fat, 'vLiq'));
  if (vLiq !== cents(textIn(fat, 'vOrig')) - cents(textIn(fat, 'vDesc'))) return reject(902, `vLiq ${textIn(fat, 'vLiq')} != vOrig - vDesc`);
  const dups = sliceAll(cobr.inner, 'dup');
  let previous = '';
  for (const [i, d] of dups.entries()) {
    const due = textIn(d, 'dVenc');
    if (!due || due < previous) return reject(850, `dup ${i + 1} due ${due || '(none)'} before ${previous}`, `[nOcor:${i + 1}]`);
    previous = due;
  }
  const sum = dups.reduce((acc, d) => acc + cents(textIn(d, 'vDup')), 0);
  if (dups.length > 0 && sum !== vLiq) return reject(851, `installments add up to ${sum / 100}, vLiq ${vLiq / 100}`);
  return null;
}

/** The model 55 rules, after the content rules both models share (nfe-rules.ts). Null for an NFC-e. */
export function model55Rejection(f: NfeFacts): Rejection | null {
  if (f.mod !== '55') return null;
  const inf = sliceElement(f.xml, 'infNFe');
  if (!inf) return null;
  const ide = el(inf, 'ide');
  // MOC B21-20 (710) and B25b-10 (794): DANFE NFC-e formats and home delivery are NFC-e only.
  if (['4', '5'].includes(textIn(ide, 'tpImp'))) return reject(710, `tpImp ${textIn(ide, 'tpImp')} in an NF-e`);
  if (textIn(ide, 'indPres') === '4') return reject(794, 'indPres 4 in an NF-e');
  const emit = el(inf, 'emit');
  const dest = el(inf, 'dest');
  const recipient = recipientRejection(ide, dest, textIn(el(emit, 'enderEmit'), 'UF'));
  if (recipient) return recipient;
  return itemRejection(itemsOf(inf), ide, dest!, emit, textIn(emit, 'CRT')) ?? billingRejection(inf);
}
