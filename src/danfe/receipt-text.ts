// The DANFE NFC-e as lines of character columns: what the ESC/POS stream (escpos/) and the HTML page
// (html/) print, in the order and with the words of the PDF (divisions I-IX of the Manual, docs/fiscal/danfe-nfce.md),
// from the same DanfeInput (danfe-input-from-xml.ts), so the three forms say the same thing.
import { formatAccessKey, formatCents, formatCnpj, formatCpf, formatDateTime, formatDecimal, formatMoney, formatNoteNumber, formatPhone, formatSeries, toCents } from './br-format.js';
import { pairLines, wrapText, wrapUrl, type Columns } from './column-text.js';
import { consumerLine } from './danfe-footer.js';
import { addressLine } from './danfe-header.js';
import { CONTINGENCY_COPY_LABELS } from './danfe-context.js';
import { assertPrintable, epecNfceMarks, type DanfeInput } from './danfe-input.js';
import { changeCents } from './danfe-totals.js';
import { paymentName } from './payment-names.js';

export type ReceiptAlign = 'left' | 'center';

export type ReceiptBlock =
  /** Lines already wrapped to the columns; `large`: double height (same columns). */
  | { kind: 'text'; lines: string[]; align: ReceiptAlign; bold?: boolean; large?: boolean }
  | { kind: 'rule' }
  /** The QR code of infNFeSupl/qrCode, encoded exactly. */
  | { kind: 'qr'; payload: string };

/** One printed copy: its blocks, and which copy it is when the note prints more than one. */
export interface ReceiptCopy {
  label?: string;
  blocks: ReceiptBlock[];
}

/** Text as the output can print it, one character per column (a code page's fallbacks may be longer). */
export type Printable = (text: string) => string;

class Lines {
  readonly blocks: ReceiptBlock[] = [];
  constructor(
    readonly width: Columns,
    private readonly printable: Printable,
  ) {}

  private push(lines: string[], align: ReceiptAlign, opts: { bold?: boolean; large?: boolean }): this {
    this.blocks.push({ kind: 'text', lines, align, ...flags(opts) });
    return this;
  }

  text(text: string, opts: { align?: ReceiptAlign; bold?: boolean; large?: boolean } = {}): this {
    if (!text.trim()) return this;
    return this.push(wrapText(this.printable(text), this.width), opts.align ?? 'center', opts);
  }

  url(url: string): this {
    return this.push(wrapUrl(this.printable(url), this.width), 'center', {});
  }

  pair(label: string, value: string, opts: { bold?: boolean; large?: boolean } = {}): this {
    return this.push(pairLines(this.printable(label), this.printable(value), this.width), 'left', opts);
  }

  rule(): this {
    this.blocks.push({ kind: 'rule' });
    return this;
  }
}

function flags(opts: { bold?: boolean; large?: boolean }): { bold?: true; large?: true } {
  return { ...(opts.bold ? { bold: true as const } : {}), ...(opts.large ? { large: true as const } : {}) };
}

/** Division I and the notices read first: cancellation, homologation; division II with contingency. */
function header(out: Lines, input: DanfeInput, label: string | undefined): void {
  const { issuer } = input;
  out.text(issuer.name, { bold: true });
  if (issuer.tradeName && issuer.tradeName.trim().toUpperCase() !== issuer.name.trim().toUpperCase()) out.text(issuer.tradeName);
  out.text(issuer.cnpj ? `CNPJ: ${formatCnpj(issuer.cnpj)}` : issuer.cpf ? `CPF: ${formatCpf(issuer.cpf)}` : '');
  out.text(issuer.ie ? `IE: ${issuer.ie}` : '');
  out.text(addressLine(issuer.address));
  if (issuer.address.phone) out.text(`Fone: ${formatPhone(issuer.address.phone)}`);
  if (input.cancellation) {
    const c = input.cancellation;
    out.rule().text('NFC-e CANCELADA', { bold: true, large: true });
    out.text([c.protocol ? `Protocolo de cancelamento: ${c.protocol}` : '', c.at ? formatDateTime(c.at) : ''].filter(Boolean).join(' - '));
  }
  // docs/fiscal/danfe-nfce.md: the homologation DANFE says it has no fiscal value.
  if (input.tpAmb === 2) out.rule().text('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL', { bold: true });
  out.rule().text('Documento Auxiliar da Nota Fiscal de Consumidor Eletrônica', { bold: true });
  out.text('Não permite aproveitamento de crédito de ICMS');
  if (input.tpEmis === 9) {
    // docs/fiscal/offline-contingency.md: "EMITIDA EM CONTINGÊNCIA"; before authorization also "Pendente de autorização" (sped-da).
    out.text('EMITIDA EM CONTINGÊNCIA', { bold: true, large: true });
    if (!input.authorization) out.text('Pendente de autorização', { bold: true });
  }
  const epec = epecNfceMarks(input, formatDateTime);
  if (epec) {
    const [mark, ...rest] = epec;
    out.text(mark!, { bold: true });
    for (const line of rest) out.text(line);
  }
  if (label) out.text(label, { bold: true });
}

/** Division III: code and description, then "qty UN x unit price" and the item total flush right. */
function items(out: Lines, input: DanfeInput): void {
  out.rule().text('Código Descrição', { align: 'left', bold: true }).pair('Qtde UN x Vl Unit', 'Vl Total', { bold: true });
  for (const item of input.items) {
    out.text(`${item.code} ${item.description}`, { align: 'left' });
    out.pair(`  ${formatDecimal(item.quantity, 0)} ${item.unit} x ${formatDecimal(item.unitPrice, 2)}`, formatMoney(item.total));
    if (item.discount && toCents(item.discount) > 0) out.pair('  Desconto no item', `-${formatMoney(item.discount)}`);
    if (item.additions && toCents(item.additions) > 0) out.pair('  Acréscimo no item', formatMoney(item.additions));
  }
}

/** Division IV: totals, payments and the change (troco). */
function totals(out: Lines, input: DanfeInput): void {
  const t = input.totals;
  out.rule().pair('Qtde. total de itens', String(input.items.length)).pair('Valor total R$', formatMoney(t.products));
  if (toCents(t.discount) > 0) out.pair('Descontos R$', `-${formatMoney(t.discount)}`);
  if (toCents(t.additions) > 0) out.pair('Acréscimos R$', formatMoney(t.additions));
  out.pair('Valor a Pagar R$', formatMoney(t.total), { bold: true, large: true });
  out.pair('FORMA PAGAMENTO', 'VALOR PAGO R$', { bold: true });
  for (const p of input.payments) out.pair(paymentName(p.method, p.description), formatMoney(p.amount));
  out.pair('Troco R$', formatCents(changeCents({ input })));
}

/** Divisions V (consultation and key), VI (consumer), VII (number, protocol), VIII (QR), IX (messages). */
function footer(out: Lines, input: DanfeInput): void {
  out.rule().text('Consulte pela Chave de Acesso em', { bold: true });
  out.url(input.urlChave);
  // Manual division V: the key in 11 groups of 4, groups never split across lines.
  out.text(formatAccessKey(input.accessKey), { bold: true });
  const c = input.consumer;
  out.rule().text(consumerLine({ input }), { bold: true });
  if (c?.name) out.text(c.name);
  if (c?.address) out.text(addressLine(c.address));
  out.rule().text(`NFC-e nº ${formatNoteNumber(input.number)} Série ${formatSeries(input.series)} ${formatDateTime(input.issuedAt)}`, { bold: true });
  const auth = input.authorization;
  if (auth) {
    out.text(`Protocolo de autorização: ${auth.protocol}`);
    out.text(`Data de autorização: ${formatDateTime(auth.receivedAt)}`);
  } else {
    out.text('Pendente de autorização', { bold: true });
  }
  out.blocks.push({ kind: 'qr', payload: input.qrCode });
  const taxes = input.totals.approximateTaxes;
  const messages = [
    taxes !== undefined && toCents(taxes) > 0 ? `Tributos Totais Incidentes (Lei Federal 12.741/2012): R$ ${formatMoney(taxes)}` : '',
    input.fiscoMessage ?? '',
    input.taxpayerMessage ?? '',
    input.settings?.footerText?.trim() ?? '',
  ].filter(Boolean);
  if (messages.length) out.rule();
  for (const m of messages) out.text(m);
}

/**
 * The copies a note prints. An offline contingency note not yet authorized prints two (docs/fiscal/offline-contingency.md: one
 * copy stays with the establishment, available to the Fisco, until the note is authorized): the
 * consumer's and the establishment's, each saying which it is. Any other note prints one.
 */
export function receiptCopies(input: DanfeInput, width: Columns, printable: Printable = (text) => text): ReceiptCopy[] {
  assertPrintable(input);
  const pending = input.tpEmis === 9 && !input.authorization;
  const labels = pending ? CONTINGENCY_COPY_LABELS : [undefined];
  return labels.map((label) => {
    const out = new Lines(width, printable);
    header(out, input, label);
    items(out, input);
    totals(out, input);
    footer(out, input);
    return { ...(label ? { label } : {}), blocks: out.blocks };
  });
}
