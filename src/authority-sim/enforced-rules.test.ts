import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mocRule, mocRules, nfseRule, nfseRules } from '../fiscal/rules/rule-table.js';
import { ENFORCED_NFE_RULES, ENFORCED_NFSE_RULES, ENFORCED_OUTSIDE_TABLES } from './enforced-rules.js';
import { NFE_LEFT_OUT, NFSE_LEFT_OUT, coverageText, nfeCoverage, nfseCoverage } from './rule-coverage.js';

const SRC = new URL('../', import.meta.url);
const ROOT = new URL('../../', import.meta.url);
const read = (path: string, base = ROOT) => readFileSync(new URL(path, base), 'utf8');

/** The registry's `where` names a file under src/ that holds the code it answers. */
function expectWhereHolds(where: string, code: number | string) {
  const file = where.split(' ')[0]!;
  expect(existsSync(new URL(file, SRC)), `${file} exists`).toBe(true);
  expect(read(file, SRC), `${file} holds ${code}`).toContain(String(code));
}

describe('the rule tables', () => {
  it('hold every MOC 7.0 Anexo I rule row with its cStat and message (pages 71-142)', () => {
    // 568 rows; NT 2023.001 amended four of them (N12-20, N12-30, N12-70, W16-10), which keep their place.
    expect(mocRules().filter((r) => r.source === 'MOC 7.0 Anexo I')).toHaveLength(564);
    expect(mocRules().filter((r) => r.source.startsWith('NT 2023.001'))).toHaveLength(18);
    expect(mocRule('N12-30', 766)?.condition).toContain('61- Tributação monofásica sobre combustíveis cobrada anteriormente');
    // MOC 4.2.1 ZD01-10 (page 128) and B03-10 (page 75), read in the PDF.
    expect(mocRule('ZD01-10')).toMatchObject({ cStat: 972, field: 'infRespTec', models: [55, 65], obligation: 'optional', message: 'Rejeição: Obrigatória as informações do responsável técnico' });
    expect(mocRule('B03-10')).toMatchObject({ cStat: 897, field: 'cNF', obligation: 'mandatory', effect: 'rejection' });
    expect(mocRule('1C17-40')).toMatchObject({ cStat: 301, effect: 'denial', field: 'IE' });
    expect(mocRule('D01', 225)?.condition).toContain('WS Autorização');
    expect(mocRule('D01', 215)).toBeDefined();
    expect(mocRule('Z99-10')).toBeUndefined();
  });

  it('hold the NFS-e codes of Anexo I and II', () => {
    expect(new Set(nfseRules().map((r) => r.id)).size).toBe(503);
    expect(nfseRule('e0714')).toMatchObject({ annex: 'I', group: 'DPS', field: 'Signature', sefin: true });
  });
});

describe('the rules the simulator enforces', () => {
  it('each exists in the table with the same code, in the file named', () => {
    for (const e of ENFORCED_NFE_RULES) {
      expect(mocRule(e.rule, Number(e.code)), `${e.rule} with cStat ${e.code}`).toBeDefined();
      expectWhereHolds(e.where, e.code);
    }
    for (const e of ENFORCED_NFSE_RULES) {
      expect(e.code).toBe(e.rule);
      expect(nfseRule(e.rule), e.rule).toBeDefined();
      expectWhereHolds(e.where, e.code);
    }
    for (const e of ENFORCED_OUTSIDE_TABLES) {
      expect(mocRules().some((r) => r.cStat === e.code && r.section !== '4.3'), `${e.code} has a rule row: register it by id`).toBe(false);
      expectWhereHolds(e.where, e.code);
    }
  });

  it('are listed once', () => {
    const keys = [...ENFORCED_NFE_RULES, ...ENFORCED_NFSE_RULES].map((e) => `${e.rule}/${e.code}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('apply to what the gateway sends (E1843 runs at the ADN per Anexo II, the simulator checks it at Sefin)', () => {
    expect(nfeCoverage().outside).toEqual([]);
    expect(nfseCoverage().outside).toEqual(['E1843']);
  });

  it('give the figures the README states', () => {
    const readme = read('README.md');
    expect(readme).toContain(`- NF-e/NFC-e (MOC 7.0 Anexo I): ${coverageText(nfeCoverage())}`);
    expect(readme).toContain(`- NFS-e (national Anexo I/II, Sefin Nacional): ${coverageText(nfseCoverage())}`);
  });

  it('leave out only categories the doc explains', () => {
    const doc = read('docs/fiscal/rule-table.md');
    for (const category of [...Object.keys(NFE_LEFT_OUT), ...Object.keys(NFSE_LEFT_OUT)]) expect(doc, category).toContain(`| ${category} |`);
  });
});
