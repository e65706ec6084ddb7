// Access key (chave de acesso): 44 positions, MOC "Visão Geral" 5.4. With the alphanumeric CNPJ
// (NT Conjunta 2025.001) letters may appear in positions 7-18; every character is valued
// ASCII - 48 and the mod-11 weights 2..9 run from the right.

export interface AccessKeyParts {
  cUF: string; // 2 digits, IBGE UF code
  aamm: string; // 4 digits, year and month of dhEmi
  cnpj: string; // 14 characters
  mod: string; // "65"
  serie: string; // 3 digits
  nNF: string; // 9 digits
  tpEmis: string; // 1 digit
  cNF: string; // 8 digits
  cDV: string; // 1 digit
}

const KEY_SHAPE = /^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/; // PL_010 TChNFe

/** Mod-11 check digit of the first 43 characters of a key. */
export function accessKeyCheckDigit(first43: string): number {
  if (!/^[0-9]{6}[0-9A-Z]{12}[0-9]{25}$/.test(first43)) {
    throw new Error('access key body must be 43 characters: 6 digits, 12 of [0-9A-Z], 25 digits');
  }
  return mod11CheckDigit(first43);
}

/**
 * The NF-e mod 11: characters valued ASCII - 48, weights 2..9 from the right restarting at 2;
 * remainder 0 or 1 -> 0, else 11 - remainder. The NFS-e key uses the same digit (docs/fiscal/nfse-national.md#access-key).
 */
export function mod11CheckDigit(body: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = body.length - 1; i >= 0; i--) {
    sum += (body.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

export interface AccessKeyInput {
  cUF: number | string;
  emittedYear: number; // 4 digits
  emittedMonth: number; // 1-12
  cnpj: string;
  mod: number | string;
  serie: number;
  nNF: number;
  tpEmis: number;
  cNF: string;
}

export function buildAccessKey(input: AccessKeyInput): string {
  const body =
    String(input.cUF).padStart(2, '0') +
    String(input.emittedYear % 100).padStart(2, '0') +
    String(input.emittedMonth).padStart(2, '0') +
    input.cnpj.padStart(14, '0') +
    String(input.mod).padStart(2, '0') +
    String(input.serie).padStart(3, '0') +
    String(input.nNF).padStart(9, '0') +
    String(input.tpEmis) +
    input.cNF.padStart(8, '0');
  return body + String(accessKeyCheckDigit(body));
}

/** Splits a key into its fields; null when it is not a well-formed key (shape or check digit). */
export function parseAccessKey(key: string): AccessKeyParts | null {
  if (!KEY_SHAPE.test(key)) return null;
  if (accessKeyCheckDigit(key.slice(0, 43)) !== Number(key[43])) return null;
  return {
    cUF: key.slice(0, 2),
    aamm: key.slice(2, 6),
    cnpj: key.slice(6, 20),
    mod: key.slice(20, 22),
    serie: key.slice(22, 25),
    nNF: key.slice(25, 34),
    tpEmis: key.slice(34, 35),
    cNF: key.slice(35, 43),
    cDV: key.slice(43, 44),
  };
}
