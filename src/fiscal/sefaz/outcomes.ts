/**
 * What an authority call can end in. Every expected result is a value (docs/decisions.md#expected-outcomes-are-values): a rejection,
 * a denial, an unavailable service and a timeout are outcomes the caller must handle, not errors.
 */

export interface Timing {
  /** When the request started (before connecting, if a connection was needed). */
  sentAt: Date;
  /** When the answer was complete, or when we gave up. */
  receivedAt: Date;
  elapsedMs: number;
}

/** The fields of protNFe/infProt (docs/fiscal/sefaz-services.md#authorization-request-and-answer). */
export interface ProtocolInfo {
  tpAmb: string;
  verAplic: string;
  accessKey: string;
  dhRecbto: string;
  /** 15 digits (17 in PL_010); absent on most rejections. */
  nProt: string | null;
  /** Base64 DigestValue of the NF-e signature, as the authority computed it. */
  digVal: string | null;
  cStat: number;
  xMotivo: string;
}

/** A protocol together with its exact bytes, so the nfeProc can be assembled unchanged. */
export interface Protocol {
  info: ProtocolInfo;
  protNFeXml: string;
}

/** Failures of the exchange itself. `inDoubt` is true when the authority may have acted on the request. */
export type TransportFailure =
  | { kind: 'timeout'; phase: 'connect' | 'response'; inDoubt: boolean; timing: Timing }
  | { kind: 'unavailable'; cStat: number | null; xMotivo: string; httpStatus: number | null; inDoubt: boolean; timing: Timing }
  | { kind: 'unknown'; reason: string; httpStatus: number | null; inDoubt: boolean; timing: Timing };

interface Answered {
  cStat: number;
  xMotivo: string;
  timing: Timing;
  /** The whole answer payload (inside nfeResultMsg), for audit. */
  responseXml: string;
}

/** The bracketed facts SEFAZ appends to duplicate rejections: [nProt:...][dhAut:...][chNFe:...]. */
export interface DuplicateReference {
  nProt: string | null;
  accessKey: string | null;
  dhAut: string | null;
  nRec: string | null;
}

export type AuthorizationOutcome =
  | (Answered & { kind: 'authorized'; late: boolean; protocol: Protocol })
  | (Answered & { kind: 'denied'; protocol: Protocol })
  | (Answered & { kind: 'rejected'; protocol: Protocol | null })
  | (Answered & { kind: 'duplicate'; existing: DuplicateReference; protocol: Protocol | null })
  | (Answered & { kind: 'in-process'; nRec: string | null })
  | TransportFailure;

export type ConsultOutcome =
  | (Answered & { kind: 'authorized'; late: boolean; protocol: Protocol; events: string[] })
  | (Answered & { kind: 'canceled'; protocol: Protocol | null; events: string[] })
  | (Answered & { kind: 'denied'; protocol: Protocol | null; events: string[] })
  | (Answered & { kind: 'not-found' })
  /**
   * 124 "EPEC Autorizado" (NT 2014.001 5.6, docs/fiscal/epec.md): the state holds only the EPEC of this key, not the
   * NF-e itself, which is still to be sent; `events` carries the EPEC's procEventoNFe.
   */
  | (Answered & { kind: 'epec'; events: string[] })
  | (Answered & { kind: 'rejected' })
  | TransportFailure;

export interface EventResult {
  cStat: number;
  xMotivo: string;
  tpEvento: string | null;
  nSeqEvento: string | null;
  accessKey: string | null;
  nProt: string | null;
  dhRegEvento: string | null;
  /** chNFePend of an EPEC's 142 (NT 2014.001 3.3 R32): keys of the issuer's EPEC pending conciliation, at most 50. */
  pendingKeys: string[];
  /** Exact bytes of retEvento, for the procEventoNFe archive. */
  retEventoXml: string;
}

export type EventOutcome =
  | (Answered & { kind: 'registered'; event: EventResult })
  | (Answered & { kind: 'rejected'; event: EventResult | null })
  | TransportFailure;

export type InutilizationOutcome =
  | (Answered & { kind: 'voided'; nProt: string; retInutNFeXml: string })
  | (Answered & { kind: 'rejected'; retInutNFeXml: string })
  | TransportFailure;

export type StatusOutcome =
  // dhRecbto: the authority's clock when it answered (the doctor compares it with ours: B09-10, B09-40).
  | (Answered & { kind: 'in-operation'; tMed: number | null; dhRecbto: string | null })
  | (Answered & { kind: 'stopped'; dhRecbto: string | null })
  | TransportFailure;

export type ReceiptOutcome = AuthorizationOutcome;

// MOC cStat table (docs/fiscal/cstat.md): 110 denied; 301/302/303 denial for the issuer's/recipient's status.
export const DENIAL_CODES: ReadonlySet<number> = new Set([110, 301, 302, 303]);
// 114: an SVC the issuer's state has not activated (NT 2013.007 v1.03 04.1 C03.2, docs/fiscal/svc.md#activation):
// like 108/109 the note was not taken, and the service is not there for this state now.
export const UNAVAILABLE_CODES: ReadonlySet<number> = new Set([108, 109, 114]);
