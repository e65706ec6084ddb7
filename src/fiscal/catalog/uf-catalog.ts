import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { SEFAZ_SERVICES, resolveEndpoint, type Model, type TpAmb } from '../sefaz/endpoints.js';
import { nfceUrls } from '../qrcode/nfce-urls.js';
import { stateFacts, type StateFacts } from '../states/states.js';
import { readCsvTable } from './csv-table.js';
import { IE_STATES } from '../layout/state-registration.js';

export type UfStatus = 'supported' | 'configured';

/** What a state still lacks before it is `supported` (docs/fiscal/states.md). */
export type UfGap = 'state_facts' | 'nfe_endpoints' | 'nfce_endpoints' | 'nfce_qr_urls' | 'authorizer' | 'ie_check_digits' | 'end_to_end_test';

export interface Uf {
  /** Two-letter state code (UF). */
  code: string;
  /** IBGE state code, the cUF of the access key (docs/fiscal/access-key.md). */
  ibge_code: string;
  name: string;
  status: UfStatus;
  /** Only when `configured`: what is missing. */
  missing?: UfGap[];
  /** The state's fiscal facts (fiscal/states/states.ts), when known. */
  rules?: {
    nfe_authorizer: string;
    nfce_authorizer: string;
    svc: 'SVC-AN' | 'SVC-RS';
    resp_tec_required: boolean;
    nfce_cancel_minutes: number;
    nfe_cancel_hours: number;
  };
}

// docs/guides/api.md#contract-sandbox-and-secrets: a state is `supported` when its data is complete (facts, endpoints of
// every service in both environments for models 55 and 65, QR and consultation URLs, the
// authorizer the endpoint table names) and a sale is authorized and cancelled in it through the
// simulator (test/state-coverage.test.ts); else `configured`, with `missing` saying what is not there.
function gapsOf(uf: string, facts: StateFacts | undefined): UfGap[] {
  if (!facts) return ['state_facts'];
  const gaps: UfGap[] = [];
  const authorizers = new Set<string>();
  for (const [model, gap] of [[55, 'nfe_endpoints'], [65, 'nfce_endpoints']] as Array<[Model, UfGap]>) {
    try {
      for (const tpAmb of [1, 2] as TpAmb[]) for (const s of SEFAZ_SERVICES) authorizers.add(`${model}:${resolveEndpoint(uf, model, tpAmb, s).authorizer}`);
    } catch {
      gaps.push(gap);
    }
  }
  try {
    for (const tpAmb of [1, 2] as TpAmb[]) if (!nfceUrls(uf, tpAmb).qrCodeBaseUrl || !nfceUrls(uf, tpAmb).urlChave) gaps.push('nfce_qr_urls');
  } catch {
    gaps.push('nfce_qr_urls');
  }
  const expected = new Set([`55:${facts.nfeAuthorizer}`, `65:${facts.nfceAuthorizer}`]);
  if (!gaps.includes('nfe_endpoints') && !gaps.includes('nfce_endpoints') && [...authorizers].some((a) => !expected.has(a))) gaps.push('authorizer');
  // MOC C17-20 / E17-50: the gateway and the simulator check the state's IE check digits (docs/fiscal/state-registration.md).
  if (!IE_STATES.includes(uf)) gaps.push('ie_check_digits');
  if (!facts.endToEnd) gaps.push('end_to_end_test');
  return [...new Set(gaps)];
}

let cache: { list: Uf[]; byCode: Map<string, Uf> } | undefined;

function load(): { list: Uf[]; byCode: Map<string, Uf> } {
  if (!cache) {
    const list = readCsvTable(join(FISCAL_ASSETS_DIR, 'ibge', 'uf_codes.csv'))
      .map((r): Uf => {
        const code = r.UF!;
        const facts = stateFacts(code);
        const missing = gapsOf(code, facts);
        const uf: Uf = { code, ibge_code: r.cUF!, name: r.nome!, status: missing.length === 0 ? 'supported' : 'configured' };
        if (missing.length > 0) uf.missing = missing;
        if (facts) {
          uf.rules = {
            nfe_authorizer: facts.nfeAuthorizer,
            nfce_authorizer: facts.nfceAuthorizer,
            svc: facts.svc,
            resp_tec_required: facts.respTecRequired,
            nfce_cancel_minutes: facts.nfceCancelMinutes,
            nfe_cancel_hours: facts.nfeCancelHours,
          };
        }
        return uf;
      })
      .sort((a, b) => a.code.localeCompare(b.code));
    cache = { list, byCode: new Map(list.map((u) => [u.code, u])) };
  }
  return cache;
}

/** The 27 states (26 + DF), ordered by UF code. */
export function listUfs(): readonly Uf[] {
  return load().list;
}

export function ufByCode(code: string): Uf | undefined {
  return load().byCode.get(code.toUpperCase());
}

export function ufByIbgeCode(ibgeCode: string): Uf | undefined {
  return load().list.find((u) => u.ibge_code === ibgeCode);
}
