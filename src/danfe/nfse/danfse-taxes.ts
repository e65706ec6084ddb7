// Municipal taxation (ISSQN), federal taxes and withholdings, the totals of the NFS-e, the
// approximate taxes (Lei 12.741/2012) and, when the note carries them, IBS/CBS. Every figure is one
// the XML holds (TCValoresNFSe, TCInfoValores, TCRTCIBSCBS): nothing is computed here.
import type { NfseView } from '../../fiscal/xml/nfse/nfse-view.js';
import { MM } from '../qr-symbol.js';
import { CONTENT_WIDTH, ROW, SECTION_HEIGHT, type FieldOptions, type Sheet } from '../nfe/nfe-sheet.js';
import { money, NONE, percent, place, retIssqnText, retPisCofinsText, tribIssqnText } from './danfse-labels.js';

type Cell = [string, string, FieldOptions?];
const RIGHT: FieldOptions = { align: 'right' };
const BOLD: FieldOptions = { align: 'right', font: 'Helvetica-Bold' };

/** A row of equal fields across the page. */
function row(sheet: Sheet, y: number, cells: Cell[]): number {
  const w = CONTENT_WIDTH / MM / cells.length;
  return sheet.fields(
    y,
    cells.map(([label, value, o]) => [w, label, value, o ?? RIGHT]),
  );
}

function deduction(view: NfseView): string {
  const v = view.values;
  if (v.vDR !== undefined) return money(v.vDR);
  if (v.pDR !== undefined) return `${percent(v.pDR)}${v.vCalcDR === undefined ? '' : ` = ${money(v.vCalcDR)}`}`;
  return money(0);
}

function municipal(sheet: Sheet, view: NfseView, y: number): number {
  const v = view.values;
  let at = sheet.section(y, 'TRIBUTAÇÃO MUNICIPAL (ISSQN)');
  const benefit = v.tpBM === undefined ? NONE : `tipo ${v.tpBM}${v.vCalcBM === undefined ? '' : `: ${money(v.vCalcBM)}`}`;
  at = row(sheet, at, [
    ['Tributação do ISSQN', tribIssqnText(v.tribISSQN), {}],
    ['Município de incidência do ISSQN', view.cLocIncid ? place(view, view.cLocIncid) : NONE, {}],
    ['Retenção do ISSQN', retIssqnText(v.tpRetISSQN), {}],
    ['Benefício municipal', benefit, {}],
  ]);
  return row(sheet, at, [
    ['Valor do serviço', money(v.vServ)],
    ['Desconto incondicionado', money(v.vDescIncond)],
    ['Dedução / redução da base', deduction(view)],
    ['Base de cálculo do ISSQN', money(v.vBC)],
    ['Alíquota aplicada', percent(v.pAliqAplic ?? v.pAliq)],
    ['ISSQN apurado', money(v.vISSQN)],
  ]);
}

function federal(sheet: Sheet, view: NfseView, y: number): number {
  const v = view.values;
  const pc = v.pisCofins;
  const at = sheet.section(y, 'TRIBUTAÇÃO FEDERAL');
  return row(sheet, at, [
    ['IRRF retido', money(v.vRetIRRF)],
    ['Contribuição previdenciária retida', money(v.vRetCP)],
    ['CSLL retida', money(v.vRetCSLL)],
    ['PIS', pc ? `${percent(pc.pAliqPis)}  ${money(pc.vPis)}` : NONE],
    ['COFINS', pc ? `${percent(pc.pAliqCofins)}  ${money(pc.vCofins)}` : NONE],
    ['Retenção de PIS/COFINS', pc ? retPisCofinsText(pc.tpRetPisCofins) : NONE, { size: 6 }],
  ]);
}

function totals(sheet: Sheet, view: NfseView, y: number): number {
  const v = view.values;
  const at = sheet.section(y, 'VALOR TOTAL DA NFS-e');
  // TSTipoRetISSQN 2/3: the ISSQN is withheld by the taker or the intermediary.
  const issWithheld = v.tpRetISSQN === '1' ? 0 : (v.vISSQN ?? 0);
  return row(sheet, at, [
    ['Valor do serviço', money(v.vServ)],
    ['Desconto condicionado', money(v.vDescCond)],
    ['Desconto incondicionado', money(v.vDescIncond)],
    ['ISSQN retido', money(issWithheld)],
    ['Total das retenções', money(v.vTotalRet)],
    ['Valor líquido da NFS-e', money(v.vLiq), BOLD],
  ]);
}

function approximate(sheet: Sheet, view: NfseView, y: number): number {
  const t = view.values.totTrib;
  const at = sheet.section(y, 'TOTAIS APROXIMADOS DOS TRIBUTOS (LEI 12.741/2012)');
  if (!t) return row(sheet, at, [['Tributos aproximados', NONE, {}]]);
  if ('vTotTribFed' in t) return row(sheet, at, [['Federais', money(t.vTotTribFed)], ['Estaduais', money(t.vTotTribEst)], ['Municipais', money(t.vTotTribMun)]]);
  if ('pTotTribFed' in t) return row(sheet, at, [['Federais', percent(t.pTotTribFed)], ['Estaduais', percent(t.pTotTribEst)], ['Municipais', percent(t.pTotTribMun)]]);
  // indTotTrib 0: the provider chose not to inform them (TCTribTotal).
  if ('indTotTrib' in t) return row(sheet, at, [['Tributos aproximados', 'Não informados pelo prestador', {}]]);
  return row(sheet, at, [['Alíquota do Simples Nacional', percent(t.pTotTribSN), {}]]);
}

function ibsCbs(sheet: Sheet, view: NfseView, y: number): number {
  const g = view.ibsCbs;
  if (!g) return y;
  let at = sheet.section(y, 'IBS / CBS (REFORMA TRIBUTÁRIA)');
  at = row(sheet, at, [
    ['Localidade de incidência', `${g.xLocalidadeIncid} (${g.cLocalidadeIncid})`, {}],
    ['CST / classificação tributária', g.CST || g.cClassTrib ? `${g.CST ?? NONE} / ${g.cClassTrib ?? NONE}` : NONE, {}],
    ['Redutor', percent(g.pRedutor)],
    ['Base de cálculo IBS/CBS', money(g.vBC)],
  ]);
  at = row(sheet, at, [
    ['Alíquota IBS UF', percent(g.pIBSUF)],
    ['Alíquota efetiva IBS UF', percent(g.pAliqEfetUF)],
    ['Alíquota IBS Mun.', percent(g.pIBSMun)],
    ['Alíquota efetiva IBS Mun.', percent(g.pAliqEfetMun)],
    ['Alíquota CBS', percent(g.pCBS)],
    ['Alíquota efetiva CBS', percent(g.pAliqEfetCBS)],
  ]);
  return row(sheet, at, [
    ['Valor do IBS UF', money(g.vIBSUF)],
    ['Valor do IBS Mun.', money(g.vIBSMun)],
    ['Valor total do IBS', money(g.vIBSTot)],
    ['Valor da CBS', money(g.vCBS)],
    ['Valor total da NFS-e (IBS/CBS)', money(g.vTotNF), BOLD],
  ]);
}

export function taxesHeight(view: NfseView): number {
  return 4 * SECTION_HEIGHT + 5 * ROW + (view.ibsCbs ? SECTION_HEIGHT + 3 * ROW : 0);
}

export function drawTaxes(sheet: Sheet, view: NfseView, y: number): number {
  let at = municipal(sheet, view, y);
  at = federal(sheet, view, at);
  at = totals(sheet, view, at);
  at = approximate(sheet, view, at);
  return ibsCbs(sheet, view, at);
}
