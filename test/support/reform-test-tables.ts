import type { ClassificationFacts, CstIndicators, PresumedCreditFacts, ReformTablesView } from '../../src/authority-sim/reform-tables-view.js';

// A stand-in for the official CST and cClassTrib tables (fiscal/reform) in the simulator's reform-rule tests,
// holding only the rows the tests use, with the indicators NT 2025.002-RTC and the classification table give
// them: 000 full taxation (gIBSCBS), 200 reduced rate (gIBSCBS + gRed; 200030, Anexo IV medical devices, 60%),
// 410 immunity (no gIBSCBS; 410004 exports, NF-e only), 510 deferral (gIBSCBS + gDif), 620 monophase
// (gIBSCBSMono), 800 credit transfer (gTransfCred). 410999 is fictitious: a code barred from both models, to
// break UB14-25; 000990 is fictitious too: a classification of regular taxation (ind_gTribRegular 1), for UB68.
// 000003 (automotive regime, art. 311) permits gCredPresOper (ind_gCredPresOper 1), 000001 does not. cCredPres
// rows as the table of 12/12/2025 gives them (presumed-credit.json): 01 (art. 168) and 04 (art. 171) credit both
// taxes, 05 (art. 311) the CBS only, 07 (art. 444) the IBS only.

const cst = (over: Partial<CstIndicators>): CstIndicators => ({ gIBSCBS: true, gRed: false, gDif: false, gIBSCBSMono: false, gTransfCred: false, ...over });
const cls = (code: string, over: Partial<ClassificationFacts> = {}): ClassificationFacts => ({ cst: code.slice(0, 3), nfe: true, nfce: true, pRedIBS: 0, pRedCBS: 0, tribRegular: false, credPresOper: false, ...over });

const CSTS = new Map<string, CstIndicators>([
  ['000', cst({})],
  ['200', cst({ gRed: true })],
  ['410', cst({ gIBSCBS: false })],
  ['510', cst({ gDif: true })],
  ['620', cst({ gIBSCBS: false, gIBSCBSMono: true })],
  ['800', cst({ gIBSCBS: false, gTransfCred: true })],
]);
const CLASSES = new Map<string, ClassificationFacts>([
  ['000001', cls('000001')],
  ['200030', cls('200030', { pRedIBS: 60, pRedCBS: 60 })],
  ['410004', cls('410004', { nfce: false })],
  ['410999', cls('410999', { nfe: false, nfce: false })],
  ['000990', cls('000990', { cst: '000', tribRegular: true })],
  ['510001', cls('510001')],
  ['620001', cls('620001')],
  ['800001', cls('800001')],
  ['800002', cls('800002')],
  ['000003', cls('000003', { nfce: false, credPresOper: true })],
]);
const CREDITS = new Map<string, PresumedCreditFacts>([
  ['01', { ibs: true, cbs: true }],
  ['04', { ibs: true, cbs: true }],
  ['05', { ibs: false, cbs: true }],
  ['07', { ibs: true, cbs: false }],
]);

export const TEST_TABLES: ReformTablesView = { cst: (c) => CSTS.get(c), classification: (c) => CLASSES.get(c), presumedCredit: (c) => CREDITS.get(c) };
