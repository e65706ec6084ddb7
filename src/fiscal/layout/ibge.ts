import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';

// IBGE tables shipped in assets/fiscal/ibge (see assets/fiscal/SOURCES.md).

export interface Municipality {
  code: string;
  name: string;
  cUF: string;
  timeZone: string;
}

let municipalities: Map<string, Municipality> | undefined;
let ufCodes: Map<string, string> | undefined;

function readCsv(file: string): string[][] {
  const text = readFileSync(join(FISCAL_ASSETS_DIR, 'ibge', file), 'utf8').replace(/^\uFEFF/, '');
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(','));
}

export function municipality(code: string): Municipality | undefined {
  if (!municipalities) {
    municipalities = new Map();
    // codigo_ibge,nome,latitude,longitude,capital,codigo_uf,siafi_id,ddd,fuso_horario
    for (const cols of readCsv('municipios.csv')) {
      const [codigo, nome, , , , codigoUf, , , fuso] = cols;
      municipalities.set(codigo!, { code: codigo!, name: nome!, cUF: codigoUf!, timeZone: fuso! });
    }
  }
  return municipalities.get(code);
}

/** IBGE code of a UF ("SP" -> "35"), undefined for an unknown UF. */
export function ufCode(uf: string): string | undefined {
  if (!ufCodes) {
    ufCodes = new Map();
    for (const [cUF, sigla] of readCsv('uf_codes.csv')) ufCodes.set(sigla!, cUF!);
  }
  return ufCodes.get(uf);
}

/** The official time zone of a UF's capital, used when the municipality is unknown. */
const UF_FALLBACK_ZONE: Record<string, string> = {
  AC: 'America/Rio_Branco', AM: 'America/Manaus', RR: 'America/Boa_Vista', RO: 'America/Porto_Velho',
  MT: 'America/Cuiaba', MS: 'America/Campo_Grande', FN: 'America/Noronha',
};

export function timeZoneOf(municipalityCode: string, uf: string): string {
  return municipality(municipalityCode)?.timeZone || UF_FALLBACK_ZONE[uf] || 'America/Sao_Paulo';
}
