import { XMLParser } from 'fast-xml-parser';
import { NFE_NAMESPACE } from '../fiscal/xml/xml-text.js';
import { sliceElement } from '../fiscal/sefaz/xml-slice.js';

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
  emitCnpj: string | null;
  emitCpf: string | null;
  dest: { xNome: string | null; kind: 'CNPJ' | 'CPF' | 'idEstrangeiro'; id: string } | { xNome: string | null; kind: null } | null;
  items: Array<{ xProd: string; vProd: string; indTot: string }>;
  vProdTotal: string;
  vNF: string;
  payments: string[];
  vTroco: string | null;
  qrCode: string | null;
}

type Node = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  isArray: (name) => name === 'det' || name === 'detPag',
});

const s = (n: unknown, k: string): string => {
  const v = (n as Node | undefined)?.[k];
  return v === undefined || v === null || typeof v === 'object' ? '' : String(v);
};
const o = (n: unknown, k: string): Node | undefined => (n as Node | undefined)?.[k] as Node | undefined;

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
  const nfe = o(parser.parse(nfeXml), 'NFe');
  const inf = o(nfe, 'infNFe');
  const ide = o(inf, 'ide');
  const emit = o(inf, 'emit');
  const destNode = o(inf, 'dest');
  const id = s(inf, '@Id');
  let dest: NfeFacts['dest'] = null;
  if (destNode) {
    const xNome = s(destNode, 'xNome') || null;
    const kind = (['CNPJ', 'CPF', 'idEstrangeiro'] as const).find((k) => k in destNode) ?? null;
    dest = kind ? { xNome, kind, id: s(destNode, kind) } : { xNome, kind: null };
  }
  const dets = ((inf?.det as Node[] | undefined) ?? []).map((d) => {
    const prod = o(d, 'prod');
    return { xProd: s(prod, 'xProd'), vProd: s(prod, 'vProd'), indTot: s(prod, 'indTot') };
  });
  const tot = o(o(inf, 'total'), 'ICMSTot');
  const pag = o(inf, 'pag');
  const qrRaw = o(nfe, 'infNFeSupl')?.qrCode;
  return {
    xml: nfeXml,
    id,
    accessKeyFromId: id.startsWith('NFe') ? id.slice(3) : '',
    cUF: s(ide, 'cUF'),
    cNF: s(ide, 'cNF'),
    mod: s(ide, 'mod'),
    serie: s(ide, 'serie'),
    nNF: s(ide, 'nNF'),
    dhEmi: s(ide, 'dhEmi'),
    tpEmis: s(ide, 'tpEmis'),
    cDV: s(ide, 'cDV'),
    tpAmb: s(ide, 'tpAmb'),
    emitCnpj: s(emit, 'CNPJ') || null,
    emitCpf: s(emit, 'CPF') || null,
    dest,
    items: dets,
    vProdTotal: s(tot, 'vProd'),
    vNF: s(tot, 'vNF'),
    payments: ((pag?.detPag as Node[] | undefined) ?? []).map((p) => s(p, 'vPag')),
    vTroco: s(pag, 'vTroco') || null,
    qrCode: qrRaw === undefined ? null : String(qrRaw).trim(),
  };
}
