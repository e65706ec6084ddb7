// NfseApiClient over one HTTP sender (mutual TLS with the issuer's certificate, AuthorityAccess.nfseClientFor):
// docs/fiscal/nfse-national.md#calls calls with JSON bodies, the XML gzip+base64 inside (docs/fiscal/nfse-national.md#hosts-and-transport), every answer and network
// condition returned as a value (nfse-api-types.ts). Decoding is bounded: the JSON text, then the inflated XML.
import { systemClock, type Clock } from '../../kernel/clock.js';
import { alertsOf, describeMessages, errorsOf, field, parseJsonObject, retryAfterMs, stringField, type JsonObject, type RetryAfterPolicy } from './nfse-api-answers.js';
import { SEFIN_PATHS } from './nfse-api-endpoints.js';
import type {
  NfseApiClient,
  NfseApiRefused,
  NfseApiThrottled,
  NfseApiUnavailable,
  NfseCallOptions,
  NfseDpsLookup,
  NfseEventFetch,
  NfseEventOutcome,
  NfseFetch,
  NfseIssueOutcome,
} from './nfse-api-types.js';
import type { NfseHttpRequest, NfseHttpSend } from './nfse-http.js';
import { packXml, unpackXml } from './xml-gzip-base64.js';

/**
 * Bounds of one answer. An NFS-e or event XML is a few tens of kilobytes; base64 of gzip is smaller
 * than the XML, so 4 MiB of JSON and 2 MiB of inflated XML leave room for any real document.
 */
export const NFSE_API_LIMITS = { maxResponseBytes: 4 * 1024 * 1024, maxXmlBytes: 2 * 1024 * 1024 };

/**
 * docs/fiscal/nfse-national.md#hosts-and-transport records 429 + Retry-After but no usual delay: without the header we wait a minute (our
 * choice); a header further out than an hour is clamped to an hour.
 */
export const DEFAULT_RETRY_AFTER: RetryAfterPolicy = { defaultMs: 60_000, maxMs: 3_600_000 };

export interface NfseApiClientOptions {
  send: NfseHttpSend;
  /** `https://sefin.nfse.gov.br/SefinNacional` and so on (nfse-api-endpoints.ts sefinBaseUrl). */
  baseUrl: string;
  /** Whether `X-Sandbox-Scenario` may leave (the sandbox only); otherwise a scenario is dropped. */
  scenariosAllowed: boolean;
  /** Reads Retry-After dates; tests pass a controllable one. */
  clock?: Clock | undefined;
  maxResponseBytes?: number | undefined;
  maxXmlBytes?: number | undefined;
  retryAfter?: Partial<RetryAfterPolicy> | undefined;
}

type Failure = NfseApiRefused | NfseApiThrottled | NfseApiUnavailable;
/** A 2xx answer with its JSON object, or the outcome that ends the call. */
type Exchanged = { kind: 'ok'; status: number; json: JsonObject } | { kind: 'not-found' } | Failure;

const ACCESS_KEY = /^[0-9A-Z]{50}$/;

export function createNfseApiClient(options: NfseApiClientOptions): NfseApiClient {
  const clock = options.clock ?? systemClock;
  const maxJson = options.maxResponseBytes ?? NFSE_API_LIMITS.maxResponseBytes;
  const maxXml = options.maxXmlBytes ?? NFSE_API_LIMITS.maxXmlBytes;
  const retryPolicy: RetryAfterPolicy = { ...DEFAULT_RETRY_AFTER, ...options.retryAfter };
  const base = options.baseUrl.replace(/\/+$/, '');

  const headersFor = (opts: NfseCallOptions | undefined, hasBody: boolean): Record<string, string> => ({
    accept: 'application/json',
    ...(hasBody ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    ...(options.scenariosAllowed && opts?.scenario ? { 'X-Sandbox-Scenario': opts.scenario } : {}),
  });

  /**
   * One call up to a 2xx JSON object. `mutating`: a POST, whose fate is in doubt once it has left;
   * `lookup`: a GET whose 404 means "none" rather than a refusal.
   */
  async function exchange(request: NfseHttpRequest, mutating: boolean, lookup: boolean): Promise<Exchanged> {
    const answer = await options.send(request);
    if (answer.kind === 'timeout') {
      return answer.phase === 'connect'
        ? unavailable('could not connect to Sefin Nacional in time', false)
        : unavailable('Sefin Nacional did not answer in time', answer.inDoubt && mutating);
    }
    if (answer.kind === 'error') return unavailable(`connection failed: ${answer.reason}`, answer.inDoubt && mutating);
    const { status } = answer;
    if (status === 429) return { kind: 'throttled', retryAfterMs: retryAfterMs(answer.headers?.['retry-after'], clock.now().getTime(), retryPolicy) };
    if (status === 404 && lookup) return { kind: 'not-found' };
    const parsed = parseJsonObject(answer.body, maxJson);
    if (status >= 200 && status < 300) {
      // A 2xx we cannot read: the request was processed (POST) but we do not know into what.
      return parsed.ok ? { kind: 'ok', status, json: parsed.value } : unavailable(`HTTP ${status}: ${parsed.reason}`, mutating, status);
    }
    const errors = parsed.ok ? errorsOf(parsed.value) : [];
    if (status >= 500) return unavailable(`HTTP ${status}${errors.length ? ': ' + describeMessages(errors) : ''}`, mutating, status);
    // A 4xx with Sefin's messages is its refusal; one without (a proxy, a gateway page) refused before
    // Sefin processed anything, so nothing is in doubt, but there is no rejection code to act on either.
    if (status >= 400) return errors.length ? { kind: 'rejected', status, errors } : unavailable(`HTTP ${status} without Sefin messages`, false, status);
    return unavailable(`unexpected HTTP ${status}`, mutating, status);
  }

  const get = (path: string, opts: NfseCallOptions | undefined) => exchange({ method: 'GET', url: base + path, headers: headersFor(opts, false) }, false, true);
  const post = async (path: string, body: JsonObject, opts: NfseCallOptions | undefined): Promise<Exclude<Exchanged, { kind: 'not-found' }>> => {
    const r = await exchange({ method: 'POST', url: base + path, body: JSON.stringify(body), headers: headersFor(opts, true) }, true, false);
    // Not a lookup, so a 404 never became 'not-found'; this only narrows the type.
    return r.kind === 'not-found' ? unavailable('HTTP 404', true, 404) : r;
  };

  /** chaveAcesso of an answer, checked for shape (docs/fiscal/nfse-national.md#access-key: 50 characters; letters only with an alphanumeric CNPJ, docs/fiscal/nfse-national.md#alphanumeric-cnpj). */
  const keyOf = (json: JsonObject): string | undefined => {
    const key = stringField(json, 'chaveAcesso');
    return key && ACCESS_KEY.test(key) ? key : undefined;
  };

  return {
    async issue(dpsXml, opts): Promise<NfseIssueOutcome> {
      const r = await post(SEFIN_PATHS.issue(), { dpsXmlGZipB64: packXml(dpsXml) }, opts);
      if (r.kind !== 'ok') return r;
      // docs/fiscal/nfse-national.md#calls: 201 {idDps, chaveAcesso, nfseXmlGZipB64, dataHoraProcessamento, alertas}.
      const accessKey = keyOf(r.json);
      if (!accessKey) return unavailable(`HTTP ${r.status}: answer without a valid chaveAcesso`, true, r.status);
      const xml = unpackXml('nfseXmlGZipB64', field(r.json, 'nfseXmlGZipB64'), maxXml);
      if (!xml.ok) return unavailable(`HTTP ${r.status}: ${xml.reason}`, true, r.status);
      return {
        kind: 'authorized',
        accessKey,
        dpsId: stringField(r.json, 'idDps') ?? stringField(r.json, 'idDPS') ?? '',
        nfseXml: xml.xml,
        processedAt: stringField(r.json, 'dataHoraProcessamento'),
        alerts: alertsOf(r.json),
      };
    },

    async lookupDps(dpsId, opts): Promise<NfseDpsLookup> {
      const r = await get(SEFIN_PATHS.dps(dpsId), opts);
      if (r.kind !== 'ok') return r;
      const accessKey = keyOf(r.json);
      return accessKey ? { kind: 'found', accessKey } : unavailable(`HTTP ${r.status}: answer without a valid chaveAcesso`, false, r.status);
    },

    async fetchNfse(accessKey, opts): Promise<NfseFetch> {
      const r = await get(SEFIN_PATHS.nfse(accessKey), opts);
      if (r.kind !== 'ok') return r;
      const xml = unpackXml('nfseXmlGZipB64', field(r.json, 'nfseXmlGZipB64'), maxXml);
      if (!xml.ok) return unavailable(`HTTP ${r.status}: ${xml.reason}`, false, r.status);
      return { kind: 'found', accessKey: keyOf(r.json) ?? accessKey, nfseXml: xml.xml };
    },

    async registerEvent(accessKey, pedRegEventoXml, opts): Promise<NfseEventOutcome> {
      const r = await post(SEFIN_PATHS.events(accessKey), { pedidoRegistroEventoXmlGZipB64: packXml(pedRegEventoXml) }, opts);
      if (r.kind !== 'ok') return r;
      const xml = unpackXml('eventoXmlGZipB64', field(r.json, 'eventoXmlGZipB64'), maxXml);
      if (!xml.ok) return unavailable(`HTTP ${r.status}: ${xml.reason}`, true, r.status);
      return { kind: 'registered', eventXml: xml.xml, alerts: alertsOf(r.json) };
    },

    async fetchEvent(accessKey, tpEvento, nSeqEvento, opts): Promise<NfseEventFetch> {
      const r = await get(SEFIN_PATHS.event(accessKey, tpEvento, nSeqEvento), opts);
      if (r.kind !== 'ok') return r;
      const xml = unpackXml('eventoXmlGZipB64', field(r.json, 'eventoXmlGZipB64'), maxXml);
      if (!xml.ok) return unavailable(`HTTP ${r.status}: ${xml.reason}`, false, r.status);
      return { kind: 'found', eventXml: xml.xml };
    },
  };
}

function unavailable(reason: string, inDoubt: boolean, status?: number): NfseApiUnavailable {
  return status === undefined ? { kind: 'unavailable', reason, inDoubt } : { kind: 'unavailable', reason, inDoubt, status };
}
