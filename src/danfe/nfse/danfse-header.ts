// The top of the DANFSe: title band (logo, "DANFSe - Documento Auxiliar da NFS-e", municipality and
// environment), then the identification of the NFS-e and of its DPS beside the QR code of the public
// consultation. Blocks after the national DANFSe (ADN's PDF until 03/08/2026 and "DANFSe v2.0" of
// NT 008/2026 as open implementations describe it: the NT's text is not among our sources, docs/fiscal/nfse-national.md#danfse).
import type { NfseView } from '../../fiscal/xml/nfse/nfse-view.js';
import { formatAccessKey, formatDateTime } from '../br-format.js';
import { MM, QR_QUIET_MODULES, qrSymbol } from '../qr-symbol.js';
import type { LogoDrawer } from '../pdf-logo.js';
import { CONTENT_WIDTH, MARGIN, type Sheet } from '../nfe/nfe-sheet.js';
import { consultationUrl, day, environmentText, generatorText, statusText } from './danfse-labels.js';

const TITLE_H = 20 * MM;
const SIDE_W = 42;
const QR_W = 46;
const IDENT_W = CONTENT_WIDTH / MM - QR_W;
/** NT 008/2026 §2.4.3 (as quoted by open implementations): the symbol at least 1.52 cm a side; ours is larger. */
const QR_SIDE_MM = 21;

export interface DanfseMarks {
  canceled: boolean;
  canceledAt?: string;
}

/** Words printed in the title band; the diagonal watermark repeats them (danfse-notes.ts). */
function notices(view: NfseView, marks: DanfseMarks): Array<{ text: string; color: string }> {
  const out: Array<{ text: string; color: string }> = [];
  if (marks.canceled) out.push({ text: `NFS-e CANCELADA${marks.canceledAt ? ` EM ${formatDateTime(marks.canceledAt)}` : ''}`, color: '#c00000' });
  if (view.tpAmb === 2) out.push({ text: 'SEM VALOR FISCAL / HOMOLOGAÇÃO - NFS-e SEM VALIDADE JURÍDICA', color: '#000000' });
  return out;
}

function titleBand(sheet: Sheet, view: NfseView, y: number, marks: DanfseMarks, logo: LogoDrawer | undefined): number {
  const x0 = MARGIN.x;
  const titleW = CONTENT_WIDTH - 2 * SIDE_W * MM;
  const xRight = x0 + SIDE_W * MM + titleW;
  sheet.box(x0, y, SIDE_W * MM, TITLE_H);
  sheet.box(x0 + SIDE_W * MM, y, titleW, TITLE_H);
  sheet.box(xRight, y, SIDE_W * MM, TITLE_H);
  if (logo) logo(x0 + 1.5 * MM, y + 1.5 * MM, SIDE_W * MM - 3 * MM, TITLE_H - 3 * MM);
  else sheet.wrap(view.emit.xFant ?? view.emit.xNome, SIDE_W * MM - 4, 'Helvetica-Bold', 8, 4).forEach((line, i) => sheet.text(line, x0 + 2, y + 4 + i * 10, { font: 'Helvetica-Bold', size: 8 }));
  const tx = x0 + SIDE_W * MM;
  sheet.text('DANFSe - Documento Auxiliar da NFS-e', tx, y + 3 * MM, { font: 'Helvetica-Bold', size: 12, width: titleW, align: 'center' });
  sheet.text('Nota Fiscal de Serviço Eletrônica - Padrão Nacional (DANFSe v2.0)', tx, y + 8 * MM, { size: 7, width: titleW, align: 'center' });
  notices(view, marks).forEach((n, i) => sheet.text(n.text, tx + 2, y + 12 * MM + i * 3.4 * MM, { font: 'Helvetica-Bold', size: 8, width: titleW - 4, align: 'center', color: n.color }));
  const rows: Array<[string, string]> = [
    ['Município emissor', view.xLocEmi],
    ['Ambiente gerador', generatorText(view.ambGer)],
    ['Tipo de ambiente', environmentText(view.tpAmb)],
  ];
  rows.forEach(([label, value], i) => {
    sheet.text(label.toUpperCase(), xRight + 1.5, y + 2 + i * 6.3 * MM, { size: 5, width: SIDE_W * MM - 3 });
    sheet.text(value, xRight + 1.5, y + 2 + i * 6.3 * MM + 7, { size: 7, width: SIDE_W * MM - 3 });
  });
  return y + TITLE_H;
}

function qrBox(sheet: Sheet, url: string, x: number, y: number, h: number): void {
  const { doc } = sheet;
  sheet.box(x, y, QR_W * MM, h);
  const symbol = qrSymbol(url);
  const module = (QR_SIDE_MM * MM) / symbol.size;
  const side = symbol.size * module;
  const left = x + (QR_W * MM - side) / 2;
  // The quiet zone (4 modules, ISO/IEC 18004) stays inside the box's white interior.
  const top = y + Math.max(QR_QUIET_MODULES * module, 1.5 * MM);
  for (const [row, col, len] of symbol.runs) doc.rect(left + col * module, top + row * module, len * module, module);
  doc.fillColor('#000000').fill();
  sheet.text('Consulte a autenticidade pelo QR code', x, top + side + 1.2 * MM, { size: 5.5, width: QR_W * MM, align: 'center' });
}

/** Title band and identification block; returns the y below them. */
export function drawHeader(sheet: Sheet, view: NfseView, y: number, marks: DanfseMarks, logo?: LogoDrawer): number {
  const top = titleBand(sheet, view, y, marks, logo);
  const d = view.dps;
  const third = IDENT_W / 3;
  const url = consultationUrl(view.accessKey);
  let at = sheet.fields(top, [[IDENT_W, 'Chave de acesso da NFS-e', formatAccessKey(view.accessKey), { font: 'Helvetica-Bold', size: 9, align: 'center' }]]);
  at = sheet.fields(at, [
    [third / 2, 'Número da NFS-e', view.nNFSe, { font: 'Helvetica-Bold' }],
    [third / 2, 'Competência', day(d.dCompet)],
    [third, 'Data e hora da emissão da NFS-e', formatDateTime(view.dhProc)],
    [third, 'Situação da NFS-e', statusText(view.cStat)],
  ]);
  at = sheet.fields(at, [
    [third / 2, 'Número da DPS', d.nDPS],
    [third / 2, 'Série da DPS', d.serie],
    [third, 'Data e hora da emissão da DPS', formatDateTime(d.dhEmi)],
    [third, 'Número do DFS-e (ADN)', view.nDFSe],
  ]);
  at = sheet.fields(at, [[IDENT_W, 'Consulta pública da NFS-e (endereço do QR code)', url, { size: 7 }]]);
  qrBox(sheet, url, MARGIN.x + IDENT_W * MM, top, at - top);
  return at;
}
