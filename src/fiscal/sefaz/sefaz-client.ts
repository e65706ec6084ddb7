import type { Endpoint, EndpointOverride, Model, SefazService, TpAmb } from './endpoints.js';
import { buildDistDFeInt, parseDistributionAnswer, type DistributionOutcome, type DistributionRequest } from './distribution.js';
import { buildDistributionRequestEnvelope, parseDistributionEnvelope } from './distribution-envelope.js';
import { resolveNationalEndpoint } from './national-endpoints.js';
import { resolveSvrsEventEndpoint } from './svrs-endpoints.js';
import { resolveEndpoint, resolveNfceEpecEndpoint, ufCode } from './endpoints.js';
import { resolveSvcEndpoint, SVC_SERVICES, type SvcAuthorizer, type SvcService } from './svc-endpoints.js';
import { AgentPool, postOverMutualTls } from './https-transport.js';
import type { ClientCredentials, HttpExchange } from './https-transport.js';
import type {
  AuthorizationOutcome,
  ConsultOutcome,
  EventOutcome,
  InutilizationOutcome,
  StatusOutcome,
  Timing,
  TransportFailure,
} from './outcomes.js';
import {
  parseAuthorizationAnswer,
  parseConsultAnswer,
  parseEventAnswer,
  parseInutilizationAnswer,
  parseStatusAnswer,
} from './response-parsers.js';
import {
  buildConsReciNFe,
  buildConsSitNFe,
  buildConsStatServ,
  buildEnviNFe,
  buildEnvEvento,
  withoutXmlDeclaration,
} from './request-payloads.js';
import { buildRequestEnvelope, parseEnvelope, soapContentType, type ParsedEnvelope } from './soap-envelope.js';

export interface SefazClientOptions {
  /** The issuer's A1 certificate (PEM, from memory: see certificate/pfx.ts tlsCredentials). */
  credentials: ClientCredentials;
  /** Trust store for the authorities' server certificates; undefined = Node's bundled roots. */
  ca?: readonly string[] | undefined;
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  /** Sends every service to another base URL (the sandbox's simulator). */
  endpointOverride?: EndpointOverride | undefined;
  /** Shared keep-alive pools; one per process is right. A private one is created when absent. */
  pool?: AgentPool;
  maxSockets?: number;
  /** Headers sent on every call (the sandbox's X-Sandbox-Tenant: authority-access.ts). */
  headers?: Record<string, string>;
}

export interface CallTarget {
  /** UF abbreviation or IBGE code of the issuer. */
  uf: string;
  model: Model;
  tpAmb: TpAmb;
  /** Extra HTTP headers, e.g. `X-Sandbox-Scenario` for the simulator. */
  headers?: Record<string, string>;
  /** Overrides the client's response timeout for this call. */
  responseTimeoutMs?: number;
  /**
   * The NF-e contingency authorizer to call instead of the state's (docs/fiscal/svc.md): a note issued
   * with tpEmis 6/7 is authorized, consulted and cancelled there. Absent: the state's authorizer.
   */
  authorizer?: SvcAuthorizer | undefined;
}

/** A call to the Ambiente Nacional: no UF, no model (NF-e only). */
export type NationalCallTarget = Omit<CallTarget, 'uf' | 'model'>;

export interface SefazClient {
  /**
   * NFeAutorizacao4 with one signed NF-e, indSinc=1 unless told 0 (then, or when the authority
   * processes the lot asynchronously anyway, the answer is `in-process` with the receipt nRec). CONTRACT: when the outcome is a transport
   * failure with `inDoubt` (timeout after sending, lost answer, 5xx), the note MAY be authorized.
   * The caller must call consult() with the key before anything else and never resend blind.
   * authorizeOrReconcile() (reconcile.ts) implements that rule.
   */
  authorize(target: CallTarget & { signedNFeXml: string; idLote: string | number; indSinc?: 0 | 1 }): Promise<AuthorizationOutcome>;
  /** NFeRetAutorizacao4: result of an asynchronous lot (cStat 103 receipt). */
  receipt(target: CallTarget & { nRec: string }): Promise<AuthorizationOutcome>;
  /** NFeConsultaProtocolo4: what the authority knows about a key (100/150, 101, 110, 217 ...). */
  consult(target: CallTarget & { accessKey: string }): Promise<ConsultOutcome>;
  /** NFeStatusServico4. */
  status(target: CallTarget): Promise<StatusOutcome>;
  /** NFeInutilizacao4 with a signed inutNFe. */
  inutilize(target: CallTarget & { signedInutNFeXml: string }): Promise<InutilizationOutcome>;
  /** NFeRecepcaoEvento4 with one signed `<evento>` (wrapped here) or a whole signed `<envEvento>`. */
  sendEvent(target: CallTarget & { signedEventXml: string; idLote?: string | number }): Promise<EventOutcome>;
  /**
   * NFeRecepcaoEvento4 of the Ambiente Nacional: the recipient's manifestation (210200/210210/
   * 210220/210240, cOrgao 91), signed with the recipient's certificate (docs/fiscal/nfe-model-55.md#recipient-manifestation).
   */
  sendNationalEvent(target: NationalCallTarget & { signedEventXml: string; idLote?: string | number }): Promise<EventOutcome>;
  /** SP's NFC-e EPEC reception (event 110140 of a model 65 key, cOrgao 35; docs/fiscal/offline-contingency.md#epec-sp). */
  sendNfceEpec(target: NationalCallTarget & { uf: string; signedEventXml: string; idLote?: string | number }): Promise<EventOutcome>;
  /** NFeRecepcaoEvento4 of SVRS (cOrgao 92): the failed-delivery events 110192/110193 (docs/fiscal/delivery-events.md). */
  sendSvrsEvent(target: NationalCallTarget & { signedEventXml: string; idLote?: string | number }): Promise<EventOutcome>;
  /**
   * NFeDistribuicaoDFe (operation nfeDistDFeInteresse): documents addressed to the interested
   * CNPJ/CPF. Mind the consumption rule (distribution-pacing.ts) or the AN answers 656.
   */
  distribute(target: Omit<NationalCallTarget, 'tpAmb'> & DistributionRequest): Promise<DistributionOutcome>;
  /** Closes the private connection pool (a shared pool is closed by its owner). */
  close(): void;
}

type Parse<T> = (payload: string, timing: Timing) => T;

export function createSefazClient(options: SefazClientOptions): SefazClient {
  const pool = options.pool ?? new AgentPool();
  const ownsPool = !options.pool;
  const transport = {
    credentials: options.credentials,
    ca: options.ca,
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
    responseTimeoutMs: options.responseTimeoutMs ?? 30_000,
    maxSockets: options.maxSockets,
  };

  async function post<T>(
    endpoint: Endpoint,
    target: NationalCallTarget,
    envelope: string,
    parse: Parse<T>,
    mutating: boolean,
    unwrap: Unwrap = (body) => parseEnvelope(body, 'nfeResultMsg'),
  ): Promise<T | TransportFailure> {
    const exchange = await postOverMutualTls(
      pool,
      endpoint.url,
      envelope,
      { ...options.headers, ...target.headers, 'content-type': soapContentType(endpoint.action) },
      target.responseTimeoutMs ? { ...transport, responseTimeoutMs: target.responseTimeoutMs } : transport,
    );
    return interpret(exchange, parse, mutating, unwrap);
  }

  function call<T>(service: SefazService, target: CallTarget, payload: string, parse: Parse<T>, mutating: boolean): Promise<T | TransportFailure> {
    const endpoint = target.authorizer
      ? resolveSvcEndpoint(target.authorizer, target.tpAmb, svcService(service, target.authorizer), options.endpointOverride)
      : resolveEndpoint(target.uf, target.model, target.tpAmb, service, options.endpointOverride);
    return post(endpoint, target, buildRequestEnvelope(endpoint.namespace, payload), parse, mutating);
  }

  const eventPayload = (t: { signedEventXml: string; idLote?: string | number }) => {
    const xml = withoutXmlDeclaration(t.signedEventXml);
    return xml.startsWith('<envEvento') ? xml : buildEnvEvento([xml], t.idLote ?? Date.now());
  };

  return {
    authorize: (t) => call('autorizacao', t, buildEnviNFe(t.signedNFeXml, t.idLote, t.indSinc ?? 1), parseAuthorizationAnswer, true),
    receipt: (t) => call('retAutorizacao', t, buildConsReciNFe(t.tpAmb, t.nRec), parseAuthorizationAnswer, false),
    consult: (t) => call('consultaProtocolo', t, buildConsSitNFe(t.tpAmb, t.accessKey), parseConsultAnswer, false),
    status: (t) =>
      call('statusServico', t, buildConsStatServ(t.tpAmb, ufCode(t.uf) ?? t.uf), parseStatusAnswer, false),
    inutilize: (t) =>
      call('inutilizacao', t, withoutXmlDeclaration(t.signedInutNFeXml), parseInutilizationAnswer, true),
    sendEvent: (t) => call('recepcaoEvento', t, eventPayload(t), parseEventAnswer, true),
    sendNationalEvent: (t) => {
      const endpoint = resolveNationalEndpoint(t.tpAmb, 'recepcaoEventoAN', options.endpointOverride);
      return post(endpoint, t, buildRequestEnvelope(endpoint.namespace, eventPayload(t)), parseEventAnswer, true);
    },
    sendNfceEpec: (t) => {
      const endpoint = resolveNfceEpecEndpoint(t.uf, t.tpAmb, options.endpointOverride);
      return post(endpoint, t, buildRequestEnvelope(endpoint.namespace, eventPayload(t)), parseEventAnswer, true);
    },
    sendSvrsEvent: (t) => {
      const endpoint = resolveSvrsEventEndpoint(t.tpAmb, options.endpointOverride);
      return post(endpoint, t, buildRequestEnvelope(endpoint.namespace, eventPayload(t)), parseEventAnswer, true);
    },
    distribute: (t) => {
      const endpoint = resolveNationalEndpoint(t.tpAmb, 'distribuicaoDFe', options.endpointOverride);
      const envelope = buildDistributionRequestEnvelope(buildDistDFeInt(t));
      // A query changes nothing at the AN: an unanswered one is simply asked again (pacing permitting).
      return post(endpoint, t, envelope, parseDistributionAnswer, false, parseDistributionEnvelope);
    },
    close: () => {
      if (ownsPool) pool.destroy();
    },
  };
}

/** An SVC serves no voiding of numbers (docs/fiscal/svc.md#services): asking it for one is the caller's bug. */
function svcService(service: SefazService, svc: SvcAuthorizer): SvcService {
  if (!(SVC_SERVICES as readonly string[]).includes(service)) throw new RangeError(`${svc} serves no ${service}`);
  return service as SvcService;
}

/** HTTP exchange -> outcome. A mutating request whose fate is unreadable stays in doubt. */
type Unwrap = (body: string) => ParsedEnvelope;

function interpret<T>(exchange: HttpExchange, parse: Parse<T>, mutating: boolean, unwrap: Unwrap): T | TransportFailure {
  const { timing } = exchange;
  if (exchange.kind === 'timeout') return { ...exchange, inDoubt: exchange.inDoubt && mutating };
  if (exchange.kind === 'error') {
    return { kind: 'unknown', reason: exchange.reason, httpStatus: null, inDoubt: exchange.inDoubt && mutating, timing };
  }
  if (exchange.status >= 500) {
    // SOAP 1.2 sends faults with 500 too; either way the service did not answer with a cStat.
    const env = unwrap(exchange.body);
    const why = env.kind === 'fault' ? env.reason : `HTTP ${exchange.status}`;
    return { kind: 'unavailable', cStat: null, xMotivo: why, httpStatus: exchange.status, inDoubt: mutating, timing };
  }
  const env = unwrap(exchange.body);
  if (exchange.status !== 200 || env.kind !== 'message') {
    const why = env.kind === 'message' ? `HTTP ${exchange.status}` : env.reason;
    return { kind: 'unknown', reason: why, httpStatus: exchange.status, inDoubt: mutating, timing };
  }
  return parse(env.payload, timing);
}
