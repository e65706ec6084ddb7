import { municipality } from '../../../fiscal/layout/ibge.js';

// The ide values of an NFC-e a point of sale wrote itself (the XML form of POST /v1/nfce/offline)
// that the authority refuses, MOC 7.0 Anexo I group B: the gateway writes these right in its own
// notes (fiscal/xml/nfe/ide.ts), a point of sale may not. Each problem names the XML field and the rule.

/** The ide leaves read here, as written (null: absent). */
export interface OfflineIdeValues {
  cUF: string;
  tpNF: string | null;
  idDest: string | null;
  cMunFG: string | null;
  tpImp: string | null;
  finNFe: string | null;
  indFinal: string | null;
  indPres: string | null;
  indIntermed: string | null;
  procEmi: string | null;
  dhSaiEnt: string | null;
}

export const OFFLINE_IDE_LEAVES = ['tpNF', 'idDest', 'cMunFG', 'tpImp', 'finNFe', 'indFinal', 'indPres', 'indIntermed', 'procEmi', 'dhSaiEnt'] as const;
export type OfflineIdeLeaf = (typeof OFFLINE_IDE_LEAVES)[number];

export interface OfflineIdeProblem {
  leaf: OfflineIdeLeaf;
  message: string;
  rule: string;
}

/** Every problem of the ide values, in the order of the MOC rules. */
export function offlineIdeProblems(v: OfflineIdeValues): OfflineIdeProblem[] {
  const out: OfflineIdeProblem[] = [];
  const add = (leaf: OfflineIdeLeaf, rule: string, message: string) => out.push({ leaf, rule, message });
  if (v.dhSaiEnt !== null) add('dhSaiEnt', 'B10-10', 'must be left out: an NFC-e has no date of exit or entry (MOC B10-10, 705)');
  if (v.tpNF !== '1') add('tpNF', 'B11-10', `is ${v.tpNF ?? '(none)'}; an NFC-e is an outbound note, tpNF 1 (MOC B11-10, 706)`);
  if (v.idDest !== '1') add('idDest', 'B11a-10', `is ${v.idDest ?? '(none)'}; an NFC-e is an internal operation, idDest 1 (MOC B11a-10, 707)`);
  const cMunFG = v.cMunFG ?? '';
  if (!municipality(cMunFG)) add('cMunFG', 'B12-10', `${cMunFG || '(none)'} is not an IBGE municipality code (MOC B12-10, 270)`);
  else if (cMunFG.slice(0, 2) !== v.cUF) add('cMunFG', 'B12-20', `${cMunFG} is not a municipality of the issuer's state (cUF ${v.cUF}) (MOC B12-20, 271)`);
  if (v.tpImp !== '4' && v.tpImp !== '5') add('tpImp', 'B21-10', `is ${v.tpImp ?? '(none)'}; an NFC-e DANFE is tpImp 4 (or 5, electronic message) (MOC B21-10, 709)`);
  if (v.finNFe !== '1') add('finNFe', 'B25-20', `is ${v.finNFe ?? '(none)'}; an NFC-e is a normal note, finNFe 1 (MOC B25-20, 715)`);
  if (v.indFinal !== '1') add('indFinal', 'B25a-10', `is ${v.indFinal ?? '(none)'}; an NFC-e is a sale to the final consumer, indFinal 1 (MOC B25a-10, 716)`);
  if (v.indPres !== '1' && v.indPres !== '4') add('indPres', 'B25b-20', `is ${v.indPres ?? '(none)'}; an NFC-e is presential (1) or a home delivery (4) (MOC B25b-20, 717)`);
  else if (v.indPres === '4' && v.indIntermed === null) add('indIntermed', 'B25c-10', 'is required with indPres 4 (0: own channel, 1: a marketplace) (MOC B25c-10, 434)');
  else if (v.indPres === '1' && v.indIntermed !== null) add('indIntermed', 'B25c-20', 'must be left out with indPres 1 (MOC B25c-20, 435)');
  if (v.procEmi !== '0' && v.procEmi !== '3') add('procEmi', 'B26-20', `is ${v.procEmi ?? '(none)'}; a point of sale issues with the taxpayer's application, procEmi 0 (MOC B26-20, 451)`);
  return out;
}
