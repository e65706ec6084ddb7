// The NF-e contingency authorizers, SVC-AN and SVC-RS (docs/fiscal/svc.md): their own addresses, read from
// webservices/svc_endpoints_v4.json (docs/decisions.md#data-not-code). An SVC serves authorization, its
// receipt, consultation and event reception (cancellation only); status is read for the breaker's probe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { endpointOf, type Endpoint, type EndpointOverride, type TableEntry, type TpAmb } from './endpoints.js';

export type SvcAuthorizer = 'SVC-AN' | 'SVC-RS';
export type SvcService = 'autorizacao' | 'retAutorizacao' | 'consultaProtocolo' | 'recepcaoEvento' | 'statusServico';
export const SVC_SERVICES: readonly SvcService[] = ['autorizacao', 'retAutorizacao', 'consultaProtocolo', 'recepcaoEvento', 'statusServico'];

/**
 * The path segment an SVC's services sit under in the sandbox (`${baseUrl}/svc-an/NFeAutorizacao4`): the
 * simulator tells the SVC from the state's authorizer by it, as the real ones are told apart by host.
 */
export const SVC_PATH: Record<SvcAuthorizer, string> = { 'SVC-AN': 'svc-an', 'SVC-RS': 'svc-rs' };

/** The SVC a tpEmis names (6 SVC-AN, 7 SVC-RS), or null for any other (the state's authorizer). */
export function svcOfTpEmis(tpEmis: number | string): SvcAuthorizer | null {
  const t = String(tpEmis);
  return t === '6' ? 'SVC-AN' : t === '7' ? 'SVC-RS' : null;
}

/** The SVC that authorizes the note of this access key: tpEmis is the key's 35th character (MOC 5.4). */
export function svcOfAccessKey(accessKey: string): SvcAuthorizer | null {
  return accessKey.length === 44 ? svcOfTpEmis(accessKey[34]!) : null;
}

type Table = Record<SvcAuthorizer, Record<'homologacao' | 'producao', Record<SvcService, TableEntry>>>;
let table: Table | undefined;
function loadTable(): Table {
  table ??= JSON.parse(readFileSync(join(FISCAL_ASSETS_DIR, 'webservices', 'svc_endpoints_v4.json'), 'utf8')) as Table;
  return table;
}

/**
 * Endpoint of one SVC service. With an override (the sandbox) it is `${baseUrl}/svc-an/<service>`: the
 * simulator's SVC, beside the states' `${baseUrl}/<service>`, so the two have their own breakers too.
 */
export function resolveSvcEndpoint(svc: SvcAuthorizer, tpAmb: TpAmb, service: SvcService, override?: EndpointOverride): Endpoint {
  const row = loadTable()[svc]?.[tpAmb === 1 ? 'producao' : 'homologacao']?.[service];
  if (!row) throw new RangeError(`no ${service} endpoint at ${svc} for tpAmb ${tpAmb}`);
  const base = override ? { baseUrl: `${override.baseUrl.replace(/\/+$/, '')}/${SVC_PATH[svc]}` } : undefined;
  return endpointOf(row, svc, base);
}

/** The SVC a path of the sandbox's simulator names (`/svc-an/...`), or null (a state's authorizer). */
export function svcOfPath(pathname: string): SvcAuthorizer | null {
  const first = pathname.split('/').find((s) => s.length > 0)?.toLowerCase();
  return first === SVC_PATH['SVC-AN'] ? 'SVC-AN' : first === SVC_PATH['SVC-RS'] ? 'SVC-RS' : null;
}
