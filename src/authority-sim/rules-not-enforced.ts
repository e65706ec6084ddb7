import { mocRules, nfseRules, type MocRule } from '../fiscal/rules/rule-table.js';
import { ENFORCED_NFE_RULES, ENFORCED_NFSE_RULES } from './enforced-rules.js';
import { nfeRuleApplies, nfseRuleApplies } from './rule-coverage.js';

// The rules that apply to what the gateway sends and that the simulator does not enforce, each with
// why (README "Rule coverage", docs/fiscal/rules-not-enforced.md, which is written from this file:
// `npx tsx scripts/write-rules-not-enforced.ts`). A rule named under a reason must apply and must not
// be enforced (rules-not-enforced.test.ts); a rule with no reason named here is "not written yet".

export interface NotEnforcedReason {
  /** Why the simulator cannot or does not enforce these rules, in words a user of the sandbox reads. */
  why: string;
  /** MOC 7.0 Anexo I ids (every row of an id with two rows). */
  nfe: readonly string[];
  /** NFS-e E-codes. */
  nfse: readonly string[];
}

export const NOT_ENFORCED: Readonly<Record<string, NotEnforcedReason>> = {
  'tls-client-certificate': {
    why: 'about the TLS client certificate of the connection: the simulator ends a connection without a valid client certificate in the TLS handshake, so no answer carries these codes, and it serves the sandbox\'s test certificates, which are not ICP-Brasil',
    nfe: [],
    nfse: ['E1200', 'E1203', 'E1205', 'E1206', 'E1207', 'E1208', 'E1209'],
  },
  'icp-brasil': {
    why: 'needs an ICP-Brasil certificate (its chain to the ICP-Brasil roots, the CNPJ/CPF extension): the sandbox signs with test certificates that have neither, so the simulator would refuse every sandbox document',
    nfe: [],
    nfse: ['E0716', 'E1986'],
  },
  'taxpayer-register': {
    why: 'needs the Receita Federal CNPJ/CPF register (whether a number exists, is active, its name), which the simulator does not hold',
    nfe: [],
    nfse: ['E0018', 'E0020', 'E0041', 'E0082', 'E0084', 'E0098', 'E0099', 'E0132', 'E0134', 'E0190', 'E0194', 'E0207', 'E0212', 'E0250', 'E0254', 'E0268', 'E0272'],
  },
  'simples-register': {
    why: 'needs the Simples Nacional register (who opted in, since when), which the simulator does not hold',
    nfe: [],
    nfse: ['E0160'],
  },
  'municipal-registers': {
    why: 'needs what each municipality registers with the national system (its agreement, its parameters and service-incidence table, the CNC of its taxpayers), which the simulator does not hold',
    nfe: [],
    nfse: ['E0016', 'E0023', 'E0037', 'E0038', 'E0039', 'E0116', 'E0119', 'E0120', 'E0124', 'E0176', 'E0177', 'E0178', 'E0228', 'E0229', 'E0231', 'E0232', 'E0234', 'E0287', 'E0288', 'E0289', 'E0290', 'E0822', 'E0823', 'E0824', 'E0827'],
  },
  'postal-register': {
    why: 'needs the Correios postal-code (CEP) register, which the simulator does not hold',
    nfe: [],
    nfse: ['E0138', 'E0240', 'E0296'],
  },
  'operation-table': {
    why: 'needs the table of cIndOp operation codes, which is not published as data the project could obtain',
    nfe: [],
    nfse: ['E0187'],
  },
  'taker-issued': {
    why: 'only for a DPS issued by the taker or the intermediary (tpEmit 2 or 3), which E9996 refuses at Sefin Nacional; the gateway sends tpEmit 1',
    nfe: [],
    nfse: ['E0122', 'E0125', 'E0129', 'E0142', 'E0222', 'E0224', 'E0236', 'E0280', 'E0284', 'E0291'],
  },
  'refused-earlier': {
    why: 'cannot be reached: an earlier rule the simulator enforces, or the schema, refuses every document that could break it (the provider\'s name and address with tpEmit 1: E0121/E0128; a mandatory name; the one layout version)',
    nfe: [],
    nfse: ['E0113', 'E0123', 'E0130', 'E0146', 'E0233', 'E0292', 'E0854', 'E0001', 'E1825'],
  },
  'one-environment': {
    why: 'about a document sent to the other environment\'s address: one simulator serves both environments at one address, so there is none to differ from (E0831 checks an event against its note)',
    nfe: [],
    nfse: ['E0006', 'E1845'],
  },
  'events-not-sent': {
    why: 'rules of events the gateway does not send (events the municipality or the taker registers, or 101103, which the gateway can write but no route sends)',
    nfe: [],
    nfse: ['E0845', 'E0848', 'E0852', 'E0853', 'E0855', 'E0856', 'E0860', 'E0861', 'E0862', 'E0863', 'E0864', 'E0866', 'E0868', 'E0870', 'E1960', 'E1965', 'E1970', 'E1833', 'E1835'],
  },
  'gs1-prefix-table': {
    why: 'the GS1 prefix table the rule names ("Tabela Prefixo GS1" of the Portal Nacional da NF-e) is not in the project and no copy of it was found; the check digit of the GTIN is checked (I03-10, I12-10)',
    nfe: ['I03-20', 'I12-20'],
    nfse: [],
  },
  'cfop-table': {
    why: 'the rule reads the CFOP table of the Portal Nacional da NF-e (columns indNFe, indDevol), which is not in the project and no copy of it with those columns was found',
    nfe: ['I08-04', 'I08-140', 'I08-144'],
    nfse: [],
  },
  'nfce-unit-table': {
    why: 'the "tabela específica" of NFC-e units is not published (I13-10 says "Implementação Futura"): no list to check uCom/uTrib against',
    nfe: ['I09-10', 'I13-10'],
    nfse: [],
  },
  'comex-unit-table': {
    why: 'the table of taxable units per NCM in foreign trade (Portal Nacional da NF-e, "Diversos") is not in the project and no copy of it was found',
    nfe: ['I14-10'],
    nfse: [],
  },
  'no-criterion': {
    why: 'the rule says the value is invalid or incompatible without saying by what criterion (no list of NCMs an NFC-e refuses, no check-digit or format rule for the DI number), so a simulator check would be a guess',
    nfe: ['I05-30', 'I19-10'],
    nfse: [],
  },
  'ipi-framework-table': {
    why: 'the table of IPI legal framework codes (cEnq, MOC Visão Geral section 8.9) is not in the project; the ranges O09-10 gives per CST are checked',
    nfe: ['O06-10'],
    nfse: [],
  },
  'drawback-number': {
    why: 'the rule calls the drawback process number or the export registration number invalid without saying by what criterion (the layout only gives their length), and the gateway never writes the import declaration (prod/DI) nor the export detail (prod/detExport) of an item',
    nfe: ['I29a-20', 'I51-20', 'I53-10'],
    nfse: [],
  },
};

/** Rules of `optional` obligation (Facul.) are the authority's choice: each state decides. */
export const OPTIONAL_WHY = 'optional in the MOC (Facul.): each state decides whether to apply it, and which states do is not recorded in the project (src/fiscal/states), so the simulator applies none of these';
/** The reason of an applicable rule nobody has written yet. */
export const NOT_WRITTEN_WHY = 'not written yet: it can apply to what the gateway sends and the simulator does not check it';

export interface UnenforcedRule {
  id: string;
  code: number | string;
  message: string;
  reason: string;
}

const nfeKey = (id: string, cStat: number) => `${id}/${cStat}`;

function reasonOf(list: (r: NotEnforcedReason) => readonly string[], id: string): string | undefined {
  return Object.keys(NOT_ENFORCED).find((k) => list(NOT_ENFORCED[k]!).includes(id));
}

/** Every applicable NF-e/NFC-e rule row the simulator does not enforce, with its reason key. */
export function unenforcedNfeRules(): UnenforcedRule[] {
  const enforced = new Set(ENFORCED_NFE_RULES.map((e) => nfeKey(e.rule, Number(e.code))));
  return mocRules()
    .filter((r) => nfeRuleApplies(r) && !enforced.has(nfeKey(r.id, r.cStat)))
    .map((r: MocRule) => ({ id: r.id, code: r.cStat, message: r.message, reason: reasonOf((x) => x.nfe, r.id) ?? (r.obligation === 'optional' ? 'optional' : 'not-written') }));
}

/** Every applicable NFS-e code the simulator does not enforce, with its reason key. */
export function unenforcedNfseRules(): UnenforcedRule[] {
  const enforced = new Set(ENFORCED_NFSE_RULES.map((e) => e.rule));
  const seen = new Set<string>();
  const out: UnenforcedRule[] = [];
  for (const r of nfseRules()) {
    if (!nfseRuleApplies(r) || enforced.has(r.id) || seen.has(r.id)) continue;
    seen.add(r.id);
    out.push({ id: r.id, code: r.id, message: r.message, reason: reasonOf((x) => x.nfse, r.id) ?? 'not-written' });
  }
  return out;
}

/** The words of a reason key. */
export function reasonWhy(key: string): string {
  if (key === 'optional') return OPTIONAL_WHY;
  if (key === 'not-written') return NOT_WRITTEN_WHY;
  return NOT_ENFORCED[key]!.why;
}
