import { NFE_NAMESPACE } from '../fiscal/xml/xml-text.js';
import { attributeOf, decodeEntities, sliceAll, sliceElement, type ElementSlice } from '../fiscal/sefaz/xml-slice.js';

/** What the authority's rules read from one NF-e (values as written: strings). */
export interface NfeFacts {
  /** The NFe element as received, with the inherited default namespace made explicit. */
  xml: string;
  id: string;
  accessKeyFromId: string;
  cUF: string;
  cNF: string;
  mod: string;
  serie: string;
  nNF: string;
  dhEmi: string;
  tpEmis: string;
  cDV: string;
  tpAmb: string;
  /** finNFe: 1 normal, 2 complementary, 3 adjustment, 4 return. */
  finNFe: string;
  emitCnpj: string | null;
  emitCpf: string | null;
  dest: { xNome: string | null; kind: 'CNPJ' | 'CPF' | 'idEstrangeiro'; id: string } | { xNome: string | null; kind: null } | null;
  /** icmsGroup: the element inside imposto/ICMS (ICMS00, ICMSPart, ICMSSN102, ...). */
  items: Array<{ xProd: string; vProd: string; indTot: string; icmsGroup: string }>;
  vProdTotal: string;
  vNF: string;
  payments: string[];
  /** tPag of each detPag, in the order of payments. */
  paymentMethods: string[];
  vTroco: string | null;
  qrCode: string | null;
  /** infRespTec/CNPJ when the group is present (MOC ZD01), else null. */
  respTecCnpj: string | null;
}

// Read by slicing the text, not by building a tree: the document has passed the XSD by now, so
// each element sits where the layout puts it, and a tree costs ~0.4 ms per note (bench/authority.ts).
const none: ElementSlice = { outer: '', inner: '', prefix: '', start: 0, end: 0 };
const el = (within: ElementSlice | null, name: string) => (within ? sliceElement(within.inner, name) : null);

/** Text content as a parser reports it: CDATA sections verbatim, entities elsewhere decoded. */
function text(slice: ElementSlice | null): string {
  if (!slice || (slice.inner.includes('<') && !slice.inner.includes('<![CDATA['))) return '';
  return slice.inner
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) => (part.startsWith('<![CDATA[') ? part.slice(9, -3) : decodeEntities(part)))
    .join('');
}
const textIn = (within: ElementSlice | null, name: string) => text(el(within, name));

/**
 * Every NFe element of an enviNFe lot with the namespace it inherits written on it, so that it
 * can be checked on its own (inclusive C14N sees the same in-scope namespace either way).
 */
export function nfeElementsOf(enviNFeXml: string): string[] {
  const out: string[] = [];
  for (let e = sliceElement(enviNFeXml, 'NFe'); e; e = sliceElement(enviNFeXml, 'NFe', e.end)) {
    const startTag = e.outer.slice(0, e.outer.indexOf('>'));
    out.push(/\sxmlns\s*=/.test(startTag) ? e.outer : `<NFe xmlns="${NFE_NAMESPACE}"` + e.outer.slice(4));
  }
  return out;
}

export function nfeFacts(nfeXml: string): NfeFacts {
  const nfe = sliceElement(nfeXml, 'NFe') ?? none;
  const inf = el(nfe, 'infNFe');
  const ide = el(inf, 'ide');
  const emit = el(inf, 'emit');
  const destNode = el(inf, 'dest');
  const id = (inf && attributeOf(inf, 'Id')) ?? '';
  let dest: NfeFacts['dest'] = null;
  if (destNode) {
    const xNome = textIn(destNode, 'xNome') || null;
    const kind = (['CNPJ', 'CPF', 'idEstrangeiro'] as const).find((k) => el(destNode, k)) ?? null;
    dest = kind ? { xNome, kind, id: textIn(destNode, kind) } : { xNome, kind: null };
  }
  const items = (inf ? sliceAll(inf.inner, 'det') : []).map((d) => {
    const prod = el(d, 'prod');
    const icms = el(el(d, 'imposto'), 'ICMS');
    const icmsGroup = /^\s*<([A-Za-z0-9]+)[\s>]/.exec(icms?.inner ?? '')?.[1] ?? '';
    return { xProd: textIn(prod, 'xProd'), vProd: textIn(prod, 'vProd'), indTot: textIn(prod, 'indTot'), icmsGroup };
  });
  const tot = el(el(inf, 'total'), 'ICMSTot');
  const pag = el(inf, 'pag');
  const qr = el(el(nfe, 'infNFeSupl'), 'qrCode');
  return {
    xml: nfeXml,
    id,
    accessKeyFromId: id.startsWith('NFe') ? id.slice(3) : '',
    cUF: textIn(ide, 'cUF'),
    cNF: textIn(ide, 'cNF'),
    mod: textIn(ide, 'mod'),
    serie: textIn(ide, 'serie'),
    nNF: textIn(ide, 'nNF'),
    dhEmi: textIn(ide, 'dhEmi'),
    tpEmis: textIn(ide, 'tpEmis'),
    cDV: textIn(ide, 'cDV'),
    tpAmb: textIn(ide, 'tpAmb'),
    finNFe: textIn(ide, 'finNFe'),
    emitCnpj: textIn(emit, 'CNPJ') || null,
    emitCpf: textIn(emit, 'CPF') || null,
    dest,
    items,
    vProdTotal: textIn(tot, 'vProd'),
    vNF: textIn(tot, 'vNF'),
    payments: (pag ? sliceAll(pag.inner, 'detPag') : []).map((p) => textIn(p, 'vPag')),
    paymentMethods: (pag ? sliceAll(pag.inner, 'detPag') : []).map((p) => textIn(p, 'tPag')),
    vTroco: textIn(pag, 'vTroco') || null,
    qrCode: qr ? text(qr).trim() : null,
    respTecCnpj: (() => {
      const r = el(inf, 'infRespTec');
      return r ? textIn(r, 'CNPJ') : null;
    })(),
  };
}
