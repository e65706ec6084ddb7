import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { readCsvTable } from './csv-table.js';
import { ufByIbgeCode } from './uf-catalog.js';

export interface Municipio {
  /** 7-digit IBGE code (cMun of the layout). */
  ibge_code: string;
  name: string;
  uf: string;
  capital: boolean;
  /** IANA time zone: the XML's dhEmi carries the issuer's local offset (docs/decisions.md#times). */
  timezone: string;
}

export interface MunicipioQuery {
  uf?: string | undefined;
  /** Prefix of the name; accents, case and punctuation are ignored. */
  q?: string | undefined;
  limit: number;
  /** IBGE code of the last municipality of the previous page. */
  startingAfter?: string | undefined;
}

interface Entry {
  m: Municipio;
  /** Folded name + code: the sort key, unique, so a cursor always has an exact position. */
  key: string;
  folded: string;
}

interface Index {
  all: Entry[];
  byUf: Map<string, Entry[]>;
  byCode: Map<string, Entry>;
}

let index: Index | undefined;

/** "Embu-Guaçu" -> "embu guacu", "Aparecida d'Oeste" -> "aparecida d oeste". */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function load(): Index {
  if (index) return index;
  const entries = readCsvTable(join(FISCAL_ASSETS_DIR, 'ibge', 'municipios.csv')).map((r): Entry => {
    const uf = ufByIbgeCode(r.codigo_uf!);
    if (!uf || !/^\d{7}$/.test(r.codigo_ibge!)) throw new Error(`municipios.csv: bad row ${r.codigo_ibge}`);
    const folded = foldName(r.nome!);
    return {
      m: { ibge_code: r.codigo_ibge!, name: r.nome!, uf: uf.code, capital: r.capital === '1', timezone: r.fuso_horario! },
      folded,
      key: `${folded}\u0000${r.codigo_ibge}`,
    };
  });
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const byUf = new Map<string, Entry[]>();
  for (const e of entries) {
    const bucket = byUf.get(e.m.uf);
    if (bucket) bucket.push(e);
    else byUf.set(e.m.uf, [e]);
  }
  index = { all: entries, byUf, byCode: new Map(entries.map((e) => [e.m.ibge_code, e])) };
  return index;
}

export function municipioByCode(ibgeCode: string): Municipio | undefined {
  return load().byCode.get(ibgeCode)?.m;
}

export class UnknownCursorError extends Error {
  override readonly name = 'UnknownCursorError';
}

/** One page of municipalities in name order; prefix search by binary search over the folded names. */
export function searchMunicipios(query: MunicipioQuery): { data: Municipio[]; has_more: boolean } {
  const idx = load();
  const list = query.uf ? (idx.byUf.get(query.uf.toUpperCase()) ?? []) : idx.all;
  const prefix = foldName(query.q ?? '');
  let from = lowerBound(list, prefix);
  if (query.startingAfter !== undefined) {
    const cursor = idx.byCode.get(query.startingAfter);
    if (!cursor) throw new UnknownCursorError(`No municipality has the IBGE code ${query.startingAfter}`);
    // Entries sort by a unique key, so "after the cursor" is well defined even if it is outside the filter.
    from = Math.max(from, lowerBound(list, `${cursor.key}\u0000`));
  }
  const data: Municipio[] = [];
  let i = from;
  for (; i < list.length && data.length < query.limit; i++) {
    if (!list[i]!.folded.startsWith(prefix)) break;
    data.push(list[i]!.m);
  }
  return { data, has_more: i < list.length && list[i]!.folded.startsWith(prefix) };
}

function lowerBound(list: Entry[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
