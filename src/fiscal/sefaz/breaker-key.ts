import { resolveEndpoint, ufAbbreviation, type EndpointOverride, type Model, type SefazService, type TpAmb } from './endpoints.js';
import { resolveSvcEndpoint, SVC_SERVICES, type SvcAuthorizer, type SvcService } from './svc-endpoints.js';

/** What a call is addressed to, as the SOAP client knows it (one service of one state's authorizer). */
export interface BreakerTarget {
  /** UF abbreviation or IBGE code. */
  uf: string;
  model: Model;
  tpAmb: TpAmb;
  service: SefazService;
  /**
   * Who calls (AuthorityAccess.callerId): the certificate's SHA-256 fingerprint, and in the sandbox
   * `/<account>` after it. It scopes the breaker in the sandbox only.
   */
  certificate?: string | null | undefined;
  /**
   * The state's NF-e contingency authorizer instead of the state's own (docs/fiscal/svc.md#when-the-svc-is-down-too): an SVC is
   * another authority's server, with its own URL and so its own breaker.
   */
  authorizer?: SvcAuthorizer | undefined;
}

/** The endpoint a breaker guards, with a call that reaches it (what the probe repeats). */
export interface BreakerEndpoint {
  /** The breaker's key: the service's URL. */
  key: string;
  /** SVRS, SP, AN ...: who answers. */
  authorizer: string;
  /** WSDL service name, e.g. NFeAutorizacao4. */
  service: string;
  uf: string;
  model: Model;
  tpAmb: TpAmb;
}

/**
 * One breaker per endpoint URL, not per state: the per-state table (docs/fiscal/sefaz-services.md) sends many states to
 * one authorizer (SVRS serves most NFC-e states, SVAN others), so when SVRS's NFeAutorizacao4 stops
 * every state it serves stops together, and a state with its own SEFAZ fails alone. Each service has
 * its own URL, so the authorization service can be down while consultation answers. The environment
 * is in the URL too (homologation hosts differ). In the sandbox every state's service goes to the
 * simulator, whose outages are per account and issuer (`outage:<s>` scenario): there the breaker is
 * also per calling certificate and account (every account may use the example certificate), so one
 * account's rehearsed outage does not send other accounts' sales to contingency.
 */
export function breakerEndpointFor(target: BreakerTarget, override?: EndpointOverride): BreakerEndpoint {
  const endpoint = target.authorizer
    ? resolveSvcEndpoint(target.authorizer, target.tpAmb, svcServiceOf(target.service), override)
    : resolveEndpoint(target.uf, target.model, target.tpAmb, target.service, override);
  return {
    key: override && target.certificate ? `${endpoint.url}#${callerTag(target.certificate)}` : endpoint.url,
    authorizer: endpoint.authorizer,
    service: endpoint.serviceName,
    uf: ufAbbreviation(target.uf) ?? String(target.uf),
    model: target.model,
    tpAmb: target.tpAmb,
  };
}

function svcServiceOf(service: SefazService): SvcService {
  if (!(SVC_SERVICES as readonly string[]).includes(service)) throw new RangeError(`an SVC serves no ${service}`);
  return service as SvcService;
}

/** The SVC a breaker row's authorizer names (SVC-AN, SVC-RS), or undefined for a state's authorizer. */
export function svcOfBreakerAuthorizer(authorizer: string): SvcAuthorizer | undefined {
  return authorizer === 'SVC-AN' || authorizer === 'SVC-RS' ? authorizer : undefined;
}

/**
 * Who calls, as breakers know it: the certificate's SHA-256 fingerprint and the account the call is
 * made for ('/' never occurs in either). Only the sandbox's keys use it (breakerEndpointFor).
 */
export function breakerCaller(fingerprint: string, accountId: string | null): string {
  return accountId ? `${fingerprint}/${accountId}` : fingerprint;
}

/** The caller id's parts (breakerCaller). */
export function callerParts(caller: string): { fingerprint: string; accountId: string | null } {
  const at = caller.indexOf('/');
  return at < 0 ? { fingerprint: caller, accountId: null } : { fingerprint: caller.slice(0, at), accountId: caller.slice(at + 1) };
}

// The fingerprint's first 16 characters, and the account when the caller names one.
function callerTag(caller: string): string {
  const at = caller.indexOf('/');
  return at < 0 ? caller.slice(0, 16) : `${caller.slice(0, 16)}${caller.slice(at)}`;
}

/** The breaker key of a state's service (its URL); throws RangeError for an unknown state or service. */
export function breakerKeyFor(target: BreakerTarget, override?: EndpointOverride): string {
  return breakerEndpointFor(target, override).key;
}
