import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';

// The official rule tables as data (docs/fiscal/rule-table.md): MOC 7.0 Anexo I for NF-e/NFC-e
// (assets/fiscal/rules/moc-anexo-i.json) and the NFS-e national Anexo I/II
// (assets/fiscal/rules/nfse-anexo-i.json), both written by scripts/extract-rule-tables.ts. Read once, lazily.

export interface MocRule {
  /** As the MOC writes it: `ZD01-10`, `B07-10`, `1C17-10` (database rules), `D01a` (general rules), `4.3.1` (consumo indevido, no id in the MOC). */
  id: string;
  /** 4.1 general rules, 4.2.1 authorization rules, 4.3 consumo indevido; `NT` for an entry of a later Nota Técnica. */
  section: '4.1' | '4.2.1' | '4.3' | 'NT';
  /** MOC group letter(s) of the layout (`ZD`, `YA`, `W01`), `1`..`9` for the database groups, `A`..`F` for 4.1. */
  group: string;
  groupTitle: string;
  /** Layout field id (`ZD01`) and its tag (`infRespTec`); null for general rules. */
  fieldId: string | null;
  field: string | null;
  models: Array<55 | 65>;
  /** The rule as the MOC states it (Portuguese), without its observations. */
  condition: string;
  /** Its Observação / Exceção / Nota text, '' when none. */
  notes: string;
  cStat: number;
  /** The rejection (or denial) text of the rule's row. */
  message: string;
  /** Aplic. column: Obrig. (mandatory for every authority) or Facul. (the authority's choice). */
  obligation: 'mandatory' | 'optional';
  /** Efeito column: Rej. or Den. (uso denegado). */
  effect: 'rejection' | 'denial';
  /** Notas Técnicas the row cites. */
  nt: string[];
  /** PDF page (0 for a later-NT entry). */
  page: number;
  /** `MOC 7.0 Anexo I`, or the NT an entry was transcribed from. */
  source: string;
}

export interface NfseRule {
  /** The official code (`E0714`): Anexo I/II have no other rule id. */
  id: string;
  annex: 'I' | 'II';
  sheet: string;
  sheetRow: number | null;
  /** The XML group of the rule, from the DPS or event root (`DPS/infDPS/toma`), '' for reception rules. */
  group: string;
  xmlPath: string;
  field: string;
  condition: string;
  message: string;
  effect: 'rejection';
  /** 1 layout, 2 business rule, 3 municipal parametrisation. */
  level: number | null;
  /** Runs at Sefin Nacional (where the gateway sends DPS and events) / at the ADN. */
  sefin: boolean;
  adn: boolean;
  source: string;
}

let moc: readonly MocRule[] | undefined;
let nfse: readonly NfseRule[] | undefined;

const load = <T>(file: string): readonly T[] => (JSON.parse(readFileSync(join(FISCAL_ASSETS_DIR, 'rules', file), 'utf8')) as { rules: T[] }).rules;

/** Every NF-e/NFC-e rule (MOC 7.0 Anexo I and later-NT entries). */
export function mocRules(): readonly MocRule[] {
  return (moc ??= load<MocRule>('moc-anexo-i.json'));
}

/** Every NFS-e rule row (Anexo I and II; a code can have several rows). */
export function nfseRules(): readonly NfseRule[] {
  return (nfse ??= load<NfseRule>('nfse-anexo-i.json'));
}

/**
 * The MOC rule `id` (`ZD01-10`), e.g. for a 422's `rule` field: its cStat and message. Six general
 * ids have two rows (D01, D01a, D01b: the authorization web service's code and the others'): pass
 * `cStat` to pick one, otherwise the first row is returned.
 */
export function mocRule(id: string, cStat?: number): MocRule | undefined {
  return mocRules().find((r) => r.id === id && (cStat === undefined || r.cStat === cStat));
}

/** The first row of the NFS-e code `id` (`E0714`). */
export function nfseRule(id: string): NfseRule | undefined {
  const code = id.trim().toUpperCase();
  return nfseRules().find((r) => r.id === code);
}
