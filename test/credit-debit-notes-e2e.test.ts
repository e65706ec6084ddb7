import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { createTestApp } from './support/app.js';
import { readyIssuer } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { recipient } from './support/adjustment-notes.js';
import { xmllint } from './support/xml-tools.js';
import { schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';

// Credit and debit notes (finNFe 5 / 6, NT 2025.002-RTC) end to end: HTTP -> shared emission -> worker
// -> SOAP -> simulator, for a regime normal issuer of a reform_2026 account (docs/fiscal/credit-debit-notes.md).

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

describe('credit and debit notes through the API and the simulated authority', { timeout: 120_000 }, () => {
  let sale: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('authorizes the sale the credit note adjusts', async () => {
    const { note } = await emitNfeSettled(t, auth, invoice(issuerId, {
      items: [{ description: 'Cafe torrado 500g', quantity: 10, unit_price: 20, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18 }],
      payment: { method: 'boleto', amount: 200 },
    }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    sale = note;
  });

  it('authorizes a nota de crédito 04 (redução de valores) referencing it; the XML passes PL_010 v1.40', async () => {
    const { note } = await emitNfeSettled(t, auth, {
      issuer_id: issuerId, external_ref: 'credito-e2e', natureza_operacao: 'NOTA DE CREDITO - REDUCAO DE VALOR', presenca: 'nao_se_aplica',
      finalidade: 'credito', credit_type: '04', referenced_documents: [sale.access_key], destinatario: recipient,
      items: [{ description: 'Reducao de valor do pedido', quantity: 1, unit_price: 20, ncm: '09012100', cfop: '1949', unit: 'UN' }],
      payment: { method: 'sem_pagamento', amount: 0 },
    });
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await xmlOf(note.id);
    expect(xml).toContain('<tpNF>0</tpNF>');
    expect(xml).toContain('<finNFe>5</finNFe><tpNFCredito>04</tpNFCredito>');
    expect(xml).toContain(`<refNFe>${sale.access_key}</refNFe>`);
    // Hand figures (2026 test rates, LC 214/2025 arts. 343 and 346): 20.00 x 0.10% = 0.02 IBS UF; x 0.90% = 0.18 CBS.
    expect(xml).toMatch(/<vIBSUF>0\.02<\/vIBSUF>.*<vCBS>0\.18<\/vCBS>/);
    expect(xml).not.toMatch(/<ICMS>|<PIS>|<COFINS>/);
    expect(await xmllint(xml, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toBe('');
    // The package in force on its dhEmi validated it (v1.40's PL_010e, standing in for v1.50: docs/fiscal/schema-packages.md).
    const kept = (await t.db.query<{ schema_package: string; dh_emi: string }>('SELECT schema_package, dh_emi FROM notes WHERE id = $1', [note.id])).rows[0]!;
    expect(kept.schema_package).toBe(schemaPackageFor(55, kept.dh_emi, 2));
    expect(kept.schema_package).toBe('PL_010e');
    const danfe = await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/danfe.pdf`, headers: auth });
    expect(danfe.statusCode, danfe.body.slice(0, 200)).toBe(200);
  });

  it('authorizes a nota de débito 06 (pagamento antecipado); the XML passes PL_010 v1.40', async () => {
    const { note } = await emitNfeSettled(t, auth, {
      issuer_id: issuerId, external_ref: 'debito-e2e', natureza_operacao: 'NOTA DE DEBITO - PAGAMENTO ANTECIPADO', presenca: 'nao_se_aplica',
      finalidade: 'debito', debit_type: '06', destinatario: recipient,
      items: [{ description: 'Antecipacao do pedido 77', quantity: 1, unit_price: 500, ncm: '09012100', cfop: '5949', unit: 'UN' }],
      payment: { method: 'pix', amount: 500 },
    });
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await xmlOf(note.id);
    expect(xml).toContain('<tpNF>1</tpNF>');
    expect(xml).toContain('<finNFe>6</finNFe><tpNFDebito>06</tpNFDebito>');
    // Hand figures: 500.00 x 0.10% = 0.50 IBS UF; x 0.90% = 4.50 CBS.
    expect(xml).toMatch(/<vIBSUF>0\.50<\/vIBSUF>.*<vCBS>4\.50<\/vCBS>/);
    expect(await xmllint(xml, 'PL_010_V1.40', 'procNFe_v4.00.xsd')).toBe('');
  });

  it('answers 422 naming the field for a broken one, before any number is used', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/v1/nfe', headers: auth,
      payload: {
        issuer_id: issuerId, external_ref: 'credito-sem-tipo', natureza_operacao: 'NOTA DE CREDITO', presenca: 'nao_se_aplica',
        finalidade: 'credito', referenced_documents: [sale.access_key], destinatario: recipient,
        items: [{ description: 'Reducao', quantity: 1, unit_price: 20, ncm: '09012100', cfop: '1949', unit: 'UN', cst_icms: '00' }],
        payment: { method: 'sem_pagamento', amount: 0 },
      },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details).toEqual([
      expect.objectContaining({ field: 'credit_type', message: expect.stringContaining('B25.2-20') }),
      expect.objectContaining({ field: 'items[0].cst_icms', message: expect.stringContaining('B25-80') }),
    ]);
  });
});
