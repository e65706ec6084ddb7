import type { Sale } from '../../src/documents/nfce/domain/sale.js';
import type { NfeRequest } from '../../src/documents/nfe/domain/nfe-request.js';
import { accessKeyCheckDigit } from '../../src/fiscal/layout/access-key.js';
import { cleanTaxId } from '../../src/kernel/tax-id.js';
import { rekey } from './breakers-ide.js';
import { BOTH, code, ISSUER, NFCE, NFE, nfe, op, sale, type GoodsBreaker, type GoodsCase } from './goods-breakers.js';
import { VALID_IE } from './state-registrations.js';
import { editAt, otherLastDigit, setText, textAt } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-parties.ts (see rule-breakers.ts for the three kinds).
const ABROAD = 'the gateway writes cMun 9999999, UF EX and the request\'s non-Brazil cPais for every address abroad (nfe-parties.ts)';
const ISSUER_CITY = 'the issuer\'s address comes from its registration, not from the request';
const SERIES = 'the gateway numbers NF-e and NFC-e in its own series (1); an offline NFC-e series of 890 or more is refused as B26-10';
const IDENTIFIED = 'the issuer registration takes a CNPJ only (POST /v1/issuers); a note is never issued by a CPF';
const NO_IEST = 'the gateway never writes emit/IEST (no request or issuer field sets it)';
const NO_ISUF = 'the gateway never writes dest/ISUF (no request field sets it)';
const ID_DEST = 'the gateway derives idDest from the issuer\'s and the recipient\'s states (operation.ts destinationOf); no request field sets it';
const NFCE_DEST = 'the gateway writes an NFC-e consumer as a non-contributor (indIEDest 9) without IE or ISUF (consumer-dest.ts)';
const address = (c: Parameters<typeof nfe>[0]) => nfe(c).destinatario.address as NonNullable<NfeRequest['destinatario']['address']> & { city_code: string; uf: string };
const domestic = (c: Parameters<typeof nfe>[0]) => op(c).idDest !== 3;
const abroad = (c: GoodsCase) => op(c).idDest === 3;
const emit = (xml: string, name: string, value: (old: string) => string) => setText(xml, ['emit', name], value);
const afterEmitIe = (xml: string, insert: string) => editAt(xml, ['emit', 'IE'], (o) => o + insert);
/** Right after dest/indIEDest, or after dest/IE when written (the layout's order: indIEDest, IE, ISUF). */
const afterDestIe = (xml: string, insert: string) => editAt(xml, textAt(xml, ['dest', 'IE']) !== null ? ['dest', 'IE'] : ['dest', 'indIEDest'], (o) => o + insert);
const beforeIdeEnd = (xml: string, insert: string) => editAt(xml, ['ide'], (o) => o.replace(/<\/ide>$/, `${insert}</ide>`));
const keyOf = (xml: string) => /Id="NFe([0-9A-Z]{44})"/.exec(xml)![1]!;
/** The emitter identified by a CPF, the key made to agree. */
const cpfIssuer = (xml: string) => rekey(editAt(xml, ['emit', 'CNPJ'], () => '<CPF>12345678909</CPF>'));
/** A consumer identified by `id` (NFC-e). */
const consumerWith = (c: GoodsCase, id: { cnpj: string } | { cpf: string }) => {
  const s = sale(c);
  const rest = { ...(s.consumer ?? {}) } as NonNullable<Sale['consumer']>;
  delete rest.cnpj;
  delete rest.cpf;
  s.consumer = { ...rest, ...id };
};
/** Not a complementary NF-e: that one references a note of the same issuer (B25-50, 269, before the issuer's rules). */
const ownNote = (c: GoodsCase) => c.model === 65 || nfe(c).finalidade !== 'complementar';
const SUFRAMA_UFS = new Set(['AC', 'AM', 'RO', 'RR', 'AP']);
const NO_EXEMPT_TAXPAYER = new Set(['AM', 'BA', 'CE', 'GO', 'MG', 'MS', 'MT', 'PA', 'PE', 'RN', 'SE', 'SP']);
const EXEMPT_ICMS_CODES = new Set(['40', '41', '103', '300', '400']);

const withDv = (k43: string) => k43 + accessKeyCheckDigit(k43);
/** A request breaker of a referenced key: its first key made to break `rule` (the others right). */
function refKeyBreaker(rule: string, code: number, edit: (key: string) => string): GoodsBreaker[] {
  return [{ kind: 'request', rule, code, models: NFE, applies: (c) => (nfe(c).referenced_documents ?? []).length > 0, break: (c) => ((nfe(c).referenced_documents![0] = edit(nfe(c).referenced_documents![0]!)), 'referenced_documents[0]') }];
}

export const PARTIES_BREAKERS: readonly GoodsBreaker[] = [
  // references
  { kind: 'document', rule: 'BA01-10', code: 708, models: NFCE, why: 'the NFC-e request has no referenced documents', break: (d) => ({ xml: beforeIdeEnd(d.xml, `<NFref><refNFe>${keyOf(d.xml)}</refNFe></NFref>`) }) },
  ...refKeyBreaker('BA02-10', 547, (k) => otherLastDigit(k)),
  ...refKeyBreaker('BA02-14', 522, (k) => withDv(`99${k.slice(2, 43)}`)),
  ...refKeyBreaker('BA02-20', 524, (k) => withDv(`${k.slice(0, 2)}05${k.slice(4, 43)}`)),
  ...refKeyBreaker('BA02-24', 524, (k) => withDv(`${k.slice(0, 4)}13${k.slice(6, 43)}`)),
  ...refKeyBreaker('BA02-30', 552, (k) => withDv(`${k.slice(0, 6)}00000000000000${k.slice(20, 22)}001${k.slice(25, 43)}`)),
  ...refKeyBreaker('BA02-34', 679, (k) => withDv(`${k.slice(0, 20)}57${k.slice(22, 43)}`)),
  ...refKeyBreaker('BA02-40', 683, (k) => withDv(`${k.slice(0, 25)}000000000${k.slice(34, 43)}`)),
  {
    kind: 'request', rule: 'BA02-44', code: 680, models: NFE, applies: (c) => (nfe(c).referenced_documents ?? []).length > 0,
    break: (c) => (nfe(c).referenced_documents!.push(nfe(c).referenced_documents![0]!), `referenced_documents[${nfe(c).referenced_documents!.length - 1}]`),
  },
  {
    kind: 'document', rule: 'BA02-50', code: 316, models: NFE, why: 'the note\'s key is computed when it is numbered, after the request',
    applies: (c) => (nfe(c).finalidade ?? 'normal') === 'normal', break: (d) => ({ xml: beforeIdeEnd(d.xml, `<NFref><refNFe>${keyOf(d.xml)}</refNFe></NFref>`) }),
  },
  // issuer
  { kind: 'document', rule: 'C02-10', code: 207, models: BOTH, why: ISSUER, applies: ownNote, break: (d) => ({ xml: rekey(emit(d.xml, 'CNPJ', (o) => o.slice(0, 12) + (o.slice(12) === '00' ? '01' : '00'))) }) },
  { kind: 'document', rule: 'C02-30', code: 503, models: BOTH, why: SERIES, break: (d) => ({ xml: rekey(setText(d.xml, ['ide', 'serie'], () => '920')) }) },
  { kind: 'document', rule: 'C02a-04', code: 337, models: NFCE, why: IDENTIFIED, break: (d) => ({ xml: cpfIssuer(d.xml) }) },
  { kind: 'document', rule: 'C02a-08', code: 652, models: NFE, why: IDENTIFIED, applies: ownNote, break: (d) => ({ xml: cpfIssuer(d.xml) }) },
  { kind: 'document', rule: 'C10-10', code: 272, models: BOTH, why: ISSUER_CITY, break: (d) => ({ xml: setText(d.xml, ['emit', 'enderEmit', 'cMun'], (o) => `${o.slice(0, 2)}99999`) }) },
  { kind: 'document', rule: 'C10-20', code: 273, models: BOTH, why: ISSUER_CITY, break: (d) => ({ xml: setText(d.xml, ['emit', 'enderEmit', 'cMun'], (o) => (o.startsWith('35') ? '3304557' : '3550308')) }) },
  {
    kind: 'document', rule: 'C12-10', code: 247, models: BOTH, why: ISSUER_CITY,
    break: (d) => {
      const sp = textAt(d.xml, ['emit', 'enderEmit', 'UF']) === 'SP';
      // The issuer's IE made one of the other state too (C17-20, 209, reads it against enderEmit/UF).
      const moved = setText(setText(d.xml, ['emit', 'enderEmit', 'UF'], () => (sp ? 'RJ' : 'SP')), ['emit', 'enderEmit', 'cMun'], () => (sp ? '3304557' : '3550308'));
      return { xml: emit(moved, 'IE', () => VALID_IE[sp ? 'RJ' : 'SP']!) };
    },
  },
  { kind: 'document', rule: 'C17-10', code: 229, models: BOTH, why: ISSUER, break: (d) => ({ xml: emit(d.xml, 'IE', () => '000000000') }) },
  { kind: 'document', rule: 'C17-30', code: 554, models: BOTH, why: `${ISSUER} (ISENTO is refused)`, break: (d) => ({ xml: emit(d.xml, 'IE', () => 'ISENTO') }) },
  { kind: 'document', rule: 'C18-10', code: 718, models: NFCE, why: NO_IEST, break: (d) => ({ xml: afterEmitIe(d.xml, '<IEST>123456789</IEST>') }) },
  { kind: 'document', rule: 'C18-14', code: 347, models: NFE, why: NO_IEST, applies: (c) => op(c).idDest !== 2, break: (d) => ({ xml: afterEmitIe(d.xml, '<IEST>123456789</IEST>') }) },
  { kind: 'document', rule: 'C18-30', code: 211, models: NFE, why: NO_IEST, applies: (c) => op(c).idDest === 2, break: (d) => ({ xml: afterEmitIe(d.xml, '<IEST>11</IEST>') }) },
  {
    kind: 'document', rule: 'C18-40', code: 363, models: NFE, why: NO_IEST, applies: (c) => op(c).idDest === 2 && nfe(c).destinatario.ie !== undefined,
    break: (d) => ({ xml: afterEmitIe(d.xml, `<IEST>${textAt(d.xml, ['dest', 'IE'])}</IEST>`) }),
  },
  // recipient
  {
    kind: 'request', rule: 'E01-20', code: 787, models: NFCE, applies: (c) => !c.offline,
    break: (c) => ((sale(c).home_delivery = true), delete sale(c).consumer, 'consumer'),
  },
  {
    kind: 'request', rule: 'E02-10', code: 208, models: BOTH, applies: (c) => !c.offline && (c.model === 65 || nfe(c).destinatario.cnpj !== undefined),
    break: (c) => {
      if (c.model === 55) return (nfe(c).destinatario.cnpj = otherLastDigit(nfe(c).destinatario.cnpj!)), 'destinatario.cnpj';
      return consumerWith(c, { cnpj: '11222333000180' }), 'consumer.cnpj';
    },
  },
  { kind: 'request', rule: 'E02-20', code: 220, models: NFCE, applies: (c) => !c.offline, break: (c) => (consumerWith(c, { cnpj: cleanTaxId(c.issuer.cnpj) }), 'consumer.cnpj') },
  {
    kind: 'request', rule: 'E03-10', code: 237, models: BOTH, applies: (c) => !c.offline && (c.model === 65 || nfe(c).destinatario.cpf !== undefined),
    break: (c) => {
      if (c.model === 55) return (nfe(c).destinatario.cpf = otherLastDigit(nfe(c).destinatario.cpf!)), 'destinatario.cpf';
      return consumerWith(c, { cpf: '12345678901' }), 'consumer.cpf';
    },
  },
  { kind: 'request', rule: 'E03a-30', code: 925, models: NFE, applies: abroad, break: (c) => ((nfe(c).destinatario.ie = '123456789'), 'destinatario.ie') },
  { kind: 'request', rule: 'E03a-60', code: 372, models: NFE, applies: abroad, break: (c) => ((nfe(c).destinatario.id_estrangeiro = 'PASS#1234'), 'destinatario.id_estrangeiro') },
  {
    kind: 'request', rule: 'E05-20', code: 788, models: NFCE, applies: (c) => !c.offline && sale(c).consumer !== undefined,
    break: (c) => ((sale(c).home_delivery = true), delete sale(c).consumer!.address, 'consumer.address'),
  },
  { kind: 'request', rule: 'E10-10', code: 274, models: NFE, applies: domestic, break: (c) => ((address(c).city_code = `${address(c).city_code.slice(0, 2)}99999`), 'destinatario.address.city_code') },
  {
    kind: 'request', rule: 'E10-20', code: 275, models: NFE, applies: domestic,
    break: (c) => ((address(c).city_code = address(c).uf === 'SP' ? '3304557' : '3550308'), 'destinatario.address.city_code'),
  },
  { kind: 'document', rule: 'E10-30', code: 509, models: NFE, why: ABROAD, applies: abroad, break: (d) => ({ xml: setText(d.xml, ['dest', 'enderDest', 'cMun'], () => '3550308') }) },
  {
    kind: 'document', rule: 'E12-30', code: 772, models: NFE, why: ID_DEST, applies: (c) => op(c).idDest === 1 && op(c).tpNF === 1 && nfe(c).destinatario.cnpj !== c.issuer.cnpj,
    break: (d) => ({ xml: setText(d.xml, ['ide', 'idDest'], () => '2') }),
  },
  {
    kind: 'document', rule: 'E12-50', code: 772, models: NFE, why: ID_DEST, applies: (c) => op(c).idDest === 1 && op(c).tpNF === 0 && nfe(c).destinatario.cnpj !== c.issuer.cnpj,
    break: (d) => ({ xml: setText(d.xml, ['ide', 'idDest'], () => '2') }),
  },
  { kind: 'document', rule: 'E12-40', code: 773, models: NFE, why: ID_DEST, applies: (c) => op(c).idDest === 2 && op(c).indFinal === 0 && op(c).tpNF === 1, break: (d) => ({ xml: setText(d.xml, ['ide', 'idDest'], () => '1') }) },
  { kind: 'document', rule: 'E12-60', code: 773, models: NFE, why: ID_DEST, applies: (c) => op(c).idDest === 2 && op(c).indFinal === 0 && op(c).tpNF === 0, break: (d) => ({ xml: setText(d.xml, ['ide', 'idDest'], () => '1') }) },
  { kind: 'document', rule: 'E14-10', code: 510, models: NFE, why: ABROAD, applies: abroad, break: (d) => ({ xml: editAt(d.xml, ['dest', 'enderDest', 'cPais'], () => '') }) },
  { kind: 'document', rule: 'E14-20', code: 511, models: NFE, why: 'the gateway writes cPais 1058 for every address in Brazil (parties.ts)', applies: domestic, break: (d) => ({ xml: setText(d.xml, ['dest', 'enderDest', 'cPais'], () => '2496') }) },
  // E14-10 (510) answers a foreign operation with cPais 1058 first: this one is an address abroad written with idDest 2.
  {
    kind: 'document', rule: 'E14-30', code: 926, models: NFE, why: ABROAD, applies: abroad,
    break: (d) => ({ xml: setText(setText(d.xml, ['dest', 'enderDest', 'cPais'], () => '1058'), ['ide', 'idDest'], () => '2') }),
  },
  { kind: 'document', rule: 'E16a-10', code: 789, models: NFCE, why: NFCE_DEST, applies: (c) => sale(c).consumer !== undefined, break: (d) => ({ xml: setText(d.xml, ['dest', 'indIEDest'], () => '1') }) },
  { kind: 'request', rule: 'E16a-20', code: 790, models: NFE, applies: abroad, break: (c) => ((nfe(c).destinatario.indicador_ie = 'contribuinte'), 'destinatario.indicador_ie') },
  {
    kind: 'request', rule: 'E16a-30', code: 805, models: NFE,
    applies: (c) =>
      op(c).idDest === 2 && nfe(c).destinatario.indicador_ie === 'contribuinte' && NO_EXEMPT_TAXPAYER.has(address(c).uf) &&
      nfe(c).items.every((i) => !EXEMPT_ICMS_CODES.has(code(i)) && !(i as { st?: unknown }).st && !(i as { st_retained?: unknown }).st_retained) &&
      // CST 50/51 to an exempt recipient is MOC N12-80 (529), refused first.
      nfe(c).items.every((i) => code(i) !== '50' && code(i) !== '51'),
    break: (c) => ((nfe(c).destinatario.indicador_ie = 'isento'), delete nfe(c).destinatario.ie, 'destinatario.indicador_ie'),
  },
  {
    kind: 'request', rule: 'E16a-40', code: 696, models: NFE, applies: (c) => op(c).indIEDest === 9 && op(c).tpNF === 1 && op(c).idDest !== 3,
    break: (c) => ((nfe(c).consumidor_final = false), 'consumidor_final'),
  },
  { kind: 'request', rule: 'E17-20', code: 728, models: NFE, applies: (c) => op(c).indIEDest === 1, break: (c) => (delete nfe(c).destinatario.ie, 'destinatario.ie') },
  { kind: 'request', rule: 'E17-30', code: 791, models: NFE, applies: (c) => op(c).indIEDest === 1, break: (c) => ((nfe(c).destinatario.indicador_ie = 'isento'), 'destinatario.ie') },
  // The gateway writes idEstrangeiro for every recipient abroad, so an IE abroad is E03a-30 (925) first: a recipient abroad named by a CNPJ.
  {
    kind: 'document', rule: 'E17-40', code: 792, models: NFE, why: 'the gateway writes idEstrangeiro for a recipient abroad and refuses its IE (E03a-30)', applies: abroad,
    break: (d) => ({ xml: afterDestIe(editAt(d.xml, ['dest', 'idEstrangeiro'], () => `<CNPJ>${textAt(d.xml, ['emit', 'CNPJ'])}</CNPJ>`), '<IE>123456789</IE>') }),
  },
  { kind: 'document', rule: 'E18-10', code: 730, models: NFCE, why: NFCE_DEST, applies: (c) => sale(c).consumer !== undefined, break: (d) => ({ xml: afterDestIe(d.xml, '<ISUF>123456789</ISUF>') }) },
  {
    kind: 'document', rule: 'E18-30', code: 251, models: NFE, why: NO_ISUF, applies: (c) => domestic(c) && !SUFRAMA_UFS.has(address(c).uf),
    break: (d) => ({ xml: afterDestIe(d.xml, '<ISUF>123456789</ISUF>') }),
  },
];
