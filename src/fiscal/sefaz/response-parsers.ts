import { XMLParser } from 'fast-xml-parser';
import type {
  AuthorizationOutcome,
  ConsultOutcome,
  DuplicateReference,
  EventOutcome,
  EventResult,
  InutilizationOutcome,
  Protocol,
  ProtocolInfo,
  StatusOutcome,
  Timing,
} from './outcomes.js';
import { DENIAL_CODES, UNAVAILABLE_CODES } from './outcomes.js';
import { sliceAll, sliceElement } from './xml-slice.js';
import { FISCAL_XML_PARSER_OPTIONS } from '../xml/xml-parser-options.js';

type Node = Record<string, unknown>;

const parser = new XMLParser(FISCAL_XML_PARSER_OPTIONS);

function str(node: Node | undefined, key: string): string | null {
  const v = node?.[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') return ((v as Node)['#text'] as string | undefined) ?? null;
  return String(v);
}

function child(node: Node | undefined, key: string): Node | undefined {
  const v = node?.[key];
  if (Array.isArray(v)) return v[0] as Node;
  return v && typeof v === 'object' ? (v as Node) : undefined;
}

/** Parses a payload and returns its root element, or null when the root is not the expected one. */
function root(payload: string, name: string): Node | null {
  try {
    const doc = parser.parse(payload) as Node;
    return child(doc, name) ?? null;
  } catch {
    return null;
  }
}

function protocolFrom(protNFeXml: string): Protocol | null {
  // Only infProt is read: the protNFe is kept as sent (its bytes), and its Signature, most of its text,
  // says nothing the gateway reads here; parsing it was half the cost of reading an answer.
  const infProtXml = sliceElement(protNFeXml, 'infProt');
  const infProt = infProtXml ? (root(infProtXml.outer, 'infProt') ?? undefined) : undefined;
  if (!infProt) return null;
  const info: ProtocolInfo = {
    tpAmb: str(infProt, 'tpAmb') ?? '',
    verAplic: str(infProt, 'verAplic') ?? '',
    accessKey: str(infProt, 'chNFe') ?? '',
    dhRecbto: str(infProt, 'dhRecbto') ?? '',
    nProt: str(infProt, 'nProt'),
    digVal: str(infProt, 'digVal'),
    cStat: Number(str(infProt, 'cStat')),
    xMotivo: str(infProt, 'xMotivo') ?? '',
  };
  return { info, protNFeXml };
}

/** Duplicate rejections carry the existing note's facts in brackets (MOC: 204 "[nRec:...]"; SVRS adds nProt/dhAut). */
export function duplicateReference(xMotivo: string): DuplicateReference {
  const pick = (k: string) => new RegExp(`\\[\\s*${k}\\s*:\\s*([^\\]]+?)\\s*\\]`, 'i').exec(xMotivo)?.[1] ?? null;
  return { nProt: pick('nProt'), accessKey: pick('chNFe'), dhAut: pick('dhAut'), nRec: pick('nRec') };
}

function unknown(reason: string, timing: Timing, inDoubt: boolean) {
  return { kind: 'unknown' as const, reason, httpStatus: null, inDoubt, timing };
}

/**
 * The key or number is already in the authority's records (MOC group 2): 204 authorized, 205 denied,
 * 218 canceled (2B08-20/40/30), 539 the number under another key. The note's fate is the record's,
 * not a rejection that frees its number: the reconciliation consults the key (reconcile.ts).
 */
const IN_RECORDS = new Set([204, 205, 218, 539]);

/** Classifies one protocol (inside retEnviNFe, retConsReciNFe). */
function classifyProtocol(protocol: Protocol, base: { timing: Timing; responseXml: string }): AuthorizationOutcome {
  const { cStat, xMotivo } = protocol.info;
  const answered = { cStat, xMotivo, ...base };
  if (cStat === 100 || cStat === 150) return { kind: 'authorized', late: cStat === 150, protocol, ...answered };
  if (DENIAL_CODES.has(cStat)) return { kind: 'denied', protocol, ...answered };
  if (IN_RECORDS.has(cStat)) {
    return { kind: 'duplicate', existing: duplicateReference(xMotivo), protocol, ...answered };
  }
  return { kind: 'rejected', protocol, ...answered };
}

/** Lot-level answer of NFeAutorizacao4 (retEnviNFe) or NFeRetAutorizacao4 (retConsReciNFe). */
export function parseAuthorizationAnswer(payload: string, timing: Timing): AuthorizationOutcome {
  const rootName = sliceElement(payload, 'retEnviNFe') ? 'retEnviNFe' : 'retConsReciNFe';
  // The protocol is cut out and read apart (protocolFrom); the parser reads the rest, the lot's own status.
  const prot = sliceElement(payload, 'protNFe');
  const ret = root(prot ? payload.slice(0, prot.start) + payload.slice(prot.end) : payload, rootName);
  // The request reached the authority and may have been processed: an unreadable answer is in doubt.
  if (!ret) return unknown(`answer is not retEnviNFe/retConsReciNFe`, timing, true);
  const cStat = Number(str(ret, 'cStat'));
  const xMotivo = str(ret, 'xMotivo') ?? '';
  const base = { timing, responseXml: payload };
  if (cStat === 104) {
    const protocol = prot ? protocolFrom(prot.outer) : null;
    if (!protocol) return unknown('lot processed (104) without a readable protNFe', timing, true);
    return classifyProtocol(protocol, base);
  }
  if (cStat === 103 || cStat === 105) {
    const nRec = str(child(ret, 'infRec'), 'nRec') ?? str(ret, 'nRec');
    return { kind: 'in-process', cStat, xMotivo, nRec, ...base };
  }
  if (UNAVAILABLE_CODES.has(cStat)) {
    return { kind: 'unavailable', cStat, xMotivo, httpStatus: null, inDoubt: false, timing };
  }
  if (IN_RECORDS.has(cStat)) {
    return { kind: 'duplicate', cStat, xMotivo, existing: duplicateReference(xMotivo), protocol: null, ...base };
  }
  if (!Number.isFinite(cStat) || cStat <= 0) return unknown('answer without cStat', timing, true);
  return { kind: 'rejected', cStat, xMotivo, protocol: null, ...base };
}

/** NFeConsultaProtocolo4 answer (retConsSitNFe). */
export function parseConsultAnswer(payload: string, timing: Timing): ConsultOutcome {
  const ret = root(payload, 'retConsSitNFe');
  if (!ret) return unknown('answer is not retConsSitNFe', timing, false);
  const cStat = Number(str(ret, 'cStat'));
  const xMotivo = str(ret, 'xMotivo') ?? '';
  const base = { cStat, xMotivo, timing, responseXml: payload };
  const prot = sliceElement(payload, 'protNFe');
  const protocol = prot ? protocolFrom(prot.outer) : null;
  const events = sliceAll(payload, 'procEventoNFe').map((s) => s.outer);
  if ((cStat === 100 || cStat === 150) && protocol) {
    return { kind: 'authorized', late: cStat === 150, protocol, events, ...base };
  }
  // MOC: 101 canceled, 151/155 canceled out of time (docs/fiscal/cstat.md).
  if (cStat === 101 || cStat === 151 || cStat === 155) return { kind: 'canceled', protocol, events, ...base };
  if (DENIAL_CODES.has(cStat)) return { kind: 'denied', protocol, events, ...base };
  if (cStat === 217) return { kind: 'not-found', ...base };
  // NT 2014.001 5.6: a key with only its EPEC answers 124 "EPEC Autorizado" with the EPEC's event.
  if (cStat === 124) return { kind: 'epec', events, ...base };
  if (UNAVAILABLE_CODES.has(cStat)) return { kind: 'unavailable', cStat, xMotivo, httpStatus: null, inDoubt: false, timing };
  if (!Number.isFinite(cStat) || cStat <= 0) return unknown('answer without cStat', timing, false);
  return { kind: 'rejected', ...base };
}

/** NFeStatusServico4 answer (retConsStatServ). */
export function parseStatusAnswer(payload: string, timing: Timing): StatusOutcome {
  const ret = root(payload, 'retConsStatServ');
  if (!ret) return unknown('answer is not retConsStatServ', timing, false);
  const cStat = Number(str(ret, 'cStat'));
  const xMotivo = str(ret, 'xMotivo') ?? '';
  const base = { cStat, xMotivo, timing, responseXml: payload, dhRecbto: str(ret, 'dhRecbto') };
  if (cStat === 107) {
    const tMed = str(ret, 'tMed');
    return { kind: 'in-operation', tMed: tMed === null ? null : Number(tMed), ...base };
  }
  return { kind: 'stopped', ...base };
}

function eventResult(retEventoXml: string): EventResult | null {
  const inf = child(root(retEventoXml, 'retEvento') ?? undefined, 'infEvento');
  if (!inf) return null;
  return {
    cStat: Number(str(inf, 'cStat')),
    xMotivo: str(inf, 'xMotivo') ?? '',
    tpEvento: str(inf, 'tpEvento'),
    nSeqEvento: str(inf, 'nSeqEvento'),
    accessKey: str(inf, 'chNFe'),
    nProt: str(inf, 'nProt'),
    dhRegEvento: str(inf, 'dhRegEvento'),
    pendingKeys: [inf['chNFePend']].flat().filter((k) => k !== undefined && k !== null).map((k) => String(typeof k === 'object' ? (k as Node)['#text'] : k)),
    retEventoXml,
  };
}

/** NFeRecepcaoEvento4 answer (retEnvEvento) for a lot of one event. */
export function parseEventAnswer(payload: string, timing: Timing): EventOutcome {
  const ret = root(payload, 'retEnvEvento');
  if (!ret) return unknown('answer is not retEnvEvento', timing, true);
  const lotStat = Number(str(ret, 'cStat'));
  const base = { timing, responseXml: payload };
  const slice = sliceElement(payload, 'retEvento');
  const event = slice ? eventResult(slice.outer) : null;
  if (UNAVAILABLE_CODES.has(lotStat)) {
    return { kind: 'unavailable', cStat: lotStat, xMotivo: str(ret, 'xMotivo') ?? '', httpStatus: null, inDoubt: false, timing };
  }
  // 128 = lot processed; each event then has its own cStat: 135/136 registered, 155 accepted late (docs/fiscal/events.md).
  if (lotStat === 128 && event) {
    const registered = event.cStat === 135 || event.cStat === 136 || event.cStat === 155;
    return { kind: registered ? 'registered' : 'rejected', cStat: event.cStat, xMotivo: event.xMotivo, event, ...base } as EventOutcome;
  }
  return { kind: 'rejected', cStat: lotStat, xMotivo: str(ret, 'xMotivo') ?? '', event, ...base };
}

/** NFeInutilizacao4 answer (retInutNFe). */
export function parseInutilizationAnswer(payload: string, timing: Timing): InutilizationOutcome {
  const ret = root(payload, 'retInutNFe');
  const inf = child(ret ?? undefined, 'infInut');
  const slice = sliceElement(payload, 'retInutNFe');
  if (!inf || !slice) return unknown('answer is not retInutNFe', timing, true);
  const cStat = Number(str(inf, 'cStat'));
  const xMotivo = str(inf, 'xMotivo') ?? '';
  const base = { cStat, xMotivo, timing, responseXml: payload, retInutNFeXml: slice.outer };
  if (UNAVAILABLE_CODES.has(cStat)) return { kind: 'unavailable', cStat, xMotivo, httpStatus: null, inDoubt: false, timing };
  const nProt = str(inf, 'nProt');
  if (cStat === 102 && nProt) return { kind: 'voided', nProt, ...base };
  return { kind: 'rejected', ...base };
}
