import { isValidCnpj, isValidCpf } from '../kernel/tax-id.js';
import { sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';
import { motivo } from './cstat-messages.js';
import type { NfeFacts } from './nfe-facts.js';
import type { Rejection } from './nfe-rules.js';
import { transportRejection } from './totals-rules.js';

// MOC 7.0 Anexo I rules of the groups transp (X) and exporta (ZA), for both models, written from the
// rule table (docs/fiscal/exports-and-delivery.md) apart from the gateway's checks. Only what the
// table says: a home delivery needs a carrier (786) whatever modFrete is. X02-20, X07-20 and X17-10
// are totals-rules.ts transportRejection, applied here after the carrier's identification.

const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);
const textIn = (within: ElementSlice | null, name: string) => el(within, name)?.inner ?? '';
const reject = (cStat: number, detail: string, xMotivo = motivo(cStat)): Rejection => ({ cStat, xMotivo, detail });

/** MOC ZA01-10/20 (355/356, model 55) and ZA01-30 (814, model 65). */
function exportRejection(mod: string, ide: ElementSlice | null, exporta: boolean): Rejection | null {
  // 814 is not in webservices/cstat.json: the words are the MOC's (section 4.4, cstat_nfe.csv).
  if (mod === '65') return exporta ? reject(814, 'NFC-e with exporta (MOC ZA01-30)', 'Rejeição: Nota Fiscal com grupo de comércio exterior') : null;
  const outboundAbroad = textIn(ide, 'tpNF') === '1' && textIn(ide, 'idDest') === '3';
  if (outboundAbroad && !exporta) return reject(355, 'tpNF 1 and idDest 3 without exporta (MOC ZA01-10)');
  if (!outboundAbroad && exporta) return reject(356, `exporta with tpNF ${textIn(ide, 'tpNF')} and idDest ${textIn(ide, 'idDest')} (MOC ZA01-20)`);
  return null;
}

/** MOC X02-10, X03-10/20, X11-10, X18-10, X22-10, X25a/b-10: the NFC-e carries freight only in a home delivery. */
function nfceTranspRejection(ide: ElementSlice | null, transp: ElementSlice | null): Rejection | null {
  const delivery = textIn(ide, 'indPres') === '4';
  const modFrete = textIn(transp, 'modFrete');
  if (modFrete !== '9' && !delivery) return reject(753, `modFrete ${modFrete} with indPres ${textIn(ide, 'indPres')} (MOC X02-10)`);
  const carrier = el(transp, 'transporta') !== null;
  if (carrier && !delivery) return reject(754, 'transporta without home delivery (MOC X03-10)');
  if (!carrier && delivery) return reject(786, 'indPres 4 without transporta (MOC X03-20)');
  if (el(transp, 'retTransp')) return reject(755, 'retTransp in an NFC-e (MOC X11-10)');
  if (el(transp, 'veicTransp')) return reject(756, 'veicTransp in an NFC-e (MOC X18-10)');
  if (el(transp, 'reboque')) return reject(757, 'reboque in an NFC-e (MOC X22-10)');
  if (el(transp, 'vagao')) return reject(758, 'vagao in an NFC-e (MOC X25a-10)');
  if (el(transp, 'balsa')) return reject(759, 'balsa in an NFC-e (MOC X25b-10)');
  return null;
}

/** MOC X04-20 (542), X05-10 (543), X07-10 (559): the carrier's identification, both models. */
function carrierRejection(transp: ElementSlice | null): Rejection | null {
  const t = el(transp, 'transporta');
  if (!t) return null;
  const cnpj = el(t, 'CNPJ');
  if (cnpj && !isValidCnpj(cnpj.inner)) return reject(542, `carrier CNPJ ${cnpj.inner} (MOC X04-20)`);
  const cpf = el(t, 'CPF');
  if (cpf && !isValidCpf(cpf.inner)) return reject(543, `carrier CPF ${cpf.inner} (MOC X05-10)`);
  if (el(t, 'IE') && !el(t, 'UF')) return reject(559, 'carrier IE without UF (MOC X07-10)');
  return null;
}

/** The transp and exporta rules of either model; null when the note passes them. */
export function goodsGroupRejection(f: NfeFacts): Rejection | null {
  const inf = sliceElement(f.xml, 'infNFe');
  if (!inf) return null;
  const ide = el(inf, 'ide');
  const transp = el(inf, 'transp');
  if (f.mod === '65') {
    const freight = nfceTranspRejection(ide, transp);
    if (freight) return freight;
  }
  return carrierRejection(transp) ?? transportRejection(f.mod, ide, transp) ?? exportRejection(f.mod, ide, el(inf, 'exporta') !== null);
}
