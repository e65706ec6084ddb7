import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mocRules, nfseRules } from '../fiscal/rules/rule-table.js';
import { ENFORCED_NFE_RULES, ENFORCED_NFSE_RULES } from './enforced-rules.js';
import { nfeRuleApplies, nfseRuleApplies } from './rule-coverage.js';
import { NOT_ENFORCED, unenforcedNfeRules, unenforcedNfseRules } from './rules-not-enforced.js';
import { rulesNotEnforcedDoc } from './rules-not-enforced-doc.js';

describe('the rules the simulator does not enforce', () => {
  it('name only rules that apply and are not enforced', () => {
    const enforcedNfe = new Set(ENFORCED_NFE_RULES.map((e) => e.rule));
    const enforcedNfse = new Set(ENFORCED_NFSE_RULES.map((e) => e.rule));
    for (const [key, r] of Object.entries(NOT_ENFORCED)) {
      for (const id of r.nfe) {
        expect(mocRules().some((m) => m.id === id && nfeRuleApplies(m)), `${key}: ${id} applies`).toBe(true);
        expect(enforcedNfe.has(id), `${key}: ${id} is enforced, take it off the list`).toBe(false);
      }
      for (const id of r.nfse) {
        expect(nfseRules().some((m) => m.id === id && nfseRuleApplies(m)), `${key}: ${id} applies`).toBe(true);
        expect(enforcedNfse.has(id), `${key}: ${id} is enforced, take it off the list`).toBe(false);
      }
    }
    const named = Object.values(NOT_ENFORCED).flatMap((r) => [...r.nfe, ...r.nfse]);
    expect(new Set(named).size, 'a rule has one reason').toBe(named.length);
  });

  it('with the enforced ones, make up every applicable rule', () => {
    const nfe = mocRules().filter(nfeRuleApplies).length;
    const enforcedRows = new Set(ENFORCED_NFE_RULES.map((e) => `${e.rule}/${Number(e.code)}`));
    expect(unenforcedNfeRules().length + mocRules().filter((r) => nfeRuleApplies(r) && enforcedRows.has(`${r.id}/${r.cStat}`)).length).toBe(nfe);
    expect(unenforcedNfseRules().every((r) => !ENFORCED_NFSE_RULES.some((e) => e.rule === r.id))).toBe(true);
  });

  it('are listed in docs/fiscal/rules-not-enforced.md (npx tsx scripts/write-rules-not-enforced.ts)', () => {
    const doc = readFileSync(new URL('../../docs/fiscal/rules-not-enforced.md', import.meta.url), 'utf8');
    expect(doc).toBe(rulesNotEnforcedDoc());
  });
});
