// The NFS-e national rule tables (Anexo I DPS/NFS-e, Anexo II events) as entries shaped like the MOC
// ones, from the project's copy of the official codes (assets/fiscal/nfse-codes/nfse_error_codes.csv,
// provenance in its README section of docs/fiscal/rule-table.md). One entry per sheet row: a code
// can sit on several rows (the same rule on several fields).
import { parseCsv } from '../../src/fiscal/nfse-codes/nfse-codes.js';
import type { NfseRule } from '../../src/fiscal/rules/rule-table.js';

/** The entry is the project's rule type (src/fiscal/rules/rule-table.ts reads what this writes). */
export type NfseRuleEntry = NfseRule;

/** The XML group a path names, from the DPS or event root: `NFSe/infNFSe/DPS/infDPS/toma/CPF` -> `DPS/infDPS/toma`. */
export function groupOf(xmlPath: string): string {
  const parts = xmlPath.replace(/^NFSe\/infNFSe\/(?=DPS)/, '').split('/').filter(Boolean);
  const depth = parts[0] === 'DPS' || parts[0] === 'evento' ? 3 : 2;
  return parts.slice(0, depth).join('/');
}

export function nfseEntries(csv: string): NfseRuleEntry[] {
  const [header, ...rows] = parseCsv(csv.replace(/^\uFEFF/, ''));
  const col = (name: string) => {
    const i = header!.indexOf(name);
    if (i < 0) throw new Error(`column ${name} missing from nfse_error_codes.csv`);
    return i;
  };
  const c = Object.fromEntries(
    ['code', 'message', 'rule', 'xml_path', 'field', 'level', 'runs_on_sefin', 'runs_on_adn', 'annex', 'sheet', 'sheet_row', 'source_version'].map((n) => [n, col(n)]),
  ) as Record<string, number>;
  return rows
    .filter((r) => r.length > 1 && /^E\d{4}$/.test(r[c.code!]!))
    .map((r) => {
      const at = (n: string) => (r[c[n]!] ?? '').trim();
      const xmlPath = at('xml_path').replace(/^NFSe\/infNFSe\/(?=DPS)/, '');
      return {
        id: at('code'),
        annex: at('annex') === 'II' ? 'II' : 'I',
        sheet: at('sheet'),
        sheetRow: at('sheet_row') ? Number(at('sheet_row')) : null,
        group: groupOf(xmlPath),
        xmlPath,
        field: at('field'),
        condition: at('rule').replace(/\s+/g, ' '),
        message: at('message').replace(/\s+/g, ' '),
        effect: 'rejection',
        level: at('level') ? Number(at('level')) : null,
        sefin: at('runs_on_sefin') === 'V',
        adn: at('runs_on_adn') === 'V',
        source: `NFS-e Anexo ${at('annex')} ${at('source_version')}`,
      };
    });
}
