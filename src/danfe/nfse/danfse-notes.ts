// "INFORMAÇÕES COMPLEMENTARES" at the foot of the page (the provider's xInfComp, Sefin's xOutInf,
// the substitution, versions), and the diagonal markings: homologation and cancellation.
import type { NfseView } from '../../fiscal/xml/nfse/nfse-view.js';
import { formatDateTime } from '../br-format.js';
import { diagonal } from '../nfe/nfe-additional.js';
import { CONTENT_WIDTH, MARGIN, SECTION_HEIGHT, type Sheet } from '../nfe/nfe-sheet.js';
import type { DanfseMarks } from './danfse-header.js';

const SIZE = 7;
const LINE = SIZE * 1.25;
const PAD = 4;
/** The smallest box: its title and three lines. */
export const NOTES_MIN_HEIGHT = SECTION_HEIGHT + PAD + 3 * LINE;

function paragraphs(view: NfseView): string[] {
  const d = view.dps;
  const out: string[] = [];
  if (d.serv.xInfComp) out.push(d.serv.xInfComp);
  if (view.xOutInf) out.push(view.xOutInf);
  if (d.subst) out.push(`NFS-e substituta da NFS-e de chave ${d.subst.chSubstda} (motivo ${d.subst.cMotivo}${d.subst.xMotivo ? `: ${d.subst.xMotivo}` : ''}).`);
  out.push(`Identificador da DPS: ${d.Id}. Aplicativo do emitente: ${d.verAplic}. Aplicativo gerador da NFS-e: ${view.verAplic}.`);
  return out;
}

/** The box from `y` down to `bottom`, its text cut with '…' where the page ends. */
export function drawNotes(sheet: Sheet, view: NfseView, y: number, bottom: number): void {
  const top = sheet.section(y, 'INFORMAÇÕES COMPLEMENTARES');
  sheet.box(MARGIN.x, top, CONTENT_WIDTH, bottom - top);
  const lines = sheet.wrap(paragraphs(view).join('\n'), CONTENT_WIDTH - 3, 'Helvetica', SIZE);
  const room = Math.max(1, Math.floor((bottom - top - PAD) / LINE));
  const shown = lines.slice(0, room);
  if (lines.length > room) shown[room - 1] = `${shown[room - 1]!.replace(/.{0,2}$/, '')}…`;
  shown.forEach((line, i) => sheet.text(line, MARGIN.x + 1.5, top + PAD + i * LINE, { size: SIZE }));
}

/** Drawn last: poppler reads horizontal text drawn after a rotated block as diagonal too. */
export function drawMarkings(sheet: Sheet, view: NfseView, marks: DanfseMarks): void {
  if (view.tpAmb === 2) {
    diagonal(sheet, [{ text: 'SEM VALOR FISCAL', size: 60 }, { text: 'HOMOLOGAÇÃO - NFS-e SEM VALIDADE JURÍDICA', size: 18 }], '#808080', marks.canceled ? -110 : 0);
  }
  if (marks.canceled) {
    const lines = [{ text: 'NFS-e CANCELADA', size: 64 }, ...(marks.canceledAt ? [{ text: formatDateTime(marks.canceledAt), size: 14 }] : [])];
    diagonal(sheet, lines, '#c00000', view.tpAmb === 2 ? 110 : 0);
  }
}
