// "SERVIÇO PRESTADO": the national and municipal tax codes with the descriptions Sefin wrote for them
// (xTribNac, xTribMun, xNBS), the places, and the provider's description of the service.
import type { NfseView } from '../../fiscal/xml/nfse/nfse-view.js';
import { MM } from '../qr-symbol.js';
import { CONTENT_WIDTH, LABEL_SIZE, MARGIN, ROW, SECTION_HEIGHT, type Sheet } from '../nfe/nfe-sheet.js';
import { NONE, orNone, place } from './danfse-labels.js';

const CODE_W = 36;
const TEXT_W = CONTENT_WIDTH / MM - CODE_W;
export const DESCRIPTION_SIZE = 7;
export const DESCRIPTION_LINE = DESCRIPTION_SIZE * 1.25;
const DESCRIPTION_PAD = 9;

/** "010101" -> "01.01.01" (item, sub-item, detail of LC 116; docs/fiscal/nfse-national.md#dps / TSCodTribNac). */
const taxCode = (c: string) => (/^\d{6}$/.test(c) ? `${c.slice(0, 2)}.${c.slice(2, 4)}.${c.slice(4)}` : c);

/** Height of the block without the description's lines. */
export const SERVICE_FIXED_HEIGHT = SECTION_HEIGHT + 4 * ROW + DESCRIPTION_PAD;

export function descriptionLines(sheet: Sheet, view: NfseView): string[] {
  return sheet.wrap(view.dps.serv.xDescServ, CONTENT_WIDTH - 3, 'Helvetica', DESCRIPTION_SIZE);
}

/** Draws the block with at most `maxLines` lines of description (the last one cut with '…'). */
export function drawService(sheet: Sheet, view: NfseView, y: number, lines: string[], maxLines: number): number {
  const s = view.dps.serv;
  let at = sheet.section(y, 'SERVIÇO PRESTADO');
  at = sheet.fields(at, [
    [CODE_W, 'Código de tributação nacional', taxCode(s.cTribNac)],
    [TEXT_W, 'Descrição do código de tributação nacional', view.xTribNac],
  ]);
  at = sheet.fields(at, [
    [CODE_W, 'Código de tributação municipal', orNone(s.cTribMun)],
    [TEXT_W, 'Descrição do código de tributação municipal', orNone(view.xTribMun)],
  ]);
  at = sheet.fields(at, [
    [CODE_W, 'Código NBS', orNone(s.cNBS)],
    [TEXT_W, 'Descrição do código NBS', orNone(view.xNBS)],
  ]);
  const where = s.cLocPrestacao ? place(view, s.cLocPrestacao) : s.cPaisPrestacao ? `Exterior - país ${s.cPaisPrestacao}` : NONE;
  at = sheet.fields(at, [
    [78, 'Local da prestação', where],
    [78, 'Município de incidência do ISSQN', view.cLocIncid ? place(view, view.cLocIncid) : NONE],
    [40, 'Código interno do contribuinte', orNone(s.cIntContrib)],
  ]);
  const shown = lines.slice(0, Math.max(1, maxLines));
  if (lines.length > shown.length) shown[shown.length - 1] = `${shown[shown.length - 1]!.replace(/.{0,2}$/, '')}…`;
  const h = DESCRIPTION_PAD + shown.length * DESCRIPTION_LINE;
  sheet.box(MARGIN.x, at, CONTENT_WIDTH, h);
  sheet.text('DESCRIÇÃO DO SERVIÇO', MARGIN.x + 1.5, at + 1.2, { size: LABEL_SIZE });
  shown.forEach((line, i) => sheet.text(line, MARGIN.x + 1.5, at + DESCRIPTION_PAD - 1 + i * DESCRIPTION_LINE, { size: DESCRIPTION_SIZE }));
  return at + h;
}
