// DPS Id and NFS-e access key of the NFS-e Padrão Nacional (docs/fiscal/nfse-national.md#dps, docs/fiscal/nfse-national.md#access-key; XSD TSIdDPS, TSIdNFSe).
import { mod11CheckDigit } from '../../layout/access-key.js';

/** Inscription type in the DPS Id and the key: 1 = CPF, 2 = CNPJ (XSD TSIdDPS documentation). */
export type InscriptionType = 1 | 2;

export interface DpsIdParts {
  cLocEmi: string; // 7-digit IBGE code of the issuing municipality
  inscriptionType: InscriptionType;
  /** CNPJ (14) or CPF (11 digits; written left-padded with 000 in the Id). */
  taxId: string;
  serie: string; // 1-5 digits
  nDPS: string; // 1-15 digits, no leading zero
}

// Letters are allowed only after inscription type 2 (alphanumeric CNPJ, package of 27/07/2026, docs/fiscal/nfse-national.md#alphanumeric-cnpj);
// the 09/02/2026 XSD (TSIdDPS DPS[0-9]{42}) still takes digits only.
const DPS_ID = /^DPS([0-9]{7})(?:(1)([0-9]{14})|(2)([0-9A-Z]{12}[0-9]{2}))([0-9]{5})([0-9]{15})$/;

/** "DPS" + cLocEmi(7) + type(1) + CPF/CNPJ(14, CPF left-padded with 000) + serie(5) + nDPS(15), zero-padded: 45 characters (E0004). */
export function buildDpsId(p: DpsIdParts): string {
  if (!/^[0-9]{7}$/.test(p.cLocEmi)) throw new Error('cLocEmi must be 7 digits');
  if (p.inscriptionType === 1 ? !/^[0-9]{11}$/.test(p.taxId) : !/^[0-9A-Z]{12}[0-9]{2}$/.test(p.taxId)) {
    throw new Error(p.inscriptionType === 1 ? 'CPF must be 11 digits' : 'CNPJ must be 12 of [0-9A-Z] and 2 digits');
  }
  // TSSerieDPS: 1 to 5 digits (patched pattern 0{0,4}\d{1,5}, maxLength 5); TSNumDPS [1-9][0-9]{0,14}.
  if (!/^[0-9]{1,5}$/.test(p.serie)) throw new Error('serie must be 1 to 5 digits');
  if (!/^[1-9][0-9]{0,14}$/.test(p.nDPS)) throw new Error('nDPS must be 1 to 15 digits without a leading zero');
  return 'DPS' + p.cLocEmi + p.inscriptionType + p.taxId.padStart(14, '0') + p.serie.padStart(5, '0') + p.nDPS.padStart(15, '0');
}

/** The parts of a 45-character DPS Id (serie and nDPS without padding, CPF without its 000), or null. */
export function parseDpsId(id: string): DpsIdParts | null {
  const m = DPS_ID.exec(id);
  if (!m) return null;
  const cpf = m[2] === '1';
  if (cpf && !m[3]!.startsWith('000')) return null;
  const nDPS = m[7]!.replace(/^0+/, '');
  if (nDPS === '') return null;
  return {
    cLocEmi: m[1]!,
    inscriptionType: cpf ? 1 : 2,
    taxId: cpf ? m[3]!.slice(3) : m[5]!,
    serie: m[6]!.replace(/^0+(?=\d)/, ''),
    nDPS,
  };
}

// Key = cMun(7) + ambGer(1) + inscription type(1) + CPF/CNPJ(14) + nNFSe(13) + AAMM(4) + cNum(9) + DV(1).
const KEY = /^([0-9]{7})([12])([12])([0-9A-Z]{14})([0-9]{13})([0-9]{4})([0-9]{9})([0-9])$/;

/** DV of the NFS-e key over its first 49 characters: the NF-e mod 11 (docs/fiscal/nfse-national.md#access-key; letters valued ASCII - 48 as in docs/fiscal/access-key.md#alphanumeric-cnpj). */
export function nfseKeyCheckDigit(first49: string): number {
  if (!/^[0-9]{9}[0-9A-Z]{14}[0-9]{26}$/.test(first49)) throw new Error('NFS-e key body must be 49 characters');
  return mod11CheckDigit(first49);
}

export interface NfseKeyParts {
  cMun: string;
  /** 1 = municipal system, 2 = Sefin Nacional (not tpAmb). */
  ambGer: '1' | '2';
  inscriptionType: InscriptionType;
  /** CNPJ (14) or CPF (11, the key holds it left-padded with 000). */
  taxId: string;
  nNFSe: string; // 13 digits as in the key
  aamm: string;
  cNum: string;
  dv: string;
}

/** The parts of a 50-character NFS-e key whose check digit is right, or null. */
export function parseNfseKey(key: string): NfseKeyParts | null {
  const m = KEY.exec(key);
  if (!m || nfseKeyCheckDigit(key.slice(0, 49)) !== Number(m[8])) return null;
  const cpf = m[3] === '1';
  if (cpf && !/^000[0-9]{11}$/.test(m[4]!)) return null;
  return {
    cMun: m[1]!,
    ambGer: m[2] as '1' | '2',
    inscriptionType: cpf ? 1 : 2,
    taxId: cpf ? m[4]!.slice(3) : m[4]!,
    nNFSe: m[5]!,
    aamm: m[6]!,
    cNum: m[7]!,
    dv: m[8]!,
  };
}

/** True when `key` is a well-formed 50-character NFS-e key with a correct check digit. */
export function isValidNfseKey(key: string): boolean {
  return parseNfseKey(key) !== null;
}
