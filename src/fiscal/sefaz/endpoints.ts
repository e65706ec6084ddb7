import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { WSDL_NAMESPACE_BASE } from './soap-envelope.js';

export type SefazService =
  | 'autorizacao'
  | 'retAutorizacao'
  | 'consultaProtocolo'
  | 'statusServico'
  | 'inutilizacao'
  | 'recepcaoEvento';

export const SEFAZ_SERVICES: readonly SefazService[] = [
  'autorizacao',
  'retAutorizacao',
  'consultaProtocolo',
  'statusServico',
  'inutilizacao',
  'recepcaoEvento',
];

export type Model = 55 | 65;

/** The model of a stored document (NF-e 55, NFC-e 65): the authorization, consultation and event jobs key on it. */
export function asModel(model: number): Model {
  if (model !== 55 && model !== 65) throw new RangeError(`not an NF-e/NFC-e model: ${model}`);
  return model;
}
export type TpAmb = 1 | 2;

export interface Endpoint {
  url: string;
  /** WSDL target namespace: the `nfeDadosMsg` wrapper's namespace. */
  namespace: string;
  /** SOAP 1.2 action = namespace + '/' + operation (docs/fiscal/sefaz-services.md; WSDL soapAction). */
  action: string;
  /** WSDL operation, e.g. nfeAutorizacaoLote. */
  operation: string;
  /** WSDL service name, e.g. NFeAutorizacao4. */
  serviceName: string;
  /** Layout version of the payload (4.00; 1.00 for events). */
  version: string;
  /** Authoriser that serves the UF (SVRS, SP, ...). */
  authorizer: string;
}

export interface TableEntry {
  url: string;
  method: string;
  operation: string;
  version: string;
}
interface UfEntry {
  cUF: string;
  authorizer: string;
  homologacao: Record<string, TableEntry | string>;
  producao: Record<string, TableEntry | string>;
}
interface EndpointTable {
  ufCodes: Record<string, string>;
  '55': Record<string, UfEntry>;
  '65': Record<string, UfEntry>;
}

let table: EndpointTable | undefined;
function loadTable(): EndpointTable {
  // Data file, not code (docs/decisions.md#data-not-code): regenerated when the authorities move their services.
  table ??= JSON.parse(
    readFileSync(join(FISCAL_ASSETS_DIR, 'webservices', 'sefaz_endpoints_v4_derived.json'), 'utf8'),
  ) as EndpointTable;
  return table;
}

/** UF abbreviation for an abbreviation or an IBGE code ('SP' or '35' -> 'SP'); null when unknown. */
export function ufAbbreviation(uf: string | number): string | null {
  const t = loadTable();
  const key = String(uf).toUpperCase();
  if (t.ufCodes[key]) return t.ufCodes[key];
  return Object.values(t.ufCodes).includes(key) ? key : null;
}

/** IBGE code of a UF ('SP' -> '35'). */
export function ufCode(uf: string | number): string | null {
  const abbr = ufAbbreviation(uf);
  if (!abbr) return null;
  return Object.entries(loadTable().ufCodes).find(([, a]) => a === abbr)?.[0] ?? null;
}

export interface EndpointOverride {
  /** Every service is sent to `${baseUrl}/${serviceName}` (the simulator); namespaces stay the UF's. */
  baseUrl: string;
}

/**
 * Endpoint of one service for a UF, model and environment (tpAmb 1 production, 2 homologation).
 * The namespace comes from the table's service name, because a few authorisers publish their own
 * (GO and PR NFC-e events use `NFeRecepcaoEvento`, PR `nfeRetAutorizacao`): docs/fiscal/sefaz-services.md caveat.
 */
export function resolveEndpoint(
  uf: string | number,
  model: Model,
  tpAmb: TpAmb,
  service: SefazService,
  override?: EndpointOverride,
): Endpoint {
  const abbr = ufAbbreviation(uf);
  if (!abbr) throw new RangeError(`unknown UF ${String(uf)}`);
  const entry = loadTable()[String(model) as '55' | '65'][abbr];
  if (!entry) throw new RangeError(`no endpoints for model ${model} in ${abbr}`);
  const env = tpAmb === 1 ? entry.producao : entry.homologacao;
  const row = env[service];
  if (!row || typeof row === 'string' || !row.url) {
    throw new RangeError(`no ${service} endpoint for model ${model} in ${abbr}, tpAmb ${tpAmb}`);
  }
  return endpointOf(row, entry.authorizer, override);
}

/**
 * SP's NFC-e EPEC reception (EPECws/RecepcaoEPEC.asmx, the `recepcaoEPEC` row of the model 65 table;
 * docs/fiscal/offline-contingency.md#epec-sp). RangeError for a state that publishes none (only SP does).
 */
export function resolveNfceEpecEndpoint(uf: string | number, tpAmb: TpAmb, override?: EndpointOverride): Endpoint {
  const abbr = ufAbbreviation(uf);
  const entry = abbr ? loadTable()['65'][abbr] : undefined;
  const row = entry ? (tpAmb === 1 ? entry.producao : entry.homologacao).recepcaoEPEC : undefined;
  if (!entry || !row || typeof row === 'string' || !row.url) throw new RangeError(`no NFC-e EPEC endpoint in ${String(uf)}, tpAmb ${tpAmb}`);
  // The table writes the layout version 4.00 in homologation and 1.00 in production; the event is 1.00 in both.
  return { ...endpointOf(row, entry.authorizer, override), version: '1.00' };
}

/** A table row (url, WSDL service name as `operation`, operation as `method`, version) -> Endpoint. */
export function endpointOf(row: TableEntry, authorizer: string, override?: EndpointOverride): Endpoint {
  const namespace = WSDL_NAMESPACE_BASE + row.operation;
  return {
    url: override ? `${override.baseUrl.replace(/\/+$/, '')}/${row.operation}` : row.url,
    namespace,
    action: `${namespace}/${row.method}`,
    operation: row.method,
    serviceName: row.operation,
    version: row.version,
    authorizer,
  };
}

/** Every UF abbreviation in the table (the 27 states). */
export function allUfs(): string[] {
  return Object.values(loadTable().ufCodes);
}
