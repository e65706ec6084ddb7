// Divisions V (consultation by key), VI (consumer), VII (note and authorization), VIII (QR code)
// and IX (taxpayer messages, approximate taxes, issuer footer).
import { formatAccessKey, formatCnpj, formatCpf, formatDateTime, formatMoney, formatNoteNumber, formatSeries, toCents } from './br-format.js';
import type { DanfeContext } from './danfe-context.js';
import { addressLine } from './danfe-header.js';
import { QR_QUIET_MODULES, qrModulePt, qrSymbol } from './qr-symbol.js';
import { urlLines } from './url-lines.js';

// The consultation address may shrink to fit the roll, never below 5 pt (58 mm small print is 5.5 pt).
const URL_MIN_PT = 5;

function consultation(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  layout.rule(theme.rule);
  layout.text('Consulte pela Chave de Acesso em', { size: theme.size.body, font: 'Helvetica-Bold', align: 'center', color: theme.accent });
  const url = urlLines(input.urlChave, (text, size) => layout.textWidth(text, { size }), layout.width, theme.size.small, URL_MIN_PT);
  for (const line of url.lines) layout.text(line, { size: url.size, align: 'center' });
  // Manual division V: the key in 11 groups of 4, kept on one line when the roll allows it.
  const key = formatAccessKey(input.accessKey);
  const size = layout.fittingSize(key, 'Helvetica-Bold', theme.size.body, theme.size.small);
  layout.gap(1).text(key, { size, font: 'Helvetica-Bold', align: 'center' });
}

/** Division VI's first line (also printed by the text receipts, receipt-text.ts). */
export function consumerLine(ctx: Pick<DanfeContext, 'input'>): string {
  const doc = ctx.input.consumer?.document;
  if (!doc) return 'CONSUMIDOR NÃO IDENTIFICADO';
  if (doc.kind === 'cpf') return `CONSUMIDOR CPF: ${formatCpf(doc.id)}`;
  if (doc.kind === 'cnpj') return `CONSUMIDOR CNPJ: ${formatCnpj(doc.id)}`;
  return `CONSUMIDOR Id. Estrangeiro: ${doc.id}`;
}

function consumer(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const c = input.consumer;
  layout.rule(theme.rule);
  layout.text(consumerLine(ctx), { size: theme.size.body, font: 'Helvetica-Bold', align: 'center' });
  if (c?.name) layout.text(c.name, { size: theme.size.small, align: 'center' });
  if (c?.address) layout.text(addressLine(c.address), { size: theme.size.small, align: 'center' });
}

function identification(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const size = theme.size.body;
  layout.rule(theme.rule);
  const number = `NFC-e nº ${formatNoteNumber(input.number)} Série ${formatSeries(input.series)} ${formatDateTime(input.issuedAt)}`;
  layout.text(number, { size, font: 'Helvetica-Bold', align: 'center' });
  const auth = input.authorization;
  if (auth) {
    layout.text(`Protocolo de autorização: ${auth.protocol}`, { size, align: 'center' });
    layout.text(`Data de autorização: ${formatDateTime(auth.receivedAt)}`, { size, align: 'center' });
  } else {
    // docs/fiscal/offline-contingency.md (sped-da): a contingency DANFE printed before authorization says so.
    layout.text('Pendente de autorização', { size, font: 'Helvetica-Oblique', align: 'center' });
  }
}

function qrCode(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const symbol = qrSymbol(input.qrCode);
  layout.qr(symbol, qrModulePt(symbol, theme.qrTargetMm, layout.width), QR_QUIET_MODULES);
}

function messages(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const style = { size: theme.size.small, align: 'center' as const };
  const taxes = input.totals.approximateTaxes;
  const lines = [
    // Lei 12.741/2012: approximate taxes of the sale on the consumer's document (zero means not informed).
    taxes !== undefined && toCents(taxes) > 0 ? `Tributos Totais Incidentes (Lei Federal 12.741/2012): R$ ${formatMoney(taxes)}` : '',
    input.fiscoMessage ?? '',
    input.taxpayerMessage ?? '',
  ].filter(Boolean);
  if (lines.length) layout.rule(theme.rule);
  for (const line of lines) layout.text(line, style);
  const footer = input.settings?.footerText?.trim();
  if (footer) layout.gap(2).text(footer, { ...style, size: theme.size.body, color: theme.accent });
}

export function footerDivisions(ctx: DanfeContext): void {
  consultation(ctx);
  consumer(ctx);
  identification(ctx);
  qrCode(ctx);
  messages(ctx);
}
