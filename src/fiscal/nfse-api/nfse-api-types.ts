// What the gateway asks of Sefin Nacional's REST API (docs/fiscal/nfse-national.md#calls) and what comes back, as values: the
// client never throws for an answer or a network condition. nfse-api-client.ts implements it over
// mutual TLS; the sandbox points it at the simulator (authority-sim/nfse/).

/** One `MensagemProcessamento` (docs/fiscal/nfse-national.md#calls); PascalCase items (`Codigo`, `Descricao`) are read too (docs/fiscal/nfse-national.md#hosts-and-transport). */
export interface NfseApiMessage {
  /** `E0714`; '' when the authority sent none. */
  code: string;
  description: string;
  complement?: string | undefined;
}

/** The authority could not be asked or did not answer. `inDoubt`: the request may have been processed. */
export interface NfseApiUnavailable {
  kind: 'unavailable';
  reason: string;
  inDoubt: boolean;
  /** HTTP status when one came (5xx, an unexpected status), else undefined (timeout, connection). */
  status?: number | undefined;
}

/** HTTP 429: ask again after `retryAfterMs` (the `Retry-After` header, seconds or an HTTP date; docs/fiscal/nfse-national.md#hosts-and-transport). */
export interface NfseApiThrottled {
  kind: 'throttled';
  retryAfterMs: number;
}

export interface NfseApiRefused {
  kind: 'rejected';
  status: number;
  errors: NfseApiMessage[];
}

/** POST /nfse with `{dpsXmlGZipB64}`. */
export type NfseIssueOutcome =
  | { kind: 'authorized'; accessKey: string; dpsId: string; nfseXml: string; processedAt: string | undefined; alerts: NfseApiMessage[] }
  | NfseApiRefused
  | NfseApiThrottled
  | NfseApiUnavailable;

/** GET /dps/{id}: the key of the NFS-e generated from this DPS, if any. */
export type NfseDpsLookup = { kind: 'found'; accessKey: string } | { kind: 'not-found' } | NfseApiRefused | NfseApiThrottled | NfseApiUnavailable;

/** GET /nfse/{chaveAcesso}. */
export type NfseFetch = { kind: 'found'; accessKey: string; nfseXml: string } | { kind: 'not-found' } | NfseApiRefused | NfseApiThrottled | NfseApiUnavailable;

/** POST /nfse/{chaveAcesso}/eventos with `{pedidoRegistroEventoXmlGZipB64}`. */
export type NfseEventOutcome = { kind: 'registered'; eventXml: string; alerts: NfseApiMessage[] } | NfseApiRefused | NfseApiThrottled | NfseApiUnavailable;

/** GET /nfse/{chaveAcesso}/eventos/{tipoEvento}/{numSeqEvento}. */
export type NfseEventFetch = { kind: 'found'; eventXml: string } | { kind: 'not-found' } | NfseApiRefused | NfseApiThrottled | NfseApiUnavailable;

export interface NfseCallOptions {
  /** X-Sandbox-Scenario, passed only where scenarios are allowed (never in production). */
  scenario?: string | null | undefined;
}

/** Sefin Nacional for one issuer certificate and one environment. */
export interface NfseApiClient {
  issue(dpsXml: string, opts?: NfseCallOptions): Promise<NfseIssueOutcome>;
  lookupDps(dpsId: string, opts?: NfseCallOptions): Promise<NfseDpsLookup>;
  fetchNfse(accessKey: string, opts?: NfseCallOptions): Promise<NfseFetch>;
  registerEvent(accessKey: string, pedRegEventoXml: string, opts?: NfseCallOptions): Promise<NfseEventOutcome>;
  fetchEvent(accessKey: string, tpEvento: string, nSeqEvento: number, opts?: NfseCallOptions): Promise<NfseEventFetch>;
}
