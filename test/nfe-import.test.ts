import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { emittingApp } from './support/nfce-flow.js';
import { emitNfeSettled, invoice, detailsOf, postNfe } from './support/nfe-flow.js';
import { xmllint, xmlsecVerify } from './support/xml-tools.js';

// items[].import_declarations and items[].import_tax: prod/DI and imposto/II of an imported item
// (docs/fiscal/vehicles-and-foreign-trade.md). An import is an entry note (tpNF 0, CFOP 3xxx) whose
// other party is the supplier abroad (idDest 3). The gateway refuses first, with 422 naming the field,
// an import CFOP without DI (MOC I08-110, 525) or II (I08-130, 599), a DI by sea without the AFRMM
// (I23b-10, 330), an import on behalf of a buyer without the buyer (I23d-10, 331; I23e-10, 333), and a
// drawback import whose additions lack the act (I29a-10, 334).

let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const post = (payload: object, lang?: string) => postNfe(t, auth, payload, lang);

const SUPPLIER = {
  id_estrangeiro: 'DE123456789', name: 'Maschinenbau Nord GmbH', indicador_ie: 'nao_contribuinte',
  address: { street: 'Hafenstrasse', number: '12', district: 'Altona', city: 'Hamburg', country_code: '230', country: 'Alemanha' },
};
const today = () => new Date().toISOString().slice(0, 10);
const declaration = (extra: Record<string, unknown> = {}) => ({
  number: '2412345678', registered_on: today(), clearance_place: 'PORTO DE SANTOS', clearance_uf: 'SP', cleared_on: today(),
  transport_mode: '1', afrmm: 25, intermediation: '1', exporter_code: 'EXP-0001',
  additions: [{ number: '1', sequence: '1', manufacturer_code: 'FAB-0001' }],
  ...extra,
});
// Hand-worked: 2 motors at R$ 1,500.00 = vProd 3,000.00; customs value (vBC of the II) 3,200.00;
// II at 14 % of 3,200.00 = 448.00. ICMSTot/vII = 448.00 (W11-10) and vNF = 3,000.00 + 448.00 = 3,448.00
// (W16-10: vNF = vProd - vDesc - vICMSDeson + vST + vFCPST + vFrete + vSeg + vOutro + vII + vIPI + vIPIDevol).
const TAX = { base: 3200, customs_expenses: 50, value: 448, iof: 0 };
const importNote = (item: Record<string, unknown> = {}) =>
  invoice(issuerId, {
    natureza_operacao: 'COMPRA PARA COMERCIALIZACAO',
    destinatario: SUPPLIER,
    items: [{ description: 'Motor eletrico', quantity: 2, unit_price: 1500, ncm: '85015210', cfop: '3102', unit: 'UN', cst_icms: '900', ...item }],
    payment: { method: 'sem_pagamento', amount: 0 },
  });

describe('NF-e import (DI, II)', () => {
  it('authorizes an import entry note with its DI and II: DI before </prod>, II after ICMS, vII and vNF summed, XSD-valid and signed', async () => {
    const { note } = await emitNfeSettled(t, auth, importNote({ import_declarations: [declaration()], import_tax: TAX }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/xml`, headers: auth })).body;
    expect(xml).toContain('<tpNF>0</tpNF>');
    expect(xml).toContain(
      `<indTot>1</indTot><DI><nDI>2412345678</nDI><dDI>${today()}</dDI><xLocDesemb>PORTO DE SANTOS</xLocDesemb><UFDesemb>SP</UFDesemb><dDesemb>${today()}</dDesemb>` +
        '<tpViaTransp>1</tpViaTransp><vAFRMM>25.00</vAFRMM><tpIntermedio>1</tpIntermedio><cExportador>EXP-0001</cExportador>' +
        '<adi><nAdicao>1</nAdicao><nSeqAdic>1</nSeqAdic><cFabricante>FAB-0001</cFabricante></adi></DI></prod>',
    );
    expect(xml).toMatch(/<\/ICMS>(<IPI>.*<\/IPI>)?<II><vBC>3200.00<\/vBC><vDespAdu>50.00<\/vDespAdu><vII>448.00<\/vII><vIOF>0.00<\/vIOF><\/II>/);
    expect(xml).toContain('<vII>448.00</vII><vIPI>');
    expect(xml).toContain('<vNF>3448.00</vNF>');
    expect(await xmllint(xml, 'PL_009_V4', 'procNFe_v4.00.xsd')).toBe('');
    expect(await xmlsecVerify(xml)).toBe('');
  });

  it('refuses an import CFOP without DI and II: 422 naming both (MOC I08-110, I08-130), in pt-BR too', async () => {
    const res = await post(importNote());
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json())).toEqual([{ field: 'items[0].import_declarations', rule: 'I08-110' }, { field: 'items[0].import_tax', rule: 'I08-130' }]);
    const pt = await post(importNote(), 'pt-BR');
    expect(pt.json().details[0].message).toBe('é obrigatório com CFOP de importação (3102) (MOC I08-110, 525)');
  });

  it('refuses a DI by sea without AFRMM, on behalf of a buyer without the buyer, and a drawback import without the act', async () => {
    const bySea = await post(importNote({ import_declarations: [declaration({ afrmm: undefined })], import_tax: TAX }));
    expect(detailsOf(bySea.json())).toEqual([{ field: 'items[0].import_declarations[0].afrmm', rule: 'I23b-10' }]);
    const onBehalf = await post(importNote({ import_declarations: [declaration({ intermediation: '2' })], import_tax: TAX }));
    expect(detailsOf(onBehalf.json())).toEqual([
      { field: 'items[0].import_declarations[0].buyer_cnpj', rule: 'I23d-10' },
      { field: 'items[0].import_declarations[0].third_party_uf', rule: 'I23e-10' },
    ]);
    const badCnpj = await post(importNote({ import_declarations: [declaration({ intermediation: '2', buyer_cnpj: '11222333000180', third_party_uf: 'SP' })], import_tax: TAX }));
    expect(detailsOf(badCnpj.json())).toEqual([{ field: 'items[0].import_declarations[0].buyer_cnpj', rule: 'I23d-20' }]);
    const drawback = await post(importNote({ cfop: '3127', import_declarations: [declaration()], import_tax: TAX }));
    expect(detailsOf(drawback.json())).toEqual([{ field: 'items[0].import_declarations[0].additions[0].drawback', rule: 'I29a-10' }]);
  });

  it('refuses what the layout does not take: a DI number of 16 characters, a state EX, 101 declarations', async () => {
    const res = await post(importNote({ import_declarations: [declaration({ number: '1234567890123456', clearance_uf: 'EX' })], import_tax: TAX }));
    expect(res.statusCode, res.body).toBe(422);
    expect(detailsOf(res.json()).map((d) => d.field).sort()).toEqual(['items[0].import_declarations[0].clearance_uf', 'items[0].import_declarations[0].number']);
    const many = await post(importNote({ import_declarations: Array.from({ length: 101 }, () => declaration()), import_tax: TAX }));
    expect(many.statusCode, many.body).toBe(422);
    expect(detailsOf(many.json()).map((d) => d.field)).toContain('items[0].import_declarations');
  });
});
