// The first page's blocks between the header and the products: destinatário/remetente,
// fatura/duplicatas, cálculo do imposto, transportador/volumes.
import { formatCep, formatDateTime, formatDecimal, formatMoney, formatPhone } from '../br-format.js';
import { MM } from '../qr-symbol.js';
import type { DanfeNfeInput } from './danfe-nfe-input.js';
import { partyDocument } from './nfe-header.js';
import { CONTENT_WIDTH, MARGIN, ROW, SECTION_HEIGHT, type Sheet } from './nfe-sheet.js';

const DUPS_PER_ROW = 8;
const DUP_H = 8 * MM;
/** Rows of duplicates the first page shows; the rest are listed after the products. */
const DUP_ROWS = 4;
const DUPS_SHOWN = DUPS_PER_ROW * DUP_ROWS;

const money = (v: string | undefined) => (v === undefined ? '' : formatMoney(v));
const date = (v: string | undefined) => (v ? formatDateTime(v).slice(0, 10) : '');
const time = (v: string | undefined) => (v ? (/T(\d\d:\d\d:\d\d)/.exec(v)?.[1] ?? '') : '');
/** "2018-12-31" -> "31/12/2018". */
const day = (v: string | undefined) => (v ? v.replace(/^(\d{4})-(\d{2})-(\d{2}).*$/, '$3/$2/$1') : '');

const FREIGHT: Record<string, string> = {
  '0': '0 - Por conta do Remetente',
  '1': '1 - Por conta do Destinatário',
  '2': '2 - Por conta de Terceiros',
  '3': '3 - Próprio por conta do Remetente',
  '4': '4 - Próprio por conta do Destinatário',
  '9': '9 - Sem Transporte',
};

export function recipientBlock(sheet: Sheet, input: DanfeNfeInput, y: number): number {
  const r = input.recipient;
  const a = r?.address;
  let at = sheet.section(y, 'DESTINATÁRIO / REMETENTE');
  const docLabel = r?.document?.kind === 'cpf' ? 'CPF' : r?.document?.kind === 'foreign' ? 'Id. estrangeiro' : 'CNPJ / CPF';
  at = sheet.fields(at, [
    [124, 'Nome / Razão social', r?.name],
    [40, docLabel, partyDocument(r), { align: 'center' }],
    [32, 'Data da emissão', date(input.issuedAt), { align: 'center' }],
  ]);
  at = sheet.fields(at, [
    [96, 'Endereço', a ? [a.street, a.number, a.complement].filter(Boolean).join(', ') : ''],
    [44, 'Bairro / Distrito', a?.district],
    [24, 'CEP', a?.cep ? formatCep(a.cep) : '', { align: 'center' }],
    [32, 'Data da saída / entrada', date(input.leftAt), { align: 'center' }],
  ]);
  return sheet.fields(at, [
    [72, 'Município', a?.city],
    [36, 'Fone / Fax', a?.phone ? formatPhone(a.phone) : ''],
    [12, 'UF', a?.uf, { align: 'center' }],
    [44, 'Inscrição estadual', r?.ie],
    [32, 'Hora da saída / entrada', time(input.leftAt), { align: 'center' }],
  ]);
}

export function billingHeight(input: DanfeNfeInput): number {
  if (!input.invoice && input.duplicates.length === 0) return 0;
  return SECTION_HEIGHT + (input.invoice ? ROW : 0) + Math.ceil(Math.min(DUPS_SHOWN, input.duplicates.length) / DUPS_PER_ROW) * DUP_H;
}

/** The duplicates beyond the first page's grid, as text for the continuation sheets. */
export function duplicatesOverflow(input: DanfeNfeInput): string | undefined {
  const rest = input.duplicates.slice(DUPS_SHOWN);
  if (rest.length === 0) return undefined;
  const list = rest.map((d) => `Nº ${d.number ?? ''} venc. ${day(d.dueDate)} R$ ${money(d.amount)}`).join('; ');
  return `DUPLICATAS (CONTINUAÇÃO DA FATURA): ${list}`;
}

export function billingBlock(sheet: Sheet, input: DanfeNfeInput, y: number): number {
  if (billingHeight(input) === 0) return y;
  let at = sheet.section(y, 'FATURA / DUPLICATAS');
  const f = input.invoice;
  if (f) {
    at = sheet.fields(at, [
      [49, 'Número da fatura', f.number],
      [49, 'Valor original', money(f.original), { align: 'right' }],
      [49, 'Valor do desconto', money(f.discount), { align: 'right' }],
      [49, 'Valor líquido', money(f.net), { align: 'right' }],
    ]);
  }
  const w = CONTENT_WIDTH / DUPS_PER_ROW;
  const shown = input.duplicates.slice(0, DUPS_SHOWN);
  shown.forEach((d, i) => {
    const x = MARGIN.x + (i % DUPS_PER_ROW) * w;
    const top = at + Math.floor(i / DUPS_PER_ROW) * DUP_H;
    sheet.box(x, top, w, DUP_H);
    const rows: Array<[string, string]> = [['Núm.', d.number ?? ''], ['Venc.', day(d.dueDate)], ['Valor', money(d.amount)]];
    rows.forEach(([label, value], line) => {
      sheet.text(label, x + 1.5, top + 2 + line * 7, { size: 5.5, width: 14 });
      sheet.text(value, x + 15, top + 1.5 + line * 7, { size: 6, width: w - 16.5, align: 'right' });
    });
  });
  return at + Math.ceil(shown.length / DUPS_PER_ROW) * DUP_H;
}

export function taxesHeight(input: DanfeNfeInput): number {
  return SECTION_HEIGHT + (input.ibsCbs ? 4 : 3) * ROW;
}

export function taxesBlock(sheet: Sheet, input: DanfeNfeInput, y: number): number {
  const t = input.totals;
  const v = (tag: string) => money(t[tag] ?? '0.00');
  const right = { align: 'right' as const };
  const sixth = CONTENT_WIDTH / MM / 6;
  let at = sheet.section(y, 'CÁLCULO DO IMPOSTO');
  at = sheet.fields(at, [
    [sixth, 'Base de cálc. do ICMS', v('vBC'), right],
    [sixth, 'Valor do ICMS', v('vICMS'), right],
    [sixth, 'Base de cálc. ICMS S.T.', v('vBCST'), right],
    [sixth, 'Valor do ICMS subst.', v('vST'), right],
    [sixth, 'V. aprox. tributos', v('vTotTrib'), right],
    [sixth, 'Valor total dos produtos', v('vProd'), { ...right, font: 'Helvetica-Bold' }],
  ]);
  at = sheet.fields(at, [
    [sixth, 'Valor do frete', v('vFrete'), right],
    [sixth, 'Valor do seguro', v('vSeg'), right],
    [sixth, 'Desconto', v('vDesc'), right],
    [sixth, 'Outras despesas', v('vOutro'), right],
    [sixth, 'Valor total do IPI', v('vIPI'), right],
    [sixth, 'Valor total da nota', v('vNF'), { ...right, font: 'Helvetica-Bold' }],
  ]);
  // The totals the DANFE shows since NT 2015.003 (DIFAL: ICMS UF remet., FCP and ICMS UF dest.) and
  // NT 2016.002 (FCP, FCP-ST), with the import tax and the ICMS relief (docs/fiscal/danfe-nfe-taxes.md).
  const seventh = CONTENT_WIDTH / MM / 7;
  at = sheet.fields(at, [
    [seventh, 'V. imp. importação', v('vII'), right],
    [seventh, 'V. ICMS UF remet.', v('vICMSUFRemet'), right],
    [seventh, 'V. FCP UF dest.', v('vFCPUFDest'), right],
    [seventh, 'V. ICMS UF dest.', v('vICMSUFDest'), right],
    [seventh, 'Valor do FCP', v('vFCP'), right],
    [seventh, 'Valor do FCP S.T.', v('vFCPST'), right],
    [seventh, 'V. ICMS desonerado', v('vICMSDeson'), right],
  ]);
  const r = input.ibsCbs;
  if (!r) return at;
  return sheet.fields(at, [
    [sixth, 'Base de cálc. IBS/CBS', money(r.base), right],
    [sixth, 'Valor do IBS UF', money(r.ibsUf ?? '0.00'), right],
    [sixth, 'Valor do IBS Mun.', money(r.ibsMun ?? '0.00'), right],
    [sixth, 'Valor total do IBS', money(r.ibs), right],
    [sixth, 'Valor total da CBS', money(r.cbs), right],
    [sixth, 'Valor total NF c/ IBS/CBS', r.totalWithIbsCbs === undefined ? '' : money(r.totalWithIbsCbs), { ...right, font: 'Helvetica-Bold' }],
  ]);
}

export const TRANSPORT_HEIGHT = SECTION_HEIGHT + 3 * ROW;

export function transportBlock(sheet: Sheet, input: DanfeNfeInput, y: number): number {
  const { carrier, volumes: vol } = input.transport;
  const a = carrier?.address;
  let at = sheet.section(y, 'TRANSPORTADOR / VOLUMES TRANSPORTADOS');
  at = sheet.fields(at, [
    [62, 'Nome / Razão social', carrier?.name],
    [40, 'Frete por conta', FREIGHT[input.transport.mode] ?? input.transport.mode],
    [22, 'Código ANTT', input.transport.antt],
    [22, 'Placa do veículo', input.transport.plate],
    [10, 'UF', input.transport.plateUf, { align: 'center' }],
    [40, 'CNPJ / CPF', partyDocument(carrier), { align: 'center' }],
  ]);
  at = sheet.fields(at, [
    [102, 'Endereço', a?.street],
    [44, 'Município', a?.city],
    [10, 'UF', a?.uf, { align: 'center' }],
    [40, 'Inscrição estadual', carrier?.ie],
  ]);
  const kg = (v: string | undefined) => (v === undefined ? '' : formatDecimal(v, 3));
  return sheet.fields(at, [
    [26, 'Quantidade', vol?.quantity, { align: 'right' }],
    [36, 'Espécie', vol?.species],
    [36, 'Marca', vol?.brand],
    [36, 'Numeração', vol?.numbering],
    [31, 'Peso bruto', kg(vol?.grossKg), { align: 'right' }],
    [31, 'Peso líquido', kg(vol?.netKg), { align: 'right' }],
  ]);
}

export function issqnHeight(input: DanfeNfeInput): number {
  return input.issqn ? SECTION_HEIGHT + ROW : 0;
}

/** "CÁLCULO DO ISSQN", above the additional data, when the note carries services (ISSQNtot). */
export function issqnBlock(sheet: Sheet, input: DanfeNfeInput, y: number): number {
  const s = input.issqn;
  if (!s) return y;
  const quarter = CONTENT_WIDTH / MM / 4;
  const at = sheet.section(y, 'CÁLCULO DO ISSQN');
  return sheet.fields(at, [
    [quarter, 'Inscrição municipal', s.municipalRegistration],
    [quarter, 'Valor total dos serviços', money(s.services), { align: 'right' }],
    [quarter, 'Base de cálculo do ISSQN', money(s.base), { align: 'right' }],
    [quarter, 'Valor do ISSQN', money(s.value), { align: 'right' }],
  ]);
}
