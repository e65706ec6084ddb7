import PDFDocument from 'pdfkit';
import { pdfBytes } from '../../danfe/pdf-bytes.js';
import type { InvoiceRow } from '../../infra/storage/repositories/billing-repository.js';
import { brl } from './plans.js';

/**
 * GET /v1/billing/invoices/:id/pdf: an A4 invoice (pdfkit, as the DANFE renderers): who, which
 * period, each line with quantity, unit price and amount, the total, status, due date and the
 * payment link when the payment provider gave one. Standard fonts only (WinAnsi text).
 */
export async function renderInvoicePdf(invoice: InvoiceRow, accountName: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Invoice ${invoice.id}`, Author: 'Fiscal gateway' } });
  const done = pdfBytes(doc);
  doc.font('Helvetica-Bold').fontSize(18).text('Invoice');
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Invoice ${invoice.id}`);
  doc.text(`Account: ${accountName} (${invoice.account_id})`);
  doc.text(`Period: ${invoice.period}`);
  doc.text(`Status: ${invoice.status}`);
  doc.text(`Issued: ${invoice.created_at.toISOString().slice(0, 10)}   Due: ${invoice.due_at.toISOString().slice(0, 10)}`);
  doc.moveDown();
  const x = { desc: 50, qty: 330, unit: 390, amount: 470 };
  const header = doc.y;
  doc.font('Helvetica-Bold');
  doc.text('Description', x.desc, header, { width: 270 });
  doc.text('Qty', x.qty, header, { width: 50, align: 'right' });
  doc.text('Unit', x.unit, header, { width: 70, align: 'right' });
  doc.text('Amount', x.amount, header, { width: 75, align: 'right' });
  doc.font('Helvetica');
  for (const line of invoice.lines) {
    doc.moveDown(0.4);
    const y = doc.y;
    doc.text(line.description, x.desc, y, { width: 270 });
    const after = doc.y;
    doc.text(String(line.quantity), x.qty, y, { width: 50, align: 'right' });
    doc.text(brl(line.unit_cents), x.unit, y, { width: 70, align: 'right' });
    doc.text(brl(line.amount_cents), x.amount, y, { width: 75, align: 'right' });
    doc.y = Math.max(after, doc.y);
  }
  doc.moveDown();
  doc.font('Helvetica-Bold').text(`Total: ${brl(invoice.total_cents)}`, x.desc, doc.y, { width: 495, align: 'right' });
  doc.font('Helvetica').moveDown();
  if (invoice.payment_url) doc.text(`Pay at: ${invoice.payment_url}`, x.desc);
  doc.end();
  return done;
}
