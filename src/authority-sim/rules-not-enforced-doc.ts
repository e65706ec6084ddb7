import { coverageText, nfeCoverage, nfseCoverage } from './rule-coverage.js';
import { reasonWhy, unenforcedNfeRules, unenforcedNfseRules, type UnenforcedRule } from './rules-not-enforced.js';

// docs/fiscal/rules-not-enforced.md, written from rules-not-enforced.ts
// (`npx tsx scripts/write-rules-not-enforced.ts`); rules-not-enforced.test.ts checks the file is current.

const cell = (s: string) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

function section(title: string, rules: UnenforcedRule[]): string[] {
  const byReason = new Map<string, UnenforcedRule[]>();
  for (const r of rules) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), r]);
  // Reasons by size, "not written yet" last.
  const keys = [...byReason.keys()].sort((a, b) => (a === 'not-written' ? 1 : b === 'not-written' ? -1 : byReason.get(b)!.length - byReason.get(a)!.length));
  const out = [`## ${title}: ${rules.length} not enforced`, ''];
  for (const k of keys) {
    const list = byReason.get(k)!;
    out.push(`### ${list.length}: ${reasonWhy(k)}`, '', '| rule | code | message |', '|---|---|---|');
    for (const r of list) out.push(`| ${r.id} | ${r.code} | ${cell(r.message)} |`);
    out.push('');
  }
  return out;
}

export function rulesNotEnforcedDoc(): string {
  return [
    '# The rules the simulator does not enforce, and why',
    '',
    'Written by `npx tsx scripts/write-rules-not-enforced.ts` from `src/authority-sim/rules-not-enforced.ts`;',
    'a test fails when this file is not current. The rules counted are those that apply to what the gateway',
    'sends (docs/fiscal/rule-table.md says which groups and services are left out whole, and why). Coverage:',
    '',
    `- NF-e/NFC-e (MOC 7.0 Anexo I): ${coverageText(nfeCoverage())}`,
    `- NFS-e (national Anexo I/II, Sefin Nacional): ${coverageText(nfseCoverage())}`,
    '',
    'A sandbox document that breaks one of these rules can be authorized by the simulator and refused by the',
    'real authority.',
    '',
    ...section('NF-e / NFC-e', unenforcedNfeRules()),
    ...section('NFS-e', unenforcedNfseRules()),
  ].join('\n');
}
