import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';

// The official NFS-e rejection codes (Anexo I DPS/NFS-e, Anexo II events; docs/fiscal/nfse-national.md#error-codes), shipped as
// assets/fiscal/nfse-codes/nfse_error_codes.csv (provenance in assets/fiscal/SOURCES.md). Read once, lazily.

export interface NfseCode {
  /** `E` + 4 digits. */
  code: string;
  /** The official message (Portuguese). */
  message: string;
  /** The XML element the rule is about, from the DPS root (`DPS/infDPS/toma/CPF`), '' when the rule has none. */
  xmlPath: string;
  /** Anexo I or II. */
  annex: 'I' | 'II';
  /** 1 layout, 2 business rule, 3 municipal parametrisation; null when the sheet leaves it blank. */
  level: number | null;
}

let codes: Map<string, NfseCode> | undefined;

/** RFC 4180: quoted fields may hold commas, newlines and doubled quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function load(): Map<string, NfseCode> {
  const text = readFileSync(join(FISCAL_ASSETS_DIR, 'nfse-codes', 'nfse_error_codes.csv'), 'utf8').replace(/^\uFEFF/, '');
  const [header, ...rows] = parseCsv(text);
  const col = (name: string) => header!.indexOf(name);
  const [code, message, xmlPath, field, annex, level] = ['code', 'message', 'xml_path', 'field', 'annex', 'level'].map(col) as [number, number, number, number, number, number];
  const out = new Map<string, NfseCode>();
  for (const r of rows) {
    const c = r[code]?.trim();
    // A code on several rows (one rule over several fields) keeps its first row's message and path.
    if (!c || out.has(c)) continue;
    const path = [r[xmlPath] ?? '', r[field] ?? ''].join('').replace(/^NFSe\/infNFSe\//, '').replace(/\/+$/, '');
    const lvl = Number(r[level]);
    out.set(c, { code: c, message: (r[message] ?? '').trim(), xmlPath: path, annex: r[annex] === 'II' ? 'II' : 'I', level: Number.isInteger(lvl) && lvl > 0 ? lvl : null });
  }
  return out;
}

/** The official entry of `code` (`E0714`), or undefined for a code not in Anexo I/II. */
export function nfseCode(code: string): NfseCode | undefined {
  codes ??= load();
  return codes.get(code.trim().toUpperCase());
}

/** Every code (for tests and the simulator). */
export function allNfseCodes(): readonly NfseCode[] {
  codes ??= load();
  return [...codes.values()];
}
