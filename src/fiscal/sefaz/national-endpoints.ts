// The Ambiente Nacional (AN) services: the recipient's manifestation (NFeRecepcaoEvento4 of AN,
// cOrgao 91) and NFeDistribuicaoDFe (docs/fiscal/sefaz-services.md, docs/fiscal/nfe-model-55.md#recipient-manifestation, docs/fiscal/nfe-model-55.md#distribution-and-throttling). URLs, operations and versions are read
// from the `AN` block of webservices/wsnfe_4.00_mod55.xml (docs/decisions.md#data-not-code: data, not code).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { endpointOf, type Endpoint, type EndpointOverride, type TableEntry, type TpAmb } from './endpoints.js';

export type NationalService = 'recepcaoEventoAN' | 'distribuicaoDFe';

/** Element names of the AN block in wsnfe_4.00_mod55.xml. */
const ELEMENTS: Record<NationalService, string> = {
  recepcaoEventoAN: 'RecepcaoEvento',
  distribuicaoDFe: 'NfeDistribuicaoDFe',
};

type Row = TableEntry;
let table: Record<'homologacao' | 'producao', Partial<Record<NationalService, Row>>> | undefined;

function loadTable(): NonNullable<typeof table> {
  if (table) return table;
  const xml = readFileSync(join(FISCAL_ASSETS_DIR, 'webservices', 'wsnfe_4.00_mod55.xml'), 'utf8');
  const block = /<UF>\s*<sigla>AN<\/sigla>([\s\S]*?)<\/UF>/.exec(xml)?.[1];
  if (!block) throw new Error('wsnfe_4.00_mod55.xml has no AN block');
  const read = (env: 'homologacao' | 'producao') => {
    const part = new RegExp(`<${env}>([\\s\\S]*?)</${env}>`).exec(block)?.[1] ?? '';
    const rows: Partial<Record<NationalService, Row>> = {};
    for (const [service, element] of Object.entries(ELEMENTS) as Array<[NationalService, string]>) {
      const m = new RegExp(`<${element} method="([^"]+)" operation="([^"]+)" version="([^"]+)">([^<]+)</${element}>`).exec(part);
      if (m) rows[service] = { method: m[1]!, operation: m[2]!, version: m[3]!, url: m[4]!.trim() };
    }
    return rows;
  };
  table = { homologacao: read('homologacao'), producao: read('producao') };
  return table;
}

/**
 * Endpoint of an AN service for the environment (tpAmb 1 production, 2 homologation). With an
 * override every service goes to `${baseUrl}/${operation}` like the UF services (endpoints.ts): the
 * simulator tells the AN's event reception from the UF's by cOrgao 91.
 */
export function resolveNationalEndpoint(tpAmb: TpAmb, service: NationalService, override?: EndpointOverride): Endpoint {
  const row = loadTable()[tpAmb === 1 ? 'producao' : 'homologacao'][service];
  if (!row) throw new RangeError(`no AN ${service} endpoint for tpAmb ${tpAmb}`);
  return endpointOf(row, 'AN', override);
}
