import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { readCsvTable } from './csv-table.js';

export type UfStatus = 'supported' | 'configured';

export interface Uf {
  /** Two-letter state code (UF). */
  code: string;
  /** IBGE state code, the cUF of the access key (FACTS 1). */
  ibge_code: string;
  name: string;
  status: UfStatus;
}

// SPEC 1 "State coverage": SP is supported; the other 26 have addresses and codes ready (configured).
const SUPPORTED = new Set(['SP']);

let cache: { list: Uf[]; byCode: Map<string, Uf> } | undefined;

function load(): { list: Uf[]; byCode: Map<string, Uf> } {
  if (!cache) {
    const list = readCsvTable(join(FISCAL_ASSETS_DIR, 'ibge', 'uf_codes.csv'))
      .map((r) => ({
        code: r.UF!,
        ibge_code: r.cUF!,
        name: r.nome!,
        status: (SUPPORTED.has(r.UF!) ? 'supported' : 'configured') as UfStatus,
      }))
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
