// The documents NFeDistribuicaoDFe hands out (docs/fiscal/nfe-model-55.md#distribution-and-throttling), read into small records:
//   resNFe_v1.01      summary of an NF-e addressed to us (before a 210200/210210 by us)
//   resEvento_v1.01   summary of an event on such an NF-e
//   procNFe_v4.00     the whole nfeProc (after our 210200/210210, or always for our own notes)
//   procEventoNFe_v1.00  an event with its protocol
import { XMLParser } from 'fast-xml-parser';
import { FISCAL_XML_PARSER_OPTIONS } from '../xml/xml-parser-options.js';

type Node = Record<string, unknown>;
const parser = new XMLParser(FISCAL_XML_PARSER_OPTIONS);

function node(v: unknown): Node | undefined {
  if (Array.isArray(v)) return node(v[0]);
  return v && typeof v === 'object' ? (v as Node) : undefined;
}
function text(n: Node | undefined, k: string): string | null {
  const v = n?.[k];
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') return (node(v)?.['#text'] as string | undefined) ?? null;
  return String(v);
}

/** resNFe (resNFe_v1.01.xsd). cSitNFe: 1 authorised, 2 denied, 3 cancelled. */
export interface NfeSummary {
  kind: 'resNFe';
  accessKey: string;
  issuer: { CNPJ: string } | { CPF: string };
  issuerName: string;
  issuerIE: string;
  dhEmi: string;
  /** 0 inbound, 1 outbound (from the issuer's point of view). */
  tpNF: '0' | '1';
  vNF: string;
  digVal: string | null;
  dhRecbto: string;
  nProt: string;
  cSitNFe: '1' | '2' | '3';
}

/** resEvento (resEvento_v1.01.xsd). */
export interface EventSummary {
  kind: 'resEvento';
  cOrgao: string;
  author: { CNPJ: string } | { CPF: string };
  accessKey: string;
  dhEvento: string;
  tpEvento: string;
  nSeqEvento: string;
  xEvento: string;
  dhRecbto: string;
  nProt: string;
}

/** What the gateway needs from a whole nfeProc to list and file it. */
export interface ProcNfeSummary {
  kind: 'procNFe';
  accessKey: string;
  model: string;
  issuer: { CNPJ: string } | { CPF: string } | null;
  issuerName: string | null;
  recipient: { CNPJ: string } | { CPF: string } | { idEstrangeiro: string } | null;
  dhEmi: string | null;
  vNF: string | null;
  nProt: string | null;
  cStat: number | null;
}

/** An event with its protocol (procEventoNFe_v1.00.xsd). */
export interface ProcEventSummary {
  kind: 'procEventoNFe';
  accessKey: string;
  tpEvento: string;
  nSeqEvento: string;
  author: { CNPJ: string } | { CPF: string } | null;
  cStat: number | null;
  nProt: string | null;
}

export type DfeSummary = NfeSummary | EventSummary | ProcNfeSummary | ProcEventSummary;

function party(n: Node | undefined): { CNPJ: string } | { CPF: string } | null {
  const cnpj = text(n, 'CNPJ');
  if (cnpj) return { CNPJ: cnpj };
  const cpf = text(n, 'CPF');
  return cpf ? { CPF: cpf } : null;
}

function need<T>(v: T | null | undefined, what: string): T {
  if (v === null || v === undefined || v === '') throw new Error(`${what} missing`);
  return v;
}

/** Reads a distributed document by its root element; null for a document we do not know. Throws on a malformed known one. */
export function summarizeDfe(xml: string): DfeSummary | null {
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (err) {
    throw new Error(`not well-formed XML: ${(err as Error).message}`);
  }
  const res = node(doc.resNFe);
  if (res) {
    return {
      kind: 'resNFe',
      accessKey: need(text(res, 'chNFe'), 'chNFe'),
      issuer: need(party(res), 'CNPJ/CPF'),
      issuerName: need(text(res, 'xNome'), 'xNome'),
      issuerIE: text(res, 'IE') ?? '',
      dhEmi: need(text(res, 'dhEmi'), 'dhEmi'),
      tpNF: text(res, 'tpNF') === '0' ? '0' : '1',
      vNF: need(text(res, 'vNF'), 'vNF'),
      digVal: text(res, 'digVal'),
      dhRecbto: need(text(res, 'dhRecbto'), 'dhRecbto'),
      nProt: need(text(res, 'nProt'), 'nProt'),
      cSitNFe: need((['1', '2', '3'] as const).find((c) => c === text(res, 'cSitNFe')), 'cSitNFe'),
    };
  }
  const ev = node(doc.resEvento);
  if (ev) {
    return {
      kind: 'resEvento',
      cOrgao: need(text(ev, 'cOrgao'), 'cOrgao'),
      author: need(party(ev), 'CNPJ/CPF'),
      accessKey: need(text(ev, 'chNFe'), 'chNFe'),
      dhEvento: need(text(ev, 'dhEvento'), 'dhEvento'),
      tpEvento: need(text(ev, 'tpEvento'), 'tpEvento'),
      nSeqEvento: need(text(ev, 'nSeqEvento'), 'nSeqEvento'),
      xEvento: text(ev, 'xEvento') ?? '',
      dhRecbto: need(text(ev, 'dhRecbto'), 'dhRecbto'),
      nProt: need(text(ev, 'nProt'), 'nProt'),
    };
  }
  const proc = node(doc.nfeProc);
  if (proc) {
    const inf = node(node(proc.NFe)?.infNFe);
    const ide = node(inf?.ide);
    const emit = node(inf?.emit);
    const dest = node(inf?.dest);
    const prot = node(node(proc.protNFe)?.infProt);
    const foreign = text(dest, 'idEstrangeiro');
    const cStat = text(prot, 'cStat');
    return {
      kind: 'procNFe',
      accessKey: need(text(prot, 'chNFe') ?? (text(inf, '@Id') ?? '').replace(/^NFe/, ''), 'chNFe'),
      model: text(ide, 'mod') ?? '',
      issuer: party(emit),
      issuerName: text(emit, 'xNome'),
      recipient: party(dest) ?? (foreign !== null ? { idEstrangeiro: foreign } : null),
      dhEmi: text(ide, 'dhEmi'),
      vNF: text(node(node(inf?.total)?.ICMSTot), 'vNF'),
      nProt: text(prot, 'nProt'),
      cStat: cStat === null ? null : Number(cStat),
    };
  }
  const pe = node(doc.procEventoNFe);
  if (pe) {
    const inf = node(node(pe.evento)?.infEvento);
    const ret = node(node(pe.retEvento)?.infEvento);
    const cStat = text(ret, 'cStat');
    return {
      kind: 'procEventoNFe',
      accessKey: need(text(inf, 'chNFe'), 'chNFe'),
      tpEvento: need(text(inf, 'tpEvento'), 'tpEvento'),
      nSeqEvento: need(text(inf, 'nSeqEvento'), 'nSeqEvento'),
      author: party(inf),
      cStat: cStat === null ? null : Number(cStat),
      nProt: text(ret, 'nProt'),
    };
  }
  return null;
}
