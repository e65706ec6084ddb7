import { XMLParser } from 'fast-xml-parser';
import { mulDivRound, toScaled } from '../../src/kernel/decimal.js';

// Independent checks of a built NF-e (model 55): they re-read the XML text, not our model, and
// sum every total again from the items (MOC W03-W16), the DIFAL and IPI formulas (NA13/NA15,
// vBC x pIPI), payments (YA03/YA09) and billing (Y06/Y10).

const ARRAYS = new Set(['det', 'detPag', 'dup', 'vol', 'autXML', 'NFref']);
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ARRAYS.has(name) });
const cents = (v: unknown): number => (v === undefined ? 0 : Number(toScaled(Number(v), 2)));
const rate4 = (v: unknown): bigint => toScaled(Number(v), 4);
type Node = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// Both checks read the same note one after the other: parse it once (the tree is only read).
let lastXml: string | undefined;
let lastInf: Node | undefined;
function infOf(xml: string): Node {
  if (xml !== lastXml) {
    lastInf = (parser.parse(xml) as Node).NFe.infNFe as Node;
    lastXml = xml;
  }
  return lastInf!;
}

const icmsGroup = (det: Node): Node => Object.values(det.imposto.ICMS)[0] as Node;
const sumOf = (list: Node[] | undefined, pick: (d: Node) => unknown) => (list ?? []).reduce((acc, d) => acc + cents(pick(d)), 0);
/** value x rate (scale 4, percent), half up to cents. */
const pct = (base: number, r: bigint) => Number(mulDivRound(BigInt(base), r, 1_000_000n));

export function nfeTotalsProblems(xml: string): string[] {
  const inf = infOf(xml);
  const dets = inf.det as Node[];
  const tot = inf.total.ICMSTot as Node;
  const problems: string[] = [];
  const expect = (name: string, actual: number, wanted: number) => {
    if (actual !== wanted) problems.push(`${name}: ${actual} != ${wanted}`);
  };
  let vNF = 0;
  for (const d of dets) {
    const p = d.prod as Node;
    const n = d['@_nItem'];
    const vProd = Number(mulDivRound(toScaled(Number(p.qCom), 4), toScaled(Number(p.vUnCom), 10), 1_000_000_000_000n));
    expect(`det ${n} vProd = qCom x vUnCom`, cents(p.vProd), vProd);
    const ipi = d.imposto.IPI?.IPITrib as Node | undefined;
    if (ipi) expect(`det ${n} vIPI = vBC x pIPI`, cents(ipi.vIPI), pct(cents(ipi.vBC), rate4(ipi.pIPI)));
    const uf = d.imposto.ICMSUFDest as Node | undefined;
    if (uf) {
      // MOC NA15-10: vBCUFDest x (pICMSUFDest - pICMSInter) x pICMSInterPart (100%); NA13-10: FCP.
      expect(`det ${n} vICMSUFDest`, cents(uf.vICMSUFDest), pct(cents(uf.vBCUFDest), rate4(uf.pICMSUFDest) - rate4(uf.pICMSInter)));
      expect(`det ${n} pICMSInterPart`, Number(uf.pICMSInterPart), 100);
      if (uf.pFCPUFDest !== undefined) expect(`det ${n} vFCPUFDest`, cents(uf.vFCPUFDest), pct(cents(uf.vBCFCPUFDest), rate4(uf.pFCPUFDest)));
    }
    const g = icmsGroup(d);
    // Every item's own contribution to vNF, from the item alone (MOC W16-10; NT 2023.004: the relief
    // only when the item's indDeduzDeson is 1, docs/fiscal/icms-relief.md).
    const deducted = String(g.indDeduzDeson ?? '') === '1' ? cents(g.vICMSDeson) : 0;
    vNF += vProd - cents(p.vDesc) - deducted + cents(g.vICMSST) + cents(g.vFCPST) + cents(p.vFrete) + cents(p.vSeg) + cents(p.vOutro) + cents(ipi?.vIPI);
  }
  expect('vProd', cents(tot.vProd), sumOf(dets, (d) => d.prod.vProd));
  expect('vDesc', cents(tot.vDesc), sumOf(dets, (d) => d.prod.vDesc));
  expect('vFrete', cents(tot.vFrete), sumOf(dets, (d) => d.prod.vFrete));
  expect('vSeg', cents(tot.vSeg), sumOf(dets, (d) => d.prod.vSeg));
  expect('vOutro', cents(tot.vOutro), sumOf(dets, (d) => d.prod.vOutro));
  expect('vICMSDeson (W04a-10)', cents(tot.vICMSDeson), sumOf(dets, (d) => icmsGroup(d).vICMSDeson));
  expect('vBC', cents(tot.vBC), sumOf(dets, (d) => icmsGroup(d).vBC));
  expect('vICMS', cents(tot.vICMS), sumOf(dets, (d) => icmsGroup(d).vICMS));
  expect('vFCP', cents(tot.vFCP), sumOf(dets, (d) => icmsGroup(d).vFCP));
  expect('vBCST', cents(tot.vBCST), sumOf(dets, (d) => icmsGroup(d).vBCST));
  expect('vST', cents(tot.vST), sumOf(dets, (d) => icmsGroup(d).vICMSST));
  expect('vFCPST', cents(tot.vFCPST), sumOf(dets, (d) => icmsGroup(d).vFCPST));
  // W06b-10: FCP retained earlier (N27d, written in ICMSST); ICMSST's other values are in no total.
  expect('vFCPSTRet (W06b-10)', cents(tot.vFCPSTRet), sumOf(dets, (d) => icmsGroup(d).vFCPSTRet));
  expect('vIPI', cents(tot.vIPI), sumOf(dets, (d) => d.imposto.IPI?.IPITrib?.vIPI));
  expect('vPIS', cents(tot.vPIS), sumOf(dets, (d) => (Object.values(d.imposto.PIS ?? {})[0] as Node | undefined)?.vPIS));
  expect('vCOFINS', cents(tot.vCOFINS), sumOf(dets, (d) => (Object.values(d.imposto.COFINS ?? {})[0] as Node | undefined)?.vCOFINS));
  expect('vFCPUFDest', cents(tot.vFCPUFDest), sumOf(dets, (d) => d.imposto.ICMSUFDest?.vFCPUFDest));
  expect('vICMSUFDest', cents(tot.vICMSUFDest), sumOf(dets, (d) => d.imposto.ICMSUFDest?.vICMSUFDest));
  expect('vICMSUFRemet', cents(tot.vICMSUFRemet), sumOf(dets, (d) => d.imposto.ICMSUFDest?.vICMSUFRemet));
  expect('DIFAL totals present iff an item has ICMSUFDest', tot.vICMSUFDest === undefined ? 0 : 1, dets.some((d) => d.imposto.ICMSUFDest) ? 1 : 0);
  expect('vNF = sum of the items (W16-10)', cents(tot.vNF), vNF);
  const pag = inf.pag as Node;
  if (!pag.detPag.some((p: Node) => p.tPag === '90')) expect('sum(vPag) - vTroco = vNF (YA09-10)', sumOf(pag.detPag, (p) => p.vPag) - cents(pag.vTroco), cents(tot.vNF));
  else expect('tPag 90 alone with vPag 0 (YA03-30)', sumOf(pag.detPag, (p) => p.vPag) + (pag.detPag.length - 1), 0);
  const cobr = inf.cobr as Node | undefined;
  if (cobr) {
    expect('vLiq = vOrig - vDesc (Y06-10)', cents(cobr.fat.vLiq), cents(cobr.fat.vOrig) - cents(cobr.fat.vDesc));
    if (cobr.dup) {
      expect('sum(vDup) = vLiq (Y10-10)', sumOf(cobr.dup, (d) => d.vDup), cents(cobr.fat.vLiq));
      cobr.dup.forEach((d: Node, i: number) => expect(`dup ${i} nDup`, Number(d.nDup), i + 1));
    }
  }
  const ibs = inf.total.IBSCBSTot as Node | undefined;
  if (ibs) {
    const vIS = sumOf(dets, (d) => d.imposto.IS?.vIS);
    expect('vIBS', cents(ibs.gIBS.vIBS), sumOf(dets, (d) => d.imposto.IBSCBS?.gIBSCBS?.vIBS));
    expect('vCBS', cents(ibs.gCBS.vCBS), sumOf(dets, (d) => d.imposto.IBSCBS?.gIBSCBS?.gCBS.vCBS));
    // NT 2025.002 VB01-10 (Exceção 1: not in 2025-2026) and W60-10: vNFTot = sum(vItem) = vNF (+ vIBS + vCBS + vIS from 2027).
    const taxesIn = Number(String(inf.ide.dhEmi).slice(0, 4)) >= 2027;
    expect('vNFTot', cents(inf.total.vNFTot), cents(tot.vNF) + (taxesIn ? cents(ibs.gIBS.vIBS) + cents(ibs.gCBS.vCBS) + vIS : 0));
  }
  return problems;
}

/** ide against the parties and items: mod 55, tpImp 1, idDest from the states, CFOP scope (731-733), no infNFeSupl. */
export function nfeIdeProblems(xml: string): string[] {
  const inf = infOf(xml);
  const ide = inf.ide as Node;
  const problems: string[] = [];
  if (ide.mod !== '55') problems.push(`mod ${ide.mod}`);
  if (ide.tpImp !== '1') problems.push(`tpImp ${ide.tpImp}`);
  if (xml.includes('infNFeSupl')) problems.push('infNFeSupl in a model 55 note');
  const destUf = inf.dest.enderDest.UF;
  const wanted = destUf === 'EX' ? '3' : destUf === inf.emit.enderEmit.UF ? '1' : '2';
  if (ide.idDest !== wanted) problems.push(`idDest ${ide.idDest} but the parties make it ${wanted}`);
  for (const d of inf.det as Node[]) {
    const first = Number(String(d.prod.CFOP)[0]);
    if (String(((first - 1) % 4) + 1) !== ide.idDest) problems.push(`det ${d['@_nItem']} CFOP ${d.prod.CFOP} vs idDest ${ide.idDest}`);
    if ((first >= 5 ? '1' : '0') !== ide.tpNF) problems.push(`det ${d['@_nItem']} CFOP ${d.prod.CFOP} vs tpNF ${ide.tpNF}`);
  }
  if (['2', '3', '9'].includes(ide.indPres) !== (ide.indIntermed !== undefined)) problems.push('indIntermed against indPres (B25c)');
  if ((ide.indIntermed === '1') !== (inf.infIntermed !== undefined)) problems.push('infIntermed against indIntermed (YB01-10/20)');
  return problems;
}
