import type { SefazService } from '../fiscal/sefaz/endpoints.js';
import { handleDistribution } from './distribution-service.js';
import { actionFromContentType, parseEnvelope } from '../fiscal/sefaz/soap-envelope.js';
import { handleAuthorization, handleReceipt } from './authorization-service.js';
import { handleConsult, handleStatus } from './consult-service.js';
import { handleEvent } from './event-service.js';
import { handleInutilization } from './inutilization-service.js';
import type { SimContext } from './sim-context.js';

// The services the simulator answers are the client's (endpoints.ts), one for one.
// Plus the Ambiente Nacional's NFeDistribuicaoDFe (its event reception is NFeRecepcaoEvento4, told apart by cOrgao 91).
export type SimService = SefazService | 'distribuicaoDFe';

// WSDL service names as the UFs publish them, normalised (case, trailing version): FACTS 4 and the
// endpoint table (GO/PR use NFeRecepcaoEvento, ACBr's older SP table NfeConsulta/RecepcaoEvento).
const SERVICES: Record<string, SimService> = {
  nfeautorizacao: 'autorizacao',
  nferetautorizacao: 'retAutorizacao',
  nfeconsultaprotocolo: 'consultaProtocolo',
  nfeconsulta: 'consultaProtocolo',
  nfestatusservico: 'statusServico',
  nfeinutilizacao: 'inutilizacao',
  nferecepcaoevento: 'recepcaoEvento',
  recepcaoevento: 'recepcaoEvento',
  nfedistribuicaodfe: 'distribuicaoDFe',
};

/** The service named by a WSDL namespace or SOAP action (…/wsdl/NFeAutorizacao4[/operation]). */
export function serviceOf(namespaceOrAction: string | null): SimService | null {
  const m = /\/wsdl\/([A-Za-z]+?)\d*(?:\/|$)/.exec(namespaceOrAction ?? '');
  return m ? (SERVICES[m[1]!.toLowerCase()] ?? null) : null;
}

export type Routed =
  | { kind: 'answer'; service: SimService; namespace: string; payload: string }
  | { kind: 'fault'; status: number; reason: string };

/** SOAP request -> the service's answer payload (to be wrapped in nfeResultMsg). */
export async function routeSoap(body: string, contentType: string | undefined, ctx: SimContext): Promise<Routed> {
  const envelope = parseEnvelope(body, 'nfeDadosMsg');
  const action = actionFromContentType(contentType);
  const namespace = envelope.kind === 'message' ? envelope.namespace : null;
  const service = serviceOf(namespace) ?? serviceOf(action);
  if (!service) return { kind: 'fault', status: 400, reason: 'unknown service: no nfeDadosMsg namespace or SOAP action names one' };
  if (envelope.kind !== 'message') {
    // An envelope too broken to find the message in is answered as malformed XML by the service.
    return { kind: 'answer', service, namespace: namespace ?? action!.replace(/\/[^/]*$/, ''), payload: await handle(service, '<', ctx) };
  }
  return { kind: 'answer', service, namespace: envelope.namespace ?? '', payload: await handle(service, envelope.payload, ctx) };
}

function handle(service: SimService, payload: string, ctx: SimContext): Promise<string> | string {
  switch (service) {
    case 'autorizacao':
      return handleAuthorization(payload, ctx);
    case 'retAutorizacao':
      return handleReceipt(payload, ctx);
    case 'consultaProtocolo':
      return handleConsult(payload, ctx);
    case 'statusServico':
      return handleStatus(payload, ctx);
    case 'inutilizacao':
      return handleInutilization(payload, ctx);
    case 'recepcaoEvento':
      return handleEvent(payload, ctx);
    case 'distribuicaoDFe':
      return handleDistribution(payload, ctx);
  }
}
