import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { emitNfeSettled, invoice, detailsOf, postNfe } from './support/nfe-flow.js';
import { xmllint } from './support/xml-tools.js';

// items[].export_detail: prod/detExport of an NF-e item sold abroad (docs/fiscal/vehicles-and-foreign-trade.md).
// An export under drawback (CFOP 7127) needs the concession act, nDraw (MOC I51-10, 338): the simulated
// authority refused such a sale with 338 while the gateway could not write the group; now the gateway
// refuses it first with 422 naming the field, and writes the group when given. detExport outside an
// operation abroad is refused too (MOC I50-10, 336).

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const post = (payload: object, lang?: string) => postNfe(t, auth, payload, lang);

const ABROAD = {
  id_estrangeiro: 'AR30712345678', name: 'Importadora del Sur SA', indicador_ie: 'nao_contribuinte',
  address: { street: 'Avenida Corrientes', number: '1234', district: 'San Nicolas', city: 'Buenos Aires', country_code: '639', country: 'Argentina' },
};
const EXPORT = { shipment_uf: 'SP', shipment_place: 'Porto de Santos' };
const RECEIVED_KEY = '35260606157250000116550010000000011000000015';

const drawbackSale = (item: Record<string, unknown> = {}) =>
  invoice(issuerId, {
    destinatario: ABROAD,
    export: EXPORT,
    items: [{ description: 'Motor eletrico', quantity: 2, unit_price: 1500, ncm: '85015210', cfop: '7127', unit: 'UN', cst_icms: '300', ...item }],
    payment: { method: 'boleto', amount: 3000 },
  });

describe('NF-e export detail (detExport)', () => {
  it('refuses an export under drawback (CFOP 7127) without the concession act: 422 naming it and MOC I51-10', async () => {
    const res = await post(drawbackSale());
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toEqual([{ field: 'items[0].export_detail.drawback', rule: 'I51-10' }]);
    const pt = await post(drawbackSale(), 'pt-BR');
    expect(pt.json().details[0].message).toBe('é obrigatório com o CFOP 7127 (MOC I51-10, 338)');
  });

  it('authorizes it with export_detail; the item carries detExport (nDraw, exportInd) in the XSD order and the nfeProc passes the XSD', async () => {
    const { note } = await emitNfeSettled(t, auth, drawbackSale({ export_detail: { drawback: '20230001234', indirect: { re_number: '123456789012', access_key: RECEIVED_KEY, quantity: 2 } } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/xml`, headers: auth })).body;
    expect(xml).toMatch(
      new RegExp(`<indTot>1</indTot><detExport><nDraw>20230001234</nDraw><exportInd><nRE>123456789012</nRE><chNFe>${RECEIVED_KEY}</chNFe><qExport>2(\\.0{1,4})?</qExport></exportInd></detExport></prod>`),
    );
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
  });

  it('refuses the export detail in an operation inside the country: 422 naming it and MOC I50-10', async () => {
    const res = await post(invoice(issuerId, { items: [{ description: 'Motor eletrico', quantity: 1, unit_price: 100, ncm: '85015210', cfop: '5102', unit: 'UN', cst_icms: '102', export_detail: { drawback: '20230001234' } }], payment: { method: 'boleto', amount: 100 } }));
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toContainEqual({ field: 'items[0].export_detail', rule: 'I50-10' });
  });

  it('refuses what the layout does not take: an export registration of 13 digits, an access key of 43', async () => {
    const res = await post(drawbackSale({ export_detail: { drawback: '1', indirect: { re_number: '1234567890123', access_key: RECEIVED_KEY.slice(1), quantity: 1 } } }));
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json()).map((d) => d.field).sort()).toEqual(['items[0].export_detail.indirect.access_key', 'items[0].export_detail.indirect.re_number']);
  });
});
