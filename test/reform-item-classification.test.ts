import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, readyIssuer } from './support/nfce-flow.js';

// When the sale does not give CST / cClassTrib the gateway proposes them from the tables and SAYS which
// it chose: the note's items[].reform {cst, class_code, source} (docs/fiscal/tax-reform.md, "Defaults per item").

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
/** The sandbox's default issuer is a Simples Nacional one (CRT 1). */
let simplesId: string;
beforeAll(async () => {
  ({ t, auth, issuerId: simplesId } = await emittingApp());
  const patched = await t.app.inject({ method: 'PATCH', url: '/v1/account', headers: auth, payload: { taxRegime: 'reform_2026' } });
  if (patched.statusCode !== 200) throw new Error(`PATCH /v1/account: ${patched.statusCode} ${patched.body}`);
  issuerId = await readyIssuer(t, auth, { regime_tributario: 'normal' });
}, 240_000);
afterAll(async () => t.runtime.close());

describe('the note says which IBS/CBS classification each item carries and who chose it', { timeout: 120_000 }, () => {
  it('an item that names CST 200 / 200030 reads source request; one that names none reads 000 / 000001, source default', async () => {
    const { res, note } = await emitSettled(t, auth, {
      issuer_id: issuerId, external_ref: 'classificacao-1',
      items: [
        { description: 'Cadeira de rodas', quantity: 1, unit_price: 100, ncm: '87131000', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, reform: { cst: '200', class_code: '200030' } },
        { description: 'Cafe torrado 500g', quantity: 1, unit_price: 20, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18 },
      ],
      payment: { method: 'pix', amount: 120 },
    });
    expect([201, 202]).toContain(res.statusCode);
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    expect(note.items.map((i: { nItem: number; reform?: unknown }) => [i.nItem, i.reform])).toEqual([
      [1, { cst: '200', class_code: '200030', source: 'request' }],
      [2, { cst: '000', class_code: '000001', source: 'default' }],
    ]);
    // The figures stay numbers beside it, and the XML carries the same codes.
    expect(note.items[0]).toMatchObject({ vProd: 100 });
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<IBSCBS><CST>200</CST><cClassTrib>200030</cClassTrib>');
    expect(xml).toContain('<IBSCBS><CST>000</CST><cClassTrib>000001</cClassTrib>');
  });

  it('a Simples Nacional note of 2026 carries no reform group, so its items name none', async () => {
    const { note } = await emitSettled(t, auth, {
      issuer_id: simplesId, external_ref: 'classificacao-2',
      items: [{ description: 'Bolo de fuba', quantity: 1, unit_price: 30, ncm: '19059090', cfop: '5102', unit: 'UN', cst_icms: '102' }],
      payment: { method: 'pix', amount: 30 },
    });
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    expect(note.items[0]).not.toHaveProperty('reform');
  });
});
