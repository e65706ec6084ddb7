// NFeDistribuicaoDFe of the Ambiente Nacional (docs/fiscal/nfe-model-55.md#distribution-and-throttling; distDFeInt_v1.01.xsd, retDistDFeInt_v1.01.xsd):
// the documents addressed to an interested CNPJ/CPF, numbered by a per-interested NSU.
import { gunzipSync } from 'node:zlib';
import { el, leaf, NFE_NAMESPACE } from '../xml/xml-text.js';
import { summarizeDfe, type DfeSummary } from './dfe-documents.js';
import type { TransportFailure, Timing } from './outcomes.js';
import { attributeOf, sliceAll, sliceElement } from './xml-slice.js';

/** TNSU: 15 digits. */
export const NSU_PATTERN = /^[0-9]{15}$/;
export const padNsu = (nsu: string | number | bigint): string => String(nsu).padStart(15, '0');

export type DistributionQuery =
  /** The next documents after the last NSU received (0 at the start). */
  | { ultNSU: string | number }
  /** One document by its NSU. */
  | { NSU: string | number }
  /** The documents of one access key. */
  | { chNFe: string };

export interface DistributionRequest {
  tpAmb: 1 | 2;
  /** The interested party: the certificate's CNPJ (or CPF). */
  interested: { CNPJ: string } | { CPF: string };
  /** cUFAutor: IBGE code of the interested party's UF (optional in the XSD). */
  cUFAutor?: string;
  query: DistributionQuery;
}

/** distDFeInt versao 1.01: tpAmb, [cUFAutor], CNPJ|CPF, then one of distNSU/ultNSU, consNSU/NSU, consChNFe/chNFe. */
export function buildDistDFeInt(r: DistributionRequest): string {
  const who = 'CNPJ' in r.interested ? leaf('CNPJ', r.interested.CNPJ) : leaf('CPF', r.interested.CPF);
  const q = r.query;
  const nsu = 'ultNSU' in q ? q.ultNSU : 'NSU' in q ? q.NSU : null;
  if (nsu !== null && !NSU_PATTERN.test(padNsu(nsu))) throw new RangeError(`NSU must have up to 15 digits, got ${String(nsu)}`);
  const choice =
    'ultNSU' in q ? el('distNSU', leaf('ultNSU', padNsu(q.ultNSU))) : 'NSU' in q ? el('consNSU', leaf('NSU', padNsu(q.NSU))) : el('consChNFe', leaf('chNFe', q.chNFe));
  const uf = r.cUFAutor ? leaf('cUFAutor', r.cUFAutor) : '';
  return el('distDFeInt', leaf('tpAmb', r.tpAmb) + uf + who + choice, [['xmlns', NFE_NAMESPACE], ['versao', '1.01']]);
}

/**
 * One docZip, decoded. A document that cannot be read still carries its NSU (the sequence must
 * advance past it) and a problem: xml null when it could not be unzipped, summary null when its
 * content is not what its schema promises. A document of an unknown kind has no summary and no problem.
 */
export interface DistributedDocument {
  nsu: string;
  schema: string;
  xml: string | null;
  summary: DfeSummary | null;
  problem?: string;
}

/** Decompressed size cap per document: far above a real nfeProc, far below a zip bomb. */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** base64 gzip -> XML text, refusing output above maxBytes (zlib stops inflating there). */
export function unzipDocument(base64: string, maxBytes = MAX_DOCUMENT_BYTES): string {
  const zipped = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  try {
    return gunzipSync(zipped, { maxOutputLength: maxBytes }).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`document larger than ${maxBytes} bytes once decompressed`);
    throw new Error(`not gzip: ${(err as Error).message}`);
  }
}

interface DistributionHead {
  cStat: number;
  xMotivo: string;
  dhResp: string | null;
  /** The last NSU of this answer (15 digits): the next distNSU asks from here. */
  ultNSU: string;
  /** The highest NSU the AN holds for the interested party. */
  maxNSU: string;
  timing: Timing;
  responseXml: string;
}

export type DistributionOutcome =
  /** 138: documents found. */
  | (DistributionHead & { kind: 'documents'; documents: DistributedDocument[] })
  /** 137: nothing (new) found: wait an hour before the next distNSU (distribution-pacing.ts). */
  | (DistributionHead & { kind: 'nothing' })
  /** 656: consumption rule broken; the AN refuses the interested party for an hour. */
  | (DistributionHead & { kind: 'throttled' })
  | (DistributionHead & { kind: 'rejected' })
  | TransportFailure;

const textIn = (xml: string, name: string) => sliceElement(xml, name)?.inner.trim() ?? null;

/** retDistDFeInt (versao 1.01) -> outcome, every docZip gunzipped (bounded) and summarized. */
export function parseDistributionAnswer(payload: string, timing: Timing, maxBytes = MAX_DOCUMENT_BYTES): DistributionOutcome {
  const ret = sliceElement(payload, 'retDistDFeInt');
  const cStat = Number(ret ? textIn(ret.inner.split('<loteDistDFeInt')[0]!, 'cStat') : NaN);
  if (!ret || !Number.isInteger(cStat)) return { kind: 'unknown', reason: 'answer is not retDistDFeInt', httpStatus: null, inDoubt: false, timing };
  const head = ret.inner.split('<loteDistDFeInt')[0]!;
  const base: DistributionHead = {
    cStat,
    xMotivo: textIn(head, 'xMotivo') ?? '',
    dhResp: textIn(head, 'dhResp'),
    ultNSU: padNsu(textIn(head, 'ultNSU') ?? '0'),
    maxNSU: padNsu(textIn(head, 'maxNSU') ?? '0'),
    timing,
    responseXml: payload,
  };
  if (cStat === 137) return { kind: 'nothing', ...base };
  if (cStat === 656) return { kind: 'throttled', ...base };
  if (cStat === 108 || cStat === 109) return { kind: 'unavailable', cStat, xMotivo: base.xMotivo, httpStatus: null, inDoubt: false, timing };
  if (cStat !== 138) return { kind: 'rejected', ...base };
  const documents = sliceAll(ret.inner, 'docZip').map((z): DistributedDocument => {
    const nsu = padNsu(attributeOf(z, 'NSU') ?? '0');
    const schema = attributeOf(z, 'schema') ?? '';
    let xml: string;
    try {
      xml = unzipDocument(z.inner, maxBytes);
    } catch (err) {
      return { nsu, schema, xml: null, summary: null, problem: (err as Error).message };
    }
    try {
      return { nsu, schema, xml, summary: summarizeDfe(xml) };
    } catch (err) {
      return { nsu, schema, xml, summary: null, problem: (err as Error).message };
    }
  });
  return { kind: 'documents', documents, ...base };
}
