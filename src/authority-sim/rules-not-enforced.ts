import { mocRules, nfseRules, type MocRule } from '../fiscal/rules/rule-table.js';
import { ENFORCED_NFE_RULES, ENFORCED_NFSE_RULES } from './enforced-rules.js';
import { nfeRuleApplies, nfseRuleApplies } from './rule-coverage.js';

// The rules that apply to what the gateway sends and that the simulator does not enforce, each with
// why (docs/guides/sandbox.md "Rule coverage", docs/fiscal/rules-not-enforced.md, which is written from this file:
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
    nfe: ['A01', 'A02', 'A03', 'A04', 'A05', 'A06', 'A07'],
    nfse: ['E1200', 'E1203', 'E1205', 'E1206', 'E1207', 'E1208', 'E1209'],
  },
  'icp-brasil': {
    why: 'needs an ICP-Brasil certificate (its chain to the ICP-Brasil roots, the CNPJ/CPF extension): the sandbox signs with test certificates that have neither, so the simulator would refuse every sandbox document',
    nfe: ['E03', 'E04', 'E05', 'E06', 'E07'],
    nfse: ['E0716', 'E1986'],
  },
  'taxpayer-register': {
    why: 'needs the tax registers (the Receita Federal CNPJ/CPF register; the state\'s register of taxpayers: whether an IE exists, is active, belongs to this CNPJ), which the simulator does not hold; it checks the IE\'s check digits by each state\'s algorithm and plays denials by sandbox scenario',
    nfe: ['1C17-10', '1C17-20', '1C17-30', '1C17-34', '1C17-38', '1C17-50', '5E17-10', '5E17-20', '5E17-30', '5E17-43', '5E17-46', '5E17-50', '5E17-63'],
    nfse: ['E0018', 'E0020', 'E0041', 'E0082', 'E0084', 'E0098', 'E0099', 'E0132', 'E0134', 'E0190', 'E0194', 'E0207', 'E0212', 'E0250', 'E0254', 'E0268', 'E0272', 'E0912', 'E0914', 'E0921', 'E0922', 'E0946', 'E0948'],
  },
  'simples-register': {
    why: 'needs the Simples Nacional register (who opted in, since when), which the simulator does not hold',
    nfe: [],
    nfse: ['E0160'],
  },
  'municipal-registers': {
    why: 'needs what each municipality registers with the national system (its agreement, its parameters and service-incidence table, the CNC of its taxpayers), which the simulator does not hold',
    nfe: [],
    nfse: ['E0016', 'E0023', 'E0037', 'E0038', 'E0039', 'E0116', 'E0119', 'E0120', 'E0124', 'E0176', 'E0177', 'E0178', 'E0228', 'E0229', 'E0231', 'E0232', 'E0234', 'E0287', 'E0288', 'E0289', 'E0290', 'E0822', 'E0823', 'E0824', 'E0827', 'E0050', 'E0056', 'E0058', 'E0074', 'E0310', 'E0312', 'E0314', 'E0440', 'E0441', 'E0442', 'E0446', 'E0449', 'E0454', 'E0539', 'E0540', 'E0617', 'E0619', 'E0621', 'E0625', 'E0628', 'E0631', 'E0635', 'E0640', 'E0667', 'E0670'],
  },
  'postal-register': {
    why: 'needs the Correios postal-code (CEP) register, which the simulator does not hold',
    nfe: [],
    nfse: ['E0138', 'E0240', 'E0296', 'E0380', 'E0398'],
  },
  'operation-table': {
    why: 'needs the table of cIndOp operation codes, which is not published as data the project could obtain',
    nfe: [],
    nfse: ['E0187'],
  },
  'taker-issued': {
    why: 'only for a DPS issued by the taker or the intermediary (tpEmit 2 or 3), which E9996 refuses at Sefin Nacional; the gateway sends tpEmit 1',
    nfe: [],
    nfse: ['E0122', 'E0125', 'E0129', 'E0142', 'E0222', 'E0224', 'E0236', 'E0280', 'E0284', 'E0291', 'E0320', 'E0331', 'E0420', 'E0423', 'E0425', 'E0650', 'E0652', 'E0672', 'E0673'],
  },
  'refused-earlier': {
    why: 'cannot be reached: an earlier rule the simulator enforces, or the schema, refuses every document that could break it (an empty cEAN is I03-30, 883, before the database rule 7I03-10; an issuer CPF is C02a-08, 652, before C02a-10/14/20; an NFC-e to another country is B11a-10, 707, before E17-10; the provider\'s name and address with tpEmit 1: E0121/E0128; a mandatory name; the one layout version)',
    nfe: ['7I03-10', 'C02a-10', 'C02a-14', 'C02a-20', 'E17-10'],
    nfse: ['E0113', 'E0123', 'E0130', 'E0146', 'E0233', 'E0292', 'E0854', 'E0001', 'E1825', 'E0686', 'E0692'],
  },
  'one-environment': {
    why: 'about which address the document was sent to (another state\'s, the other environment\'s): one simulator address serves every state and both environments, so there is none to differ from (E0831 checks an NFS-e event against its note); the SVC has its own (/svc-an/, /svc-rs/: B22-30, B22-60, B22-70 are enforced, and B05 at an SVC for a state it does not serve)',
    nfe: ['B24-10'],
    nfse: ['E0006', 'E1845', 'E0065'],
  },
  'events-not-sent': {
    why: 'rules of events the gateway does not send (events the municipality or the taker registers, or 101103, which the gateway can write but no route sends)',
    nfe: [],
    nfse: ['E0845', 'E0848', 'E0852', 'E0853', 'E0855', 'E0856', 'E0860', 'E0861', 'E0862', 'E0863', 'E0864', 'E0866', 'E0868', 'E0870', 'E1960', 'E1965', 'E1970', 'E1833', 'E1835'],
  },
  'events-not-held': {
    why: 'about events on the replaced note that nobody registers in the sandbox (a 101103 analysis request, the taker\'s confirmations, the tax office\'s block), so the simulator never holds one',
    nfe: [],
    nfse: ['E0068', 'E0070', 'E0072', 'E0076'],
  },
  'nbs-table': {
    why: 'needs the NBS table of Anexo B (which codes exist), which the project does not have as data',
    nfe: [],
    nfse: ['E0316'],
  },
  'no-algorithm': {
    why: 'the sheet gives no check-digit algorithm for the CIB (the real-estate register code), so an exact check cannot be written',
    nfe: [],
    nfse: ['E0373', 'E0933'],
  },
  'same-condition': {
    why: 'the same condition as another code, which answers first (the schema allows only a CEP or a foreign address, so E0384 is E0382 and E0402 is E0400; E0951 is E0950; E0429 states the 2 % minimum ISSQN that E0444 and E0447 check for a deduction by rate or by amount, and the sheet gives it no condition of its own)',
    nfe: [],
    nfse: ['E0384', 'E0402', 'E0951', 'E0429'],
  },
  'cclasstrib-flags': {
    why: 'not played yet: which regular-taxation class (cClassTribReg) fits a service (E0969, the table marks no class for it)',
    nfe: [],
    nfse: ['E0969'],
  },
  'reform-tables-data': {
    why: 'played from the cClassTrib table of the reform tables (assets/fiscal/reform): the simulator refuses a class that is not of the NFS-e or not in force on the competence (E0958) and gTribRegular against the class\'s indicator (E0964, E0965; nfse/dps-ibscbs-rules.ts checkClassTable), gDif against the CST\'s indicator ind_gDif (E0971, E0972; checkDeferral), the gateway answers E0958, E0965 and E0972 with a 422; not counted yet, as their breakers and the coverage line are still to come (docs/fiscal/nfse-reform.md). No NFS-e class of the official table asks for gTribRegular, so E0965 cannot be met with it',
    nfe: [],
    nfse: ['E0958', 'E0964', 'E0965', 'E0971', 'E0972'],
  },
  'groups-not-written': {
    why: 'about a part of valores the gateway never writes: the deduction documents (documentos/docDedRed) and a municipal tax benefit (BM)',
    nfe: [],
    nfse: ['E0455', 'E0456', 'E0458', 'E0460', 'E0462', 'E0464', 'E0466', 'E0468', 'E0470', 'E0472', 'E0474', 'E0476', 'E0477', 'E0478', 'E0482', 'E0484', 'E0488', 'E1538', 'E0490', 'E0492', 'E0494', 'E0496', 'E0498', 'E0499', 'E0439', 'E0594', 'E0612'],
  },
  'export-sheet': {
    why: 'needs Sefin\'s table of export scenarios (which combinations of place, taker and incidence make an export), which is not published as data',
    nfe: [],
    nfse: ['E0529', 'E0530', 'E0590', 'E0591'],
  },
  'sefin-apps': {
    why: 'binds only Sefin\'s own public issuing applications (web and mobile), not an API client such as the gateway',
    nfe: [],
    nfse: ['E0593'],
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
  'monophase-fuel-table': {
    why: 'needs the table of fuels subject to the monophase ICMS (Tabela de Combustíveis Sujeitos à Tributação Monofásica, Portal Nacional da NF-e, "Diversos"), which is not in the project yet: whether an ANP code must or must not carry a monophase CST (NT 2023.001)',
    nfe: ['N12-100', 'N12-110'],
    nfse: [],
  },
  'anp-product-table': {
    why: 'the official ANP product table for NF-e use (Portal Nacional da NF-e, IT 2023.001 v1.10, 1,031 codes) is not in the project: a copy was read in a public snapshot, whose content a developer may not commit (it must first be placed in shared/fiscal); assets/fiscal/anp holds a partial list, enough to fill descANP but not to refuse a code it lacks (a real code missing from it would be refused here and accepted by the authority)',
    nfe: ['LA02-10'],
    nfse: [],
  },
  'comex-unit-table': {
    why: 'the table of taxable units per NCM in foreign trade (Portal Nacional da NF-e, "Diversos", Informe Técnico 2024.001 v2.30) is not in the project: a copy was read in a public snapshot, whose content a developer may not commit (it must first be placed in shared/fiscal)',
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
    why: 'the rule calls the drawback process number or the export registration number invalid without saying by what criterion (the layout only gives their length), and the gateway writes the export detail (prod/detExport) only as the client gives it, checking the layout\'s lengths, as it does the import declaration (prod/DI)',
    nfe: ['I29a-20', 'I51-20', 'I53-10'],
    nfse: [],
  },
  'gtin-register': {
    why: 'needs the national GTIN register (GS1\'s Cadastro Centralizado de GTIN), which the simulator does not hold',
    nfe: ['9I03-10', '9I03-20', '9I03-30', '9I03-40', '9I12-10', '9I12-20', '9I12-30'],
    nfse: [],
  },
  'cannot-fire': {
    why: 'cannot be true of a document the gateway sends: every state accepts the NFC-e (B06-10), and the encoding is fixed by the SOAP envelope and HTTP before any rule reads the message (D03)',
    nfe: ['B06-10', 'D03'],
    nfse: [],
  },
  'state-lists': {
    why: 'each state keeps its own list (which states require the intermediary for which presences, the CNPJs of the tax office that issues notes with procEmi 1 or 2, which states refuse CSOSN 103 and 400), no source lists them, and the gateway never writes procEmi 1 or 2',
    nfe: ['B25b-30', 'B26-40', 'N12a-30'],
    nfse: [],
  },
  'nfe-groups-not-written': {
    why: 'about a part of the NF-e the gateway never writes: the SUFRAMA registration (ISUF), the ICMS retention on transport (retTransp, X16-10)',
    nfe: ['E18-20', 'X16-10'],
    nfse: [],
  },
  'bacen-country-table': {
    why: 'needs the BACEN table of country codes (cPais), which the project does not have as data',
    nfe: ['E14-04'],
    nfse: [],
  },
  'fcp-rate-tables': {
    why: 'needs each state\'s table of FCP rates (N23b-20 is marked "future" in the MOC), which the project does not have',
    nfe: ['N17b-20', 'N23b-20', 'N27b-20'],
    nfse: [],
  },
  'qr-version-1': {
    why: 'about the parameters of a version 1 QR code: the gateway writes version 2 or 3, and a version 1 QR code is refused first (903 after 30/09/2018; 228 for a note older than 30 days before that), so no document reaches these rules',
    nfe: ['ZX02-22', 'ZX02-24', 'ZX02-28', 'ZX02-32', 'ZX02-40', 'ZX02-44', 'ZX02-48', 'ZX02-52', 'ZX02-56', 'ZX02-60', 'ZX02-64', 'ZX02-68', 'ZX02-72', 'ZX02-76', 'ZX02-80', 'ZX02-84', 'ZX02-88', 'ZX02-92', 'ZX02-96', 'ZX02-100', 'ZX02-104', 'ZX02-108', 'ZX02-112', 'ZX02-116', 'ZX02-120'],
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
