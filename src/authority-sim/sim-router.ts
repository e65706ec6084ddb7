import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SefazService } from '../fiscal/sefaz/endpoints.js';
import { FISCAL_ASSETS_DIR } from '../kernel/paths.js';
import {
  actionFromContentType,
  actionFromSoapActionHeader,
  buildFaultEnvelope,
  buildResponseEnvelope,
  parseEnvelope,
  soapEnvelope,
  soapVersionOfContentType,
  WSDL_NAMESPACE_BASE,
  type FaultCode,
  type SoapVersion,
} from '../fiscal/sefaz/soap-envelope.js';
import { handleAuthorization, handleReceipt } from './authorization-service.js';
import { handleDistribution } from './distribution-service.js';
import { handleConsult, handleStatus } from './consult-service.js';
import { handleEvent } from './event-service.js';
import { handleInutilization } from './inutilization-service.js';
import type { SimContext } from './sim-context.js';

// The services the simulator answers are the client's (endpoints.ts), one for one, plus the Ambiente
// Nacional's NFeDistribuicaoDFe (its event reception is NFeRecepcaoEvento4, told apart by cOrgao 91).
export type SimService = SefazService | 'distribuicaoDFe';

interface ServiceEntry {
  /** The official WSDL's service name: its target namespace is WSDL_NAMESPACE_BASE + this name. */
  wsdlName: string;
  /** The official WSDL in assets/fiscal/wsdl/nfe_v4, served at `<endpoint>?wsdl`. */
  wsdlFile?: string;
  /** Other names the UFs publish (paths, namespaces), lower case without the trailing version. */
  aliases?: readonly string[];
  handle(payload: string, ctx: SimContext): Promise<string> | string;
  /** The Body's content around the answer; default `<nfeResultMsg>` in the service's namespace (docs/fiscal/sefaz-services.md). */
  answer?(namespace: string, payload: string): string;
}

// One entry per service: the type makes a service added to endpoints.ts fail to compile until it
// has one. Names from docs/fiscal/sefaz-services.md and the endpoint table: SVRS paths say NfeConsulta4 and recepcaoevento4,
// GO/PR's namespaces NFeRecepcaoEvento, ACBr's older SP table NfeConsulta/RecepcaoEvento.
const SERVICES: Record<SimService, ServiceEntry> = {
  autorizacao: { wsdlName: 'NFeAutorizacao4', wsdlFile: 'nfeautorizacao4.wsdl', handle: handleAuthorization },
  retAutorizacao: { wsdlName: 'NFeRetAutorizacao4', wsdlFile: 'nferetautorizacao4.wsdl', handle: handleReceipt },
  consultaProtocolo: { wsdlName: 'NFeConsultaProtocolo4', wsdlFile: 'nfeconsulta4.wsdl', aliases: ['nfeconsulta'], handle: handleConsult },
  // SP's NFC-e EPEC service (EPECws/RecepcaoEPEC.asmx, EPECStatusServico.asmx in wsnfe_4.00_mod65.xml) takes the same
  // messages; in homologation it "is always in operation" (docs/fiscal/offline-contingency.md#epec-sp).
  statusServico: { wsdlName: 'NFeStatusServico4', wsdlFile: 'nfestatusservico4.wsdl', aliases: ['epecstatusservico'], handle: handleStatus },
  inutilizacao: { wsdlName: 'NFeInutilizacao4', wsdlFile: 'nfeinutilizacao4.wsdl', handle: handleInutilization },
  recepcaoEvento: { wsdlName: 'NFeRecepcaoEvento4', wsdlFile: 'recepcaoevento4.wsdl', aliases: ['recepcaoevento', 'recepcaoepec'], handle: handleEvent },
  // Its WSDL wraps the answer in the operation element (nfeDistDFeInteresseResponse/nfeDistDFeInteresseResult).
  distribuicaoDFe: {
    wsdlName: 'NFeDistribuicaoDFe', wsdlFile: 'nfedistribuicaodfe.wsdl', handle: handleDistribution,
    answer: (namespace, payload) => `<nfeDistDFeInteresseResponse xmlns="${namespace}"><nfeDistDFeInteresseResult>${payload}</nfeDistDFeInteresseResult></nfeDistDFeInteresseResponse>`,
  },
};

const normalised = (name: string) => name.toLowerCase().replace(/[0-9]+$/, '');
const BY_NAME = new Map<string, SimService>();
for (const [service, entry] of Object.entries(SERVICES) as [SimService, ServiceEntry][]) {
  for (const name of [normalised(entry.wsdlName), ...(entry.aliases ?? [])]) BY_NAME.set(name, service);
}

/** The service named by a WSDL namespace or SOAP action (…/wsdl/NFeAutorizacao4[/operation]). */
export function serviceOf(namespaceOrAction: string | null): SimService | null {
  const m = /\/wsdl\/([A-Za-z]+[0-9]*)(?:\/|$)/.exec(namespaceOrAction ?? '');
  return m ? (BY_NAME.get(normalised(m[1]!)) ?? null) : null;
}

/**
 * The service an endpoint's path names, as the authorities lay them out: /ws/NFeAutorizacao4/NFeAutorizacao4.asmx
 * (SVRS), /ws/NfeAutorizacao/NFeAutorizacao4.asmx, /nfe/services/NFeAutorizacao4, or the simulator's
 * own /NFeAutorizacao4 (endpoints.ts override). The last segment that names one wins; case is ignored.
 */
export function serviceOfPath(pathname: string): SimService | null {
  const segments = pathname.split('?', 1)[0]!.split('/').reverse();
  for (const segment of segments) {
    const name = normalised(segment.replace(/\.(asmx|svc)$/i, ''));
    const service = name ? BY_NAME.get(name) : undefined;
    if (service) return service;
  }
  return null;
}

/** The canonical WSDL namespace of a service (the official WSDL's targetNamespace). */
export function namespaceOf(service: SimService): string {
  return WSDL_NAMESPACE_BASE + SERVICES[service].wsdlName;
}

const wsdlTexts = new Map<string, string>();

/**
 * The service's official WSDL with both ports' addresses (soap and soap12) set to `address`, as a
 * SEFAZ answers `<endpoint>?wsdl`; null when the table names no WSDL file for the service.
 */
export function wsdlOf(service: SimService, address: string): string | null {
  const file = SERVICES[service].wsdlFile;
  if (!file) return null;
  let text = wsdlTexts.get(file);
  if (text === undefined) {
    text = readFileSync(join(FISCAL_ASSETS_DIR, 'wsdl', 'nfe_v4', file), 'utf8');
    wsdlTexts.set(file, text);
  }
  const location = address.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return text.replace(/(<soap(?:12)?:address\s+location=")[^"]*(")/g, (_all, open: string, close: string) => open + location + close);
}

export interface SoapRequest {
  /** The service named by the endpoint's path (serviceOfPath): the authority routes by address. */
  service: SimService;
  /** The endpoint's path: an `.asmx` one is answered as the ASP.NET servers answer (serverKindOfPath). */
  path?: string;
  body: string;
  contentType: string | undefined;
  /** The SOAP 1.1 SOAPAction header. */
  soapAction: string | string[] | undefined;
}

/** An HTTP answer: status, SOAP version (its content type) and envelope. */
export interface SoapReply {
  status: number;
  version: SoapVersion;
  envelope: string;
}

/** The version to answer a request in before reading its envelope: the content type's, else 1.2. */
export function replyVersion(contentType: string | undefined): SoapVersion {
  return soapVersionOfContentType(contentType) ?? '1.2';
}

/**
 * Faults: HTTP 500 for every fault, as the authorities' .NET (asmx) and Axis servers send them in
 * both bindings (SOAP 1.1 section 6.2 requires 500; SOAP 1.2 part 2 section 7.5.1 would allow 400
 * for Sender faults, which those servers do not use).
 */
export function faultReply(version: SoapVersion, code: FaultCode, reason: string, status = 500): SoapReply {
  return { status, version, envelope: buildFaultEnvelope(code, reason, version) };
}

/**
 * Which server stack answers at a path (docs/fiscal/soap-transport.md): the `.asmx` endpoints (SP, SVRS,
 * SVAN, Ambiente Nacional, part of BA) are ASP.NET web services, the others (MG, GO, MT, MS, AM, PR,
 * PE, ..., and the simulator's own /NFeAutorizacao4) Java SOAP stacks (Axis).
 */
export function serverKindOfPath(path: string | undefined): 'asmx' | 'java' {
  return /\.asmx$/i.test((path ?? '').split('?', 1)[0]!) ? 'asmx' : 'java';
}

/**
 * The SOAP version a request is read and answered in, or the fault it gets (docs/fiscal/soap-transport.md):
 * ASP.NET reads the version from the envelope's namespace and takes a SOAP 1.2 envelope under text/xml
 * too, refusing only a SOAP 1.1 envelope outside text/xml; a Java stack takes the version from the
 * content type and answers any other envelope with VersionMismatch.
 */
function transportVersion(request: SoapRequest, declared: SoapVersion, envelope: SoapVersion | null): SoapVersion | SoapReply {
  if (!envelope || envelope === declared) return declared;
  if (serverKindOfPath(request.path) === 'asmx') {
    if (envelope === '1.2') return '1.2';
    return faultReply('1.1', 'Sender', `a SOAP 1.1 envelope must be sent as text/xml, not ${request.contentType}`);
  }
  // SOAP 1.1 section 4.4.1 / SOAP 1.2 part 1 section 5.4.7: an envelope of another version.
  return faultReply(declared, 'VersionMismatch', `a SOAP ${envelope} envelope sent as SOAP ${declared} (${request.contentType})`);
}

/** SOAP request at a service's endpoint -> the service's answer, or a fault when the message is not this endpoint's. */
export async function routeSoap(request: SoapRequest, ctx: SimContext): Promise<SoapReply> {
  const { service } = request;
  const entry = SERVICES[service];
  const declared = soapVersionOfContentType(request.contentType);
  const envelope = parseEnvelope(request.body, 'nfeDadosMsg');
  if (request.contentType && !declared) {
    return faultReply(envelope.version ?? '1.2', 'Sender', `content type ${request.contentType} is neither SOAP 1.2 (application/soap+xml) nor SOAP 1.1 (text/xml)`, 415);
  }
  const resolved = declared ? transportVersion(request, declared, envelope.version ?? null) : (envelope.version ?? '1.2');
  if (typeof resolved !== 'string') return resolved;
  const version = resolved;
  // SOAP 1.2 carries the action in the content type, SOAP 1.1 in SOAPAction (either is read: some clients send both).
  const action = actionFromContentType(request.contentType) ?? actionFromSoapActionHeader(request.soapAction);
  const byAction = serviceOf(action);
  if (byAction && byAction !== service) {
    return faultReply(version, 'Sender', `the action ${action} belongs to ${SERVICES[byAction].wsdlName}; this endpoint serves ${entry.wsdlName}`);
  }
  const namespace = envelope.kind === 'message' ? envelope.namespace : null;
  const byNamespace = serviceOf(namespace);
  if (namespace !== null && byNamespace !== service) {
    const whose = byNamespace ? `a message of ${SERVICES[byNamespace].wsdlName}` : 'in no service namespace';
    return faultReply(version, 'Sender', `nfeDadosMsg in ${namespace} is ${whose}; this endpoint serves ${entry.wsdlName} (${namespaceOf(service)})`);
  }
  // The answer is in the service's namespace: the request's spelling when it named the service, else the action's, else the WSDL's.
  const actionNamespace = byAction ? /^.*\/wsdl\/[A-Za-z]+[0-9]*/.exec(action!)![0] : null;
  const answerNamespace = namespace ?? actionNamespace ?? namespaceOf(service);
  // An envelope too broken to find the message in is answered as malformed XML (243) by the service.
  const payload = await entry.handle(envelope.kind === 'message' ? envelope.payload : '<', ctx);
  const body = entry.answer ? soapEnvelope(version, entry.answer(answerNamespace, payload)) : buildResponseEnvelope(answerNamespace, payload, version);
  return { status: 200, version, envelope: body };
}
