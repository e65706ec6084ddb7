// The top of the DANFE NF-e: the canhoto (receipt stub, first page only) and the header block every
// page repeats: issuer, "DANFE" title with entrada/saída, number, series and sheet, the access key
// as a Code-128C barcode and in 11 groups of four, natureza da operação, protocol, IE and CNPJ.
import { formatAccessKey, formatCep, formatCnpj, formatCpf, formatDateTime, formatMoney, formatNoteNumber, formatPhone, formatSeries } from '../br-format.js';
import { addressLine } from '../danfe-header.js';
import type { DanfeAddress } from '../danfe-input.js';
import type { LogoDrawer } from '../pdf-logo.js';
import { MM } from '../qr-symbol.js';
import { code128c } from './code128.js';
import type { DanfeNfeInput, DanfeNfeParty } from './danfe-nfe-input.js';
import { CONTENT_WIDTH, MARGIN, type Sheet } from './nfe-sheet.js';

export const STUB_HEIGHT = 22 * MM;
const NOTICE_HEIGHT = 5 * MM;
const TOP = 34 * MM;
const ISSUER_W = 82 * MM;
const TITLE_W = 34 * MM;
const KEY_W = CONTENT_WIDTH - ISSUER_W - TITLE_W;
/** Code 128 quiet zone: 10 modules each side. */
const QUIET = 10;

/** Where the header writes "FOLHA x/y": filled once the number of sheets is known. */
export interface SheetLabel {
  x: number;
  y: number;
  width: number;
}


export function partyDocument(p: Pick<DanfeNfeParty, 'document'> | undefined): string {
  const d = p?.document;
  if (!d) return '';
  return d.kind === 'cnpj' ? formatCnpj(d.id) : d.kind === 'cpf' ? formatCpf(d.id) : d.id;
}

export function issuerDocument(input: DanfeNfeInput): string {
  const { cnpj, cpf } = input.issuer;
  return cnpj ? formatCnpj(cnpj) : cpf ? formatCpf(cpf) : '';
}

/** Canhoto: the recipient signs and dates this strip and returns it to the issuer. */
export function drawStub(sheet: Sheet, input: DanfeNfeInput, y: number): number {
  const x = MARGIN.x;
  const wide = 160 * MM;
  const right = CONTENT_WIDTH - wide;
  const top = 10 * MM;
  const bottom = 8 * MM;
  sheet.box(x, y, wide, top);
  const receipt = `RECEBEMOS DE ${input.issuer.name} OS PRODUTOS/SERVIÇOS CONSTANTES DA NOTA FISCAL INDICADA AO LADO`;
  const recipient = input.recipient ? ` DESTINATÁRIO: ${input.recipient.name}${input.recipient.address ? ` - ${addressLine(input.recipient.address)}` : ''}` : '';
  const summary = `EMISSÃO: ${formatDateTime(input.issuedAt).slice(0, 10)} VALOR TOTAL: R$ ${formatMoney(input.totals['vNF'] ?? '0')}${recipient}`;
  const lines = sheet.wrap(receipt, wide - 3, 'Helvetica', 6, 2);
  lines.forEach((line, i) => sheet.text(line, x + 1.5, y + 2 + i * 7, { size: 6 }));
  sheet.text(summary, x + 1.5, y + 2 + lines.length * 7, { size: 6, width: wide - 3 });
  sheet.field(x, y + top, 40 * MM, bottom, 'Data de recebimento', undefined);
  sheet.field(x + 40 * MM, y + top, wide - 40 * MM, bottom, 'Identificação e assinatura do recebedor', undefined);
  sheet.box(x + wide, y, right, top + bottom);
  const cx = x + wide;
  sheet.text('NF-e', cx, y + 3 * MM, { font: 'Helvetica-Bold', size: 12, width: right, align: 'center' });
  sheet.text(`Nº ${formatNoteNumber(input.number)}`, cx, y + 9 * MM, { font: 'Helvetica-Bold', size: 8.5, width: right, align: 'center' });
  sheet.text(`SÉRIE ${formatSeries(input.series)}`, cx, y + 13 * MM, { font: 'Helvetica-Bold', size: 8.5, width: right, align: 'center' });
  const cut = y + top + bottom + 2 * MM;
  sheet.doc.lineWidth(0.5).strokeColor('#000000').dash(3, { space: 2 }).moveTo(x, cut).lineTo(x + CONTENT_WIDTH, cut).stroke().undash();
  return y + STUB_HEIGHT;
}

function issuerAddressLines(a: DanfeAddress): string[] {
  const street = [a.street, a.number, a.complement].filter(Boolean).join(', ');
  const place = [a.district, a.cep ? `CEP ${formatCep(a.cep)}` : ''].filter(Boolean).join(' - ');
  const city = [a.city, a.uf].filter(Boolean).join(' - ');
  return [street, place, city, a.phone ? `Fone: ${formatPhone(a.phone)}` : ''].filter(Boolean);
}

function drawIssuer(sheet: Sheet, input: DanfeNfeInput, y: number, logo: LogoDrawer | undefined): void {
  const x = MARGIN.x;
  sheet.field(x, y, ISSUER_W, TOP, 'Identificação do emitente', undefined);
  let textX = x + 2;
  let textW = ISSUER_W - 4;
  if (logo) {
    const side = 24 * MM;
    logo(x + 2 * MM, y + (TOP - side) / 2 + 1.5, side, side);
    textX = x + side + 4 * MM;
    textW = ISSUER_W - side - 5 * MM;
  }
  const align = logo ? 'left' : 'center';
  const name = sheet.wrap(input.issuer.name, textW, 'Helvetica-Bold', 9.5, 3);
  const address = issuerAddressLines(input.issuer.address).flatMap((l) => sheet.wrap(l, textW, 'Helvetica', 7, 2));
  const height = name.length * 11 + address.length * 8.5;
  let at = y + 3 + Math.max(4, (TOP - 3 - height) / 2);
  for (const line of name) {
    sheet.text(line, textX, at, { font: 'Helvetica-Bold', size: 9.5, width: textW, align, color: sheet.accent });
    at += 11;
  }
  for (const line of address) {
    sheet.text(line, textX, at, { size: 7, width: textW, align });
    at += 8.5;
  }
}

function drawTitle(sheet: Sheet, input: DanfeNfeInput, y: number): SheetLabel {
  const x = MARGIN.x + ISSUER_W;
  const w = TITLE_W;
  const o = { width: w, align: 'center' as const };
  sheet.box(x, y, w, TOP);
  sheet.text('DANFE', x, y + 2 * MM, { ...o, font: 'Helvetica-Bold', size: 14, color: sheet.accent });
  sheet.text('Documento Auxiliar da', x, y + 8 * MM, { ...o, size: 6.5 });
  sheet.text('Nota Fiscal Eletrônica', x, y + 10.8 * MM, { ...o, size: 6.5 });
  sheet.text('0 - ENTRADA', x + 3 * MM, y + 14.5 * MM, { size: 6.5 });
  sheet.text('1 - SAÍDA', x + 3 * MM, y + 17.3 * MM, { size: 6.5 });
  const tick = { x: x + w - 10 * MM, y: y + 14.3 * MM, s: 5.5 * MM };
  sheet.box(tick.x, tick.y, tick.s, tick.s);
  sheet.text(input.tpNF, tick.x, tick.y + 3.5, { font: 'Helvetica-Bold', size: 11, width: tick.s, align: 'center' });
  sheet.text(`Nº ${formatNoteNumber(input.number)}`, x, y + 22 * MM, { ...o, font: 'Helvetica-Bold', size: 8.5 });
  sheet.text(`SÉRIE ${formatSeries(input.series)}`, x, y + 25.5 * MM, { ...o, font: 'Helvetica-Bold', size: 8.5 });
  return { x, y: y + 29.5 * MM, width: w };
}

function drawKey(sheet: Sheet, input: DanfeNfeInput, y: number): void {
  const x = MARGIN.x + ISSUER_W + TITLE_W;
  const barsH = 13 * MM;
  sheet.box(x, y, KEY_W, barsH);
  const symbol = code128c(input.accessKey);
  const module = (KEY_W - 2 * MM) / (symbol.modules + 2 * QUIET);
  sheet.bars(symbol.widths, x + 1 * MM + QUIET * module, y + 1.5 * MM, module, barsH - 3 * MM);
  sheet.field(x, y + barsH, KEY_W, 8 * MM, 'Chave de acesso', formatAccessKey(input.accessKey), { font: 'Helvetica-Bold', size: 8, align: 'center' });
  const consultY = y + barsH + 8 * MM;
  sheet.box(x, consultY, KEY_W, TOP - barsH - 8 * MM);
  const consult = 'Consulta de autenticidade no portal nacional da NF-e www.nfe.fazenda.gov.br/portal ou no site da Sefaz Autorizadora';
  sheet.wrap(consult, KEY_W - 4 * MM, 'Helvetica', 7.5, 3).forEach((line, i) => {
    sheet.text(line, x, consultY + 2.5 * MM + i * 9.5, { size: 7.5, width: KEY_W, align: 'center' });
  });
}

/** The header block; returns where the sheet label goes and the y below the block. */
export function drawHeader(sheet: Sheet, input: DanfeNfeInput, y: number, logo?: LogoDrawer): { label: SheetLabel; bottom: number } {
  drawIssuer(sheet, input, y, logo);
  const label = drawTitle(sheet, input, y);
  drawKey(sheet, input, y);
  const auth = input.authorization;
  let at = sheet.fields(y + TOP, [
    [ISSUER_W / MM + TITLE_W / MM, 'Natureza da operação', input.natOp],
    // NT 2014.001 3.1a C: before the authorization, the EPEC's protocol takes its place.
    [KEY_W / MM, input.epec ? 'Protocolo do EPEC' : 'Protocolo de autorização de uso', `${auth.protocol} - ${formatDateTime(auth.receivedAt)}`, { align: 'center' }],
  ]);
  const third = CONTENT_WIDTH / MM / 3;
  at = sheet.fields(at, [
    [third, 'Inscrição estadual', input.issuer.ie],
    [third, 'Inscrição estadual do subst. tributário', input.issuer.ieSt],
    [third, input.issuer.cnpj || !input.issuer.cpf ? 'CNPJ' : 'CPF', issuerDocument(input)],
  ]);
  return { label, bottom: noticeBand(sheet, input, at) };
}

/** Homologation and cancellation in words under the header of every sheet (the watermark is drawn apart). */
function noticeBand(sheet: Sheet, input: DanfeNfeInput, y: number): number {
  const notices: Array<{ text: string; color: string }> = [];
  const c = input.cancellation;
  if (c) {
    const detail = [c.protocol ? `Protocolo de cancelamento: ${c.protocol}` : '', c.at ? formatDateTime(c.at) : ''].filter(Boolean).join(' - ');
    notices.push({ text: `NF-e CANCELADA${detail ? ` - ${detail}` : ''}`, color: '#c00000' });
  }
  // NT 2014.001 3.1: the expression the DANFE of an EPEC carries, in the NT's words (docs/fiscal/epec.md#the-danfe).
  if (input.epec) notices.push({ text: 'DANFE impresso em contingência - DPEC regularmente recebida pela Receita Federal do Brasil', color: '#000000' });
  if (input.tpAmb === 2) notices.push({ text: 'NF-e EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL', color: '#000000' });
  for (const n of notices) {
    sheet.box(MARGIN.x, y, CONTENT_WIDTH, NOTICE_HEIGHT);
    sheet.text(n.text, MARGIN.x, y + 3, { font: 'Helvetica-Bold', size: 8.5, width: CONTENT_WIDTH, align: 'center', color: n.color });
    y += NOTICE_HEIGHT;
  }
  return y;
}
