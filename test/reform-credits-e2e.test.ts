import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { createTestApp } from './support/app.js';
import { readyIssuer } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { recipient } from './support/adjustment-notes.js';
import { xmllint } from './support/xml-tools.js';

// A government purchase and a credit transfer (NT 2025.002-RTC gCompraGov / gTribCompraGov, gTransfCred;
// docs/fiscal/tax-reform.md) end to end: HTTP -> emission -> worker -> SOAP -> simulator, for a regime normal issuer
// of a reform_2026 account. The figures are test/reform-credits.test.ts's arithmetic on these items.

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  ({ auth } = await t.newAccount());
  const patched = await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { taxRegime: 'reform_2026' } });
  if (patched.statusCode !== 200) throw new Error(patched.body);
  issuerId = await readyIssuer(t, auth, { regime_tributario: 'normal' });
}, 240_000);
afterAll(async () => t.runtime.close());

const xmlOf = async (id: string) => (await t.app.inject({ method: 'GET', url: `/v1/nfe/${id}/xml`, headers: auth })).body;

describe('government purchase and credit transfer through the API and the simulated authority', { timeout: 120_000 }, () => {
  it('authorizes a sale to a municipality (gCompraGov, gRed 0, gTribCompraGov); the XML passes PL_010 v1.40', async () => {
    const { note } = await emitNfeSettled(t, auth, invoice(issuerId, {
      government_purchase: { entity_type: 4 },
      items: [{ description: 'Cafe torrado 500g', quantity: 10, unit_price: 20, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18 }],
      payment: { method: 'boleto', amount: 200 },
    }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await xmlOf(note.id);
    expect(xml).toContain('<gCompraGov><tpEnteGov>4</tpEnteGov><pRedutor>0.00</pRedutor><tpOperGov>1</tpOperGov></gCompraGov>');
    // Base 200.00 - ICMS 36.00 - PIS 1.30 - COFINS 6.00 = 156.70 (UB16-10); pAliqEfet 0.10 x 1 x (1 - 0) = 0.10 -> 0.16
    // (0.1567); CBS 0.90 -> 1.41 (1.4103); gTribCompraGov repeats them (2026: no art. 473 transfer).
    expect(xml).toContain('<gTribCompraGov><pAliqIBSUF>0.10</pAliqIBSUF><vTribIBSUF>0.16</vTribIBSUF><pAliqIBSMun>0.00</pAliqIBSMun><vTribIBSMun>0.00</vTribIBSMun><pAliqCBS>0.90</pAliqCBS><vTribCBS>1.41</vTribCBS></gTribCompraGov>');
    expect(await xmllint(xml, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toBe('');
  });

  it('authorizes a nota de débito 05 transferring credit in a succession (CST 800 / 800001, gTransfCred)', async () => {
    const { note } = await emitNfeSettled(t, auth, {
      issuer_id: issuerId, external_ref: 'transferencia-e2e', natureza_operacao: 'TRANSFERENCIA DE CREDITO NA SUCESSAO', presenca: 'nao_se_aplica',
      finalidade: 'debito', debit_type: '05', destinatario: recipient,
      items: [{ description: 'Transferencia de saldo credor', quantity: 1, unit_price: 1500, ncm: '00000000', cfop: '5949', unit: 'UN', reform: { cst: '800', class_code: '800001', credit_transfer: { ibs: 150, cbs: 1350 } } }],
      payment: { method: 'sem_pagamento', amount: 0 },
    });
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await xmlOf(note.id);
    expect(xml).toContain('<finNFe>6</finNFe><tpNFDebito>05</tpNFDebito>');
    expect(xml).toContain('<IBSCBS><CST>800</CST><cClassTrib>800001</cClassTrib><gTransfCred><vIBS>150.00</vIBS><vCBS>1350.00</vCBS></gTransfCred></IBSCBS>');
    expect(await xmllint(xml, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toBe('');
  });

  it('answers 422 naming the field: presumed credit in 2026 (the cCredPres codes start in 2027), a transfer on a sale (UB106-30)', async () => {
    const credit = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: auth, payload: invoice(issuerId, {
      items: [{ description: 'Automovel', quantity: 1, unit_price: 100000, ncm: '87032310', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 12, reform: { cst: '000', class_code: '000003', presumed_credit: { code: '05', cbs_rate: 11.6 } } }],
      payment: { method: 'boleto', amount: 100000 },
    }) });
    expect(credit.statusCode, credit.body).toBe(422);
    expect(JSON.stringify(credit.json())).toContain('items[0].reform.presumed_credit.code');
    const transfer = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: auth, payload: invoice(issuerId, {
      items: [{ description: 'Transferencia', quantity: 1, unit_price: 100, ncm: '00000000', cfop: '5949', unit: 'UN', cst_icms: '00', pICMS: 18, reform: { cst: '800', class_code: '800001', credit_transfer: { ibs: 1, cbs: 9 } } }],
      payment: { method: 'boleto', amount: 100 },
    }) });
    expect(transfer.statusCode, transfer.body).toBe(422);
    expect(transfer.json().details).toContainEqual(expect.objectContaining({ field: 'items[0].reform.credit_transfer', rule: 'UB106-30' }));
  });
});
