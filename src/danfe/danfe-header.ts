// Divisions I (issuer) and II (title), plus the notices that must be seen first: cancellation,
// homologation (no fiscal value) and offline contingency.
import { formatCep, formatCnpj, formatCpf, formatDateTime, formatPhone } from './br-format.js';
import type { DanfeContext } from './danfe-context.js';
import { epecNfceMarks, type DanfeAddress, type DanfeIssuer } from './danfe-input.js';
import { MM } from './qr-symbol.js';
import type { ReceiptLayout } from './receipt-layout.js';

export function addressLine(a: DanfeAddress): string {
  const street = [a.street, a.number, a.complement].filter(Boolean).join(', ');
  const place = [a.district, a.city && a.uf ? `${a.city}/${a.uf}` : a.city || a.uf].filter(Boolean).join(' - ');
  const parts = [street, place, a.cep ? `CEP ${formatCep(a.cep)}` : ''];
  return parts.filter(Boolean).join(' - ');
}

function issuerLines(issuer: DanfeIssuer): string[] {
  const ids = [
    issuer.cnpj ? `CNPJ: ${formatCnpj(issuer.cnpj)}` : issuer.cpf ? `CPF: ${formatCpf(issuer.cpf)}` : '',
    issuer.ie ? `IE: ${issuer.ie}` : '',
  ];
  const phone = issuer.address.phone ? `Fone: ${formatPhone(issuer.address.phone)}` : '';
  return [ids.filter(Boolean).join('   '), addressLine(issuer.address), phone].filter(Boolean);
}

function issuerText(ctx: DanfeContext, column: ReceiptLayout, align: 'left' | 'center'): void {
  const { issuer } = ctx.input;
  const { size } = ctx.theme;
  column.text(issuer.name, { size: size.heading + 1, font: 'Helvetica-Bold', align });
  if (issuer.tradeName && issuer.tradeName.trim().toUpperCase() !== issuer.name.trim().toUpperCase()) {
    column.text(issuer.tradeName, { size: size.body, align });
  }
  for (const line of issuerLines(issuer)) column.text(line, { size: size.small, align });
}

/** Division I: logo beside the issuer on 80 mm, above it on 58 mm. */
function issuer(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const logo = input.settings?.logo;
  if (!logo) {
    issuerText(ctx, layout, 'center');
    return;
  }
  const px = ctx.imageSize(logo);
  const beside = theme.roll === 80;
  const box = beside ? { w: 20 * MM, h: 18 * MM } : { w: 30 * MM, h: 14 * MM };
  const scale = Math.min(box.w / px.width, box.h / px.height);
  const w = px.width * scale;
  const h = px.height * scale;
  if (!beside) {
    layout.image(logo, layout.left + (layout.width - w) / 2, layout.y, w, h);
    layout.gap(h + 3);
    issuerText(ctx, layout, 'center');
    return;
  }
  const top = layout.y;
  const textLeft = layout.left + box.w + 3 * MM;
  const bottom = layout.column(textLeft, layout.left + layout.width - textLeft, (column) => issuerText(ctx, column, 'left'));
  const height = Math.max(bottom - top, h);
  layout.image(logo, layout.left + (box.w - w) / 2, top + (height - h) / 2, w, h);
  layout.y = top + height;
}

function notices(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const { size } = theme;
  const bold = 'Helvetica-Bold' as const;
  if (input.cancellation) {
    const c = input.cancellation;
    layout.gap(3).framed('#000000', 3, (box) => {
      box.text('NFC-e CANCELADA', { size: size.notice + 4, font: bold, align: 'center' });
      const detail = [c.protocol ? `Protocolo de cancelamento: ${c.protocol}` : '', c.at ? formatDateTime(c.at) : ''];
      if (detail.some(Boolean)) box.text(detail.filter(Boolean).join(' - '), { size: size.small, align: 'center' });
    });
  }
  if (input.tpAmb === 2) {
    // docs/fiscal/danfe-nfce.md: the homologation DANFE says it was issued in homologation and has no fiscal value.
    layout.gap(3).framed('#000000', 3, (box) => {
      box.text('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO - SEM VALOR FISCAL', { size: size.notice, font: bold, align: 'center' });
    });
  }
}

/** Division II; docs/fiscal/offline-contingency.md: the contingency DANFE says "EMITIDA EM CONTINGÊNCIA". */
function title(ctx: DanfeContext): void {
  const { layout, theme, input } = ctx;
  const { size } = theme;
  layout.rule(theme.rule);
  layout.text('Documento Auxiliar da Nota Fiscal de Consumidor Eletrônica', { size: size.body, font: 'Helvetica-Bold', align: 'center', color: theme.accent });
  layout.text('Não permite aproveitamento de crédito de ICMS', { size: size.small, align: 'center' });
  if (input.tpEmis === 9) {
    layout.gap(2).text('EMITIDA EM CONTINGÊNCIA', { size: size.notice + 1, font: 'Helvetica-Bold', align: 'center' });
    if (!input.authorization) layout.text('Pendente de autorização', { size: size.body, font: 'Helvetica-Oblique', align: 'center' });
    if (ctx.copyLabel) layout.text(ctx.copyLabel, { size: size.body, font: 'Helvetica-Bold', align: 'center' });
  }
  const epec = epecNfceMarks(input, formatDateTime);
  if (epec) {
    const [mark, ...rest] = epec;
    layout.gap(2).text(mark!, { size: size.notice, font: 'Helvetica-Bold', align: 'center' });
    for (const line of rest) layout.text(line, { size: size.small, align: 'center' });
  }
}

export function headerDivisions(ctx: DanfeContext): void {
  issuer(ctx);
  notices(ctx);
  title(ctx);
}
