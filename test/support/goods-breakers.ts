import type { Issuer } from '../../src/documents/goods/domain/issuer-context.js';
import type { Sale } from '../../src/documents/nfce/domain/sale.js';
import { FINALIDADES, INDICADORES_IE, type NfeRequest } from '../../src/documents/nfe/domain/nfe-request.js';
import { destinationOf, difalAllowed, difalRequired, type DifalFacts } from '../../src/documents/nfe/domain/operation.js';
import { buildEnviNFe } from '../../src/fiscal/sefaz/request-payloads.js';
import type { SigningKey } from '../../src/fiscal/xml/signature/sign.js';
import { editAt, otherLastDigit, plusCent, setText, textAt, type DocumentBreaker, type Exclusion, type RequestBreaker } from './rule-breakers.js';
import { respTecRequired } from '../../src/fiscal/states/states.js';

// One entry per rule of ENFORCED_NFE_RULES (authority-sim/enforced-rules.ts): how a random valid
// NFC-e (65) or NF-e (55) is made to break it (see rule-breakers.ts for the three kinds).

export interface GoodsCase {
  model: 55 | 65;
  /** The request, a clone: a request breaker changes it. */
  req: Sale | NfeRequest;
  issuer: Issuer;
  tpAmb: 1 | 2;
  offline: boolean;
  /** vNF of the valid document, in cents. */
  vNF: number;
}

export interface GoodsDoc {
  xml: string;
  /** The same sale built and signed with another key (the issuer's certificate replaced). */
  rebuild: (key: SigningKey) => string;
  /**
   * The document fits PL_009. The simulator reports PL_009's schema errors when a document fits
   * neither package (authority-sim/xml-checks.ts), so a PL_010 document with a broken lot is 225.
   */
  pl009: boolean;
}

export interface GoodsBroken {
  xml: string;
  /** The enviNFe lot, when the breaker edits it. */
  payload?: string;
  /** How long after dhEmi the note reaches the authority (default: 2 s). */
  lateByMs?: number;
  /** Who receives it (docs/fiscal/svc.md); absent: where the gateway sends it, the SVC of tpEmis 6/7 or the state. */
  authorizer?: 'state' | 'SVC-AN' | 'SVC-RS';
}

export type GoodsBreaker = ((RequestBreaker<GoodsCase> | DocumentBreaker<GoodsCase, GoodsDoc, GoodsBroken>) & { models: readonly (55 | 65)[] }) | Exclusion;

export const NFCE = [65] as const;
export const NFE = [55] as const;
export const BOTH = [55, 65] as const;
export const nfe = (c: GoodsCase) => c.req as NfeRequest;
export const sale = (c: GoodsCase) => c.req as Sale;
export const last = (c: GoodsCase) => c.req.items.length - 1;

/** What the request decides about ide (documents/nfe/domain/validate-nfe.ts, recomputed for the conditions). */
export function op(c: GoodsCase): DifalFacts & { indPres: string } {
  const r = nfe(c);
  const indIEDest = INDICADORES_IE[r.destinatario.indicador_ie];
  return {
    idDest: destinationOf(c.issuer.uf, r.destinatario.address!),
    indIEDest,
    indFinal: (r.consumidor_final ?? indIEDest === 9) ? 1 : 0,
    tpNF: Number(r.items[0]!.cfop[0]) < 5 ? 0 : 1,
    finNFe: FINALIDADES[r.finalidade ?? 'normal'],
    crt: c.issuer.crt,
    indPres: r.presenca,
  };
}
export const code = (i: { cst_icms?: string; csosn?: string }) => i.cst_icms ?? i.csosn!;

/** The CFOP of item k moved to the scope of idDest `to` (same direction). */
export function cfopTo(c: GoodsCase, k: number, to: 1 | 2 | 3): string {
  const item = c.req.items[k]!;
  item.cfop = String(Number(item.cfop[0]) >= 5 ? to + 4 : to) + item.cfop.slice(1);
  return `items[${k}].cfop`;
}

// Schema-valid ICMS groups that an NFC-e must not carry (MOC N12-50, N12-60).
const ICMS_PART = '<ICMSPart><orig>0</orig><CST>10</CST><modBC>3</modBC><vBC>10.00</vBC><pICMS>12.00</pICMS><vICMS>1.20</vICMS><modBCST>4</modBCST><vBCST>10.00</vBCST><pICMSST>18.00</pICMSST><vICMSST>0.60</vICMSST><pBCOp>100.00</pBCOp><UFST>SP</UFST></ICMSPart>';
const ICMS_ST = '<ICMSST><orig>0</orig><CST>60</CST><vBCSTRet>0.00</vBCSTRet><vICMSSTRet>0.00</vICMSSTRet><vBCSTDest>0.00</vBCSTDest><vICMSSTDest>0.00</vICMSSTDest></ICMSST>';

export const qr = (xml: string, edit: (text: string) => string) => editAt(xml, ['infNFeSupl', 'qrCode'], edit);
export const hasTag = (xml: string, tag: string) => xml.includes(`<${tag}>`);
export const carrier = (c: GoodsCase) => sale(c).transporte?.transportadora;
export const RESP_TEC = 'the technical responsible is an account or issuer setting (PUT /v1/account/technical-responsible), not a field of the sale';

export const COMPUTED = 'the gateway computes this value; no request field sets it';
export const WRITTEN = 'the gateway always writes this group right; no request field changes it';
export const ISSUER = 'the issuer registration (POST /v1/issuers) holds it, checked there; a sale cannot change it';
export const ENVELOPE = 'the gateway writes the lot and the XML; a request cannot make them malformed';
export const SIGNATURE = 'the gateway signs every document itself; no request field reaches the signature';

export const GOODS_BREAKERS: readonly GoodsBreaker[] = [
  // 4.1 general rules
  { kind: 'document', rule: 'B02', code: 243, models: BOTH, why: ENVELOPE, break: (d) => ({ xml: d.xml, payload: buildEnviNFe(d.xml, 1).slice(0, -1) }) },
  { kind: 'excluded', rule: 'B03', code: 108, why: 'the authority is paralysed for a moment: its own state (outage scenario), tested in test/authority-outage.test.ts' },
  { kind: 'excluded', rule: 'B04', code: 109, why: 'the authority is paralysed with no forecast: its own state (outage scenario), tested in test/authority-outage.test.ts' },
  { kind: 'document', rule: 'D01', code: 225, models: BOTH, why: ENVELOPE, break: (d) => ({ xml: editAt(d.xml, ['ide', 'cUF'], (o) => `${o}<cUFx>1</cUFx>`) }) },
  { kind: 'document', rule: 'D01', code: 215, models: BOTH, why: ENVELOPE, applies: (_c, d) => d.pl009, break: (d) => ({ xml: d.xml, payload: buildEnviNFe(d.xml, 1).replace('<idLote>1</idLote>', '<idLote>A1</idLote>') }) },
  {
    kind: 'document', rule: 'D02', code: 404, models: BOTH, why: SIGNATURE, signature: true,
    break: (d) => ({ xml: editAt(d.xml, ['Signature'], (o) => o.replace(/<(\/?)([A-Za-z])/g, '<$1ds:$2').replace('xmlns=', 'xmlns:ds=')) }),
  },
  { kind: 'document', rule: 'F01', code: 298, models: BOTH, why: SIGNATURE, signature: true, break: (d) => ({ xml: d.xml.replace(/URI="#NFe([0-9A-Z]{44})"/, (_, k: string) => `URI="#NFe${otherLastDigit(k)}"`) }) },
  { kind: 'document', rule: 'F02', code: 297, models: BOTH, why: SIGNATURE, signature: true, break: (d) => ({ xml: setText(d.xml, ['ide', 'natOp'], (v) => v + ' X') }) },
  { kind: 'document', rule: 'F03', code: 213, models: BOTH, why: `${ISSUER} (the certificate)`, signature: true, break: (d) => ({ xml: d.rebuild(otherCnpjKey()) }) },
  // 4.2.1 identification
  { kind: 'document', rule: 'A03-10', code: 502, models: BOTH, why: COMPUTED, break: (d) => ({ xml: setText(d.xml, ['ide', 'nNF'], (n) => String(n === '999999999' ? 1 : Number(n) + 1)) }) },
  { kind: 'excluded', rule: 'B02-10', code: 226, why: 'shadowed: the XSD (TCodUfIBGE) admits only the 27 codes the QR check knows, so an unknown cUF is 225 first' },
  { kind: 'document', rule: 'B09-40', code: 704, models: NFCE, why: 'dhEmi is the moment the gateway signs; the delay is the transmission', applies: (c) => !c.offline, break: (d) => ({ xml: d.xml, lateByMs: 6 * 60_000 }) },
  { kind: 'document', rule: 'B21-20', code: 710, models: NFE, why: 'the NF-e request has no DANFE format field (tpImp is written 1)', break: (d) => ({ xml: setText(d.xml, ['ide', 'tpImp'], () => '4') }) },
  { kind: 'document', rule: 'B23-10', code: 253, models: BOTH, why: COMPUTED, break: (d) => ({ xml: d.xml.replace(/Id="NFe([0-9A-Z]{44})"/, (_, k: string) => `Id="NFe${otherLastDigit(k)}"`) }) },
  { kind: 'document', rule: 'B25b-10', code: 794, models: NFE, why: 'the NF-e request has no home delivery presence (presenca has no indPres 4)', break: (d) => ({ xml: setText(d.xml, ['ide', 'indPres'], () => '4') }) },
  { kind: 'document', rule: 'C17-20', code: 209, models: BOTH, why: ISSUER, break: (d) => ({ xml: setText(d.xml, ['emit', 'IE'], otherLastDigit) }) },
  // recipient
  { kind: 'request', rule: 'E01-10', code: 719, models: NFE, break: (c) => (delete (nfe(c) as Partial<NfeRequest>).destinatario, 'destinatario') },
  { kind: 'request', rule: 'E03a-10', code: 720, models: NFE, applies: (c) => op(c).idDest === 3, break: (c) => (delete nfe(c).destinatario.id_estrangeiro, 'destinatario.id_estrangeiro') },
  {
    kind: 'request', rule: 'E03a-20', code: 721, models: NFE,
    // The condition holds for a recipient in Brazil who is not a final consumer (indFinal 0).
    applies: (c) => op(c).idDest !== 3 && nfe(c).destinatario.indicador_ie !== 'nao_contribuinte' && !c.req.items.some((i) => 'icms_partilha' in i),
    break: (c) => {
      const d = nfe(c).destinatario;
      delete d.cnpj;
      delete d.cpf;
      d.id_estrangeiro = 'PASS12345';
      nfe(c).consumidor_final = false;
      return 'destinatario.id_estrangeiro';
    },
  },
  { kind: 'request', rule: 'E04-10', code: 724, models: NFE, break: (c) => (delete (nfe(c).destinatario as Partial<NfeRequest['destinatario']>).name, 'destinatario.name') },
  { kind: 'document', rule: 'E04-20', code: 598, models: BOTH, why: 'in homologation the gateway writes the required phrase as xNome', applies: (c, d) => c.tpAmb === 2 && textAt(d.xml, ['dest', 'xNome']) !== null, break: (d) => ({ xml: setText(d.xml, ['dest', 'xNome'], () => 'CLIENTE') }) },
  { kind: 'request', rule: 'E05-10', code: 726, models: NFE, break: (c) => (delete (nfe(c).destinatario as Partial<NfeRequest['destinatario']>).address, 'destinatario.address') },
  { kind: 'document', rule: 'E12-10', code: 727, models: NFE, why: 'the gateway writes UF EX for every address abroad', applies: (c) => op(c).idDest === 3, break: (d) => ({ xml: setText(setText(d.xml, ['dest', 'enderDest', 'UF'], () => 'SP'), ['dest', 'enderDest', 'cMun'], () => '3550308') }) }, // a SP city: else E10-10 (274, cMun 9999999 in Brazil) comes first
  { kind: 'request', rule: 'E17-50', code: 210, models: NFE, applies: (c) => nfe(c).destinatario.ie !== undefined, break: (c) => ((nfe(c).destinatario.ie = otherLastDigit(nfe(c).destinatario.ie!)), 'destinatario.ie') },
  // items
  { kind: 'document', rule: 'I04-10', code: 373, models: NFCE, why: 'in homologation the gateway writes the required phrase as the first xProd', applies: (c) => c.tpAmb === 2, break: (d) => ({ xml: setText(d.xml, ['det', 'prod', 'xProd'], () => 'CAFE') }) },
  { kind: 'request', rule: 'I05-20', code: 778, models: BOTH, break: (c) => ((c.req.items[last(c)]!.ncm = '99999999'), `items[${last(c)}].ncm`) },
  { kind: 'request', rule: 'I08-30', code: 731, models: NFE, applies: (c) => op(c).idDest !== 3, break: (c) => cfopTo(c, last(c), 3) },
  { kind: 'request', rule: 'I08-40', code: 732, models: NFE, applies: (c) => op(c).idDest !== 2, break: (c) => cfopTo(c, last(c), 2) },
  { kind: 'request', rule: 'I08-50', code: 733, models: NFE, applies: (c) => op(c).idDest !== 1, break: (c) => cfopTo(c, last(c), 1) },
  { kind: 'excluded', rule: 'I08-60', code: 520, why: 'shadowed: a CFOP 3xxx/7xxx to a UF other than EX is E12-10 (727) with idDest 3 and I08-30 (731) without, both checked first' },
  {
    kind: 'document', rule: 'I08-70', code: 521, models: NFE, why: 'the gateway derives idDest from the parties\' states',
    // indFinal 1: otherwise E12-40 (773, internal operation not to a final consumer, another state) answers first.
    applies: (c) => op(c).idDest === 2 && op(c).indIEDest === 1 && op(c).indFinal === 1 && nfe(c).presenca !== 'presencial',
    break: (d) => ({ xml: setText(d.xml, ['ide', 'idDest'], () => '1') }),
  },
  {
    kind: 'excluded', rule: 'I08-90', code: 523,
    why: 'shadowed (without UFCons, entrega or retirada, which the gateway never writes): an interstate CFOP within one state is E12-30/E12-50 (772) first with idDest 2, I08-40 (732) with idDest 1',
  },
  { kind: 'document', rule: 'N12-50', code: 741, models: NFCE, why: 'the NFC-e request has no ICMS split (icms_partilha is NF-e only)', break: (d) => ({ xml: editAt(d.xml, ['det', 'imposto', 'ICMS'], () => `<ICMS>${ICMS_PART}</ICMS>`) }) },
  { kind: 'document', rule: 'N12-60', code: 740, models: NFCE, why: 'the NFC-e request has no ST transfer (st_repasse is NF-e only)', break: (d) => ({ xml: editAt(d.xml, ['det', 'imposto', 'ICMS'], () => `<ICMS>${ICMS_ST}</ICMS>`) }) },
  {
    kind: 'request', rule: 'NA01-20', code: 694, models: NFE,
    applies: (c) => c.req.items.some((i) => 'difal' in i && !('icms_partilha' in i) && difalRequired(op(c), code(i), i.cfop)),
    break: (c) => {
      const k = c.req.items.findIndex((i) => 'difal' in i && difalRequired(op(c), code(i), i.cfop));
      delete (c.req.items[k] as NfeRequest['items'][number]).difal;
      return `items[${k}].difal`;
    },
  },
  { kind: 'request', rule: 'NA01-30', code: 695, models: NFE, applies: (c) => !difalAllowed(op(c)), break: (c) => (((c.req.items[0] as NfeRequest['items'][number]).difal = { destination_rate: 20 }), 'items[0].difal') },
  // totals, billing, payments
  { kind: 'document', rule: 'W07-10', code: 564, models: BOTH, why: COMPUTED, break: (d) => ({ xml: setText(d.xml, ['total', 'ICMSTot', 'vProd'], plusCent) }) },
  { kind: 'document', rule: 'W16-10', code: 610, models: BOTH, why: COMPUTED, break: (d) => ({ xml: setText(d.xml, ['total', 'ICMSTot', 'vFrete'], plusCent) }) },
  { kind: 'document', rule: 'Y01-20', code: 905, models: NFE, why: WRITTEN, applies: (_c, d) => hasTag(d.xml, 'fat'), break: (d) => ({ xml: editAt(d.xml, ['cobr', 'fat'], () => '') }) },
  { kind: 'document', rule: 'Y06-10', code: 902, models: NFE, why: COMPUTED, applies: (_c, d) => hasTag(d.xml, 'fat'), break: (d) => ({ xml: setText(d.xml, ['cobr', 'fat', 'vLiq'], plusCent) }) },
  {
    kind: 'request', rule: 'Y09-30', code: 850, models: NFE, applies: (c) => (nfe(c).cobranca?.duplicatas?.length ?? 0) >= 2,
    break: (c) => {
      const dups = nfe(c).cobranca!.duplicatas!;
      dups[1]!.vencimento = new Date(Date.parse(dups[0]!.vencimento) - 86_400_000).toISOString().slice(0, 10);
      return 'cobranca.duplicatas[1].vencimento';
    },
  },
  { kind: 'request', rule: 'Y10-10', code: 851, models: NFE, applies: (c) => (nfe(c).cobranca?.duplicatas?.length ?? 0) >= 1, break: (c) => ((nfe(c).cobranca!.duplicatas![0]!.valor = Number(plusCent(String(nfe(c).cobranca!.duplicatas![0]!.valor)))), 'cobranca.duplicatas') },
  {
    kind: 'request', rule: 'YA03-10', code: 865, models: NFCE, applies: (c) => c.vNF >= 2,
    break: (c) => {
      delete sale(c).payments;
      sale(c).payment = { method: 'dinheiro', amount: (c.vNF - 1) / 100 };
      return 'payment';
    },
  },
  { kind: 'document', rule: 'YA03-20', code: 866, models: BOTH, why: 'the gateway writes vTroco whenever the payments exceed vNF', applies: (_c, d) => !d.xml.includes('<tPag>90</tPag>'), break: (d) => ({ xml: setText(d.xml.replace(/<vTroco>[^<]*<\/vTroco>/, ''), ['pag', 'detPag', 'vPag'], plusCent) }) },
  {
    kind: 'document', rule: 'YA09-10', code: 869, models: BOTH, why: COMPUTED,
    break: (d) => ({ xml: hasTag(d.xml, 'vTroco') ? setText(d.xml, ['pag', 'vTroco'], plusCent) : d.xml.replace('</pag>', '<vTroco>0.01</vTroco></pag>') }),
  },
  // NFC-e QR code
  { kind: 'document', rule: 'ZX02-10', code: 394, models: NFCE, why: WRITTEN, break: (d) => ({ xml: editAt(d.xml, ['infNFeSupl'], () => '') }) },
  { kind: 'document', rule: 'ZX02-20', code: 395, models: NFCE, why: WRITTEN, break: (d) => ({ xml: qr(d.xml, (o) => o.replace(/:\/\/[^/?]+/, '://www.example.com')) }) },
  { kind: 'excluded', rule: 'ZX02-224', code: 396, why: 'shadowed: the XSD pattern of qrCode demands p= with a 44-character key, so a QR code without one is 225 first' },
  { kind: 'document', rule: 'ZX02-228', code: 397, models: NFCE, why: WRITTEN, break: (d) => ({ xml: qr(d.xml, (o) => o.replace(/p=([0-9A-Z]{30})([0-9])/, (_, a: string, b: string) => `p=${a}${(Number(b) + 1) % 10}`)) }) },
  { kind: 'excluded', rule: 'ZX02-236', code: 398, why: 'shadowed: the XSD pattern of qrCode fixes the version parameter, so another version is 225 first' },
  // ZX02-320: the hash of a version 2 QR code (its last parameter, 40 hex digits) made another one.
  {
    kind: 'document', rule: 'ZX02-320', code: 464, models: NFCE, why: COMPUTED, applies: (_c, d) => /\?p=[0-9A-Z]{44}\|2\|/.test(d.xml),
    break: (d) => ({ xml: qr(d.xml, (o) => o.replace(/([0-9A-Fa-f])</, (_, h: string) => `${h === 'A' ? 'B' : 'A'}<`)) }),
  },
  // technical responsible (ZD): an account or issuer setting, not a field of the sale
  { kind: 'document', rule: 'ZD01-10', code: 972, models: BOTH, why: RESP_TEC, applies: (c, d) => respTecRequired(c.issuer.uf) && hasTag(d.xml, 'infRespTec'), break: (d) => ({ xml: editAt(d.xml, ['infRespTec'], () => '') }) },
  { kind: 'document', rule: 'ZD02-10', code: 973, models: BOTH, why: RESP_TEC, applies: (c, d) => respTecRequired(c.issuer.uf) && hasTag(d.xml, 'infRespTec'), break: (d) => ({ xml: setText(d.xml, ['infRespTec', 'CNPJ'], otherLastDigit) }) },
  // transport (X): the NFC-e carries freight and a carrier only in a home delivery
  { kind: 'request', rule: 'X02-10', code: 753, models: NFCE, applies: (c) => !c.offline && !sale(c).home_delivery, break: (c) => ((sale(c).transporte = { modalidade: 'emitente', transportadora: { cnpj: '10422724000187', name: 'Entregas Rapidas Ltda' } }), 'transporte.modalidade') },
  { kind: 'request', rule: 'X03-10', code: 754, models: NFCE, applies: (c) => !c.offline && !sale(c).home_delivery, break: (c) => ((sale(c).transporte = { modalidade: 'sem_frete', transportadora: { cnpj: '10422724000187', name: 'Entregas Rapidas Ltda' } }), 'transporte.transportadora') },
  { kind: 'request', rule: 'X03-20', code: 786, models: NFCE, applies: (c) => !c.offline && sale(c).home_delivery === true, break: (c) => (delete sale(c).transporte, 'transporte.transportadora') },
  { kind: 'request', rule: 'X04-20', code: 542, models: NFCE, applies: (c) => carrier(c)?.cnpj !== undefined, break: (c) => ((carrier(c)!.cnpj = otherLastDigit(carrier(c)!.cnpj!)), 'transporte.transportadora.cnpj') },
  { kind: 'request', rule: 'X05-10', code: 543, models: NFCE, applies: (c) => carrier(c) !== undefined, break: (c) => (delete carrier(c)!.cnpj, (carrier(c)!.cpf = '52998224726'), 'transporte.transportadora.cpf') },
  { kind: 'request', rule: 'X07-10', code: 559, models: NFCE, applies: (c) => carrier(c) !== undefined, break: (c) => ((carrier(c)!.ie = 'ISENTO'), delete carrier(c)!.uf, 'transporte.transportadora.uf') },
  ...(
    [
      ['X11-10', 755, '<retTransp><vServ>10.00</vServ><vBCRet>10.00</vBCRet><pICMSRet>12.00</pICMSRet><vICMSRet>1.20</vICMSRet><CFOP>5353</CFOP><cMunFG>3550308</cMunFG></retTransp>'],
      ['X18-10', 756, '<veicTransp><placa>ABC1234</placa><UF>SP</UF></veicTransp>'],
      ['X22-10', 757, '<reboque><placa>ABC1234</placa><UF>SP</UF></reboque>'],
      ['X25a-10', 758, '<vagao>V123</vagao>'],
      ['X25b-10', 759, '<balsa>B123</balsa>'],
    ] as const
  ).map(([rule, code, group]): GoodsBreaker => ({
    kind: 'document', rule, code, models: NFCE, why: 'the NFC-e request has no such transport group',
    break: (d) => ({ xml: d.xml.replace(/(<\/transporta>|<modFrete>9<\/modFrete>)/, (m) => m + group) }),
  })),
  // exports (ZA)
  { kind: 'request', rule: 'ZA01-10', code: 355, models: NFE, applies: (c) => op(c).idDest === 3 && op(c).tpNF === 1 && nfe(c).export !== undefined, break: (c) => (delete nfe(c).export, 'export') },
  { kind: 'request', rule: 'ZA01-20', code: 356, models: NFE, applies: (c) => op(c).idDest !== 3, break: (c) => ((nfe(c).export = { shipment_uf: 'SP', shipment_place: 'Porto de Santos' }), 'export') },
  {
    kind: 'document', rule: 'ZA01-30', code: 814, models: NFCE, why: 'the NFC-e request has no export group',
    break: (d) => ({ xml: d.xml.replace(/(<\/infAdic>|<\/infIntermed>|<\/pag>)(?![\s\S]*(<\/infAdic>|<\/infIntermed>))/, (m) => `${m}<exporta><UFSaidaPais>SP</UFSaidaPais><xLocExporta>PORTO DE SANTOS</xLocExporta></exporta>`) }),
  },
  // database: the authority's own records
  ...(
    [['2B08-10', 539], ['2B08-20', 204], ['2B08-40', 205], ['3B08-100', 206]] as const
  ).map(([rule, code]): GoodsBreaker => ({ kind: 'excluded', rule, code, why: 'the authority\'s records (a number or key used, denied or voided before): test/authority-authorization.test.ts' })),
];

let otherKey: SigningKey | undefined;
/** A key whose certificate names a CNPJ of another root than any generated issuer (MOC F03: 213). */
export function otherCnpjKey(): SigningKey {
  if (!otherKey) throw new Error('call setOtherCnpjKey first');
  return otherKey;
}
export function setOtherCnpjKey(key: SigningKey): void {
  otherKey = key;
}
