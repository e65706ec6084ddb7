// The simulator's rule coverage as a number (docs/guides/sandbox.md "Rule coverage", docs/fiscal/rule-table.md):
// rules enforced (enforced-rules.ts) / rules that apply to what the gateway sends. A rule applies
// unless its group is one the gateway never writes or its service one the gateway never uses;
// those categories are listed here with the reason, and the doc names each of them.
import { mocRules, nfseRules, type MocRule, type NfseRule } from '../fiscal/rules/rule-table.js';
import { ENFORCED_NFE_RULES, ENFORCED_NFSE_RULES } from './enforced-rules.js';

/** MOC 7.0 groups (section 4.2.1) left out: the NF-e/NFC-e writer (fiscal/xml/nfe) never emits them. */
export const NFE_LEFT_OUT: Readonly<Record<string, string>> = {
  D: 'NF-e Avulsa: issued by the tax authority itself',
  F: 'retirada (pick-up place): not written',
  G: 'entrega (delivery place): not written',
  L: 'arma (weapons): not written',
  LB: 'nRECOPI (immune paper): not written',
  P: 'II (import tax): not written',
  R: 'PISST: not written',
  T: 'COFINSST: not written',
  U: 'ISSQN of an item: not written',
  UA: 'impostoDevol: not written',
  W01: 'ISSQNtot: not written',
  ZB: 'compra: not written',
  ZC: 'cana: not written',
};

/** Group (path below the DPS / event root) of the NFS-e rows that apply: what write-dps.ts and write-event.ts emit. */
const NFSE_GROUPS = new Set(['', 'DPS', 'DPS/infDPS', 'DPS/valores', 'evento/pedRegEvento', 'evento/pedRegEvento/infPedReg'].concat(
  ['prest', 'toma', 'interm', 'serv', 'valores', 'IBSCBS', 'subst'].map((g) => `DPS/infDPS/${g}`),
));
/** NFS-e events the gateway sends (write-event.ts): cancellation and cancellation by substitution. */
const NFSE_EVENTS = new Set(['e101101', 'e101103']);

export const NFSE_LEFT_OUT: Readonly<Record<string, string>> = {
  'ADN only': 'rows the sheet marks for the ADN and not for Sefin Nacional, where the gateway sends',
  'NFS-e groups': 'rules on the NFS-e itself (NFSe, emit, valores, IBSCBS totals): Sefin writes it, municipal systems send it',
  'evento/infEvento': 'rules on the event document the authority writes',
  'other events': 'pedRegEvento rules of event types the gateway does not send (anything but e101101, e101103)',
};

export function nfeRuleApplies(r: MocRule): boolean {
  // Section 4.1 (general rules) reuses letters as group names (D, F): only 4.2.1 groups are layout groups.
  return !(r.section !== '4.1' && r.group in NFE_LEFT_OUT);
}

export function nfseRuleApplies(r: NfseRule): boolean {
  if (!r.sefin) return false;
  const event = /\/(e\d{6})(?:\/|$)/.exec(r.xmlPath)?.[1];
  if (event) return NFSE_EVENTS.has(event);
  return NFSE_GROUPS.has(r.group);
}

export interface Coverage {
  enforced: number;
  applicable: number;
  /** Enforced rule ids outside the applicable set (none expected: a rule the gateway cannot trigger). */
  outside: string[];
}

const key = (r: { id: string; cStat?: number }) => `${r.id}/${r.cStat ?? ''}`;

/** NF-e/NFC-e: a rule is one MOC row (id + cStat: D01 has two). */
export function nfeCoverage(): Coverage {
  const applicable = new Set(mocRules().filter(nfeRuleApplies).map(key));
  const enforced = new Set(ENFORCED_NFE_RULES.map((e) => key({ id: e.rule, cStat: Number(e.code) })));
  return { enforced: [...enforced].filter((k) => applicable.has(k)).length, applicable: applicable.size, outside: [...enforced].filter((k) => !applicable.has(k)) };
}

/** NFS-e: a rule is one code (a code on several rows counts once, applying if any of its rows does). */
export function nfseCoverage(): Coverage {
  const applicable = new Set(nfseRules().filter(nfseRuleApplies).map((r) => r.id));
  const enforced = new Set(ENFORCED_NFSE_RULES.map((e) => e.rule));
  return { enforced: [...enforced].filter((k) => applicable.has(k)).length, applicable: applicable.size, outside: [...enforced].filter((k) => !applicable.has(k)) };
}

/** The README's words for a coverage: "47 of 412 (11.4 %)". */
export function coverageText(c: Coverage): string {
  return `${c.enforced} of ${c.applicable} (${((100 * c.enforced) / c.applicable).toFixed(1)} %)`;
}
