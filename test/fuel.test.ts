import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';
import type { TestApp } from './support/app.js';
import { emitSettled, emittingApp, sale } from './support/nfce-flow.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { run } from './support/pdf-tools.js';
import { tempFile, xmllint, xmlsecVerify } from './support/xml-tools.js';

// docs/fiscal/fuel.md: items[].fuel is written as prod/comb (leiauteNFe_v4.00.xsd), after indTot.
// Hand figures: 40 L x R$ 6.29 = R$ 251.60 (vProd); CIDE 40 L x R$ 0.1000/L = R$ 4.00 (vCIDE = qBCProd x vAliqProd);
// 25.5 kg of GLP x R$ 7.80 = R$ 198.90. Gasoline, diesel and GLP are monophase (LC 192/2022): a station's sale carries
// CST 61 (ICMS charged earlier; NT 2023.001 N12-110 refuses a CSOSN or another CST for the products of its table, 960),
// at the 2026 ad rem rates of Convênios ICMS 112/2025 and 113/2025: gasoline R$ 1.57/L, diesel R$ 1.17/L, GLP R$ 1.47/kg.
// vICMSMonoRet = quantity x rate: 40 x 1.57 = 62.80; 25.5 x 1.47 = 37.485 -> 37.49; 100 x 1.17 = 117.00 (not in vNF).
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  ({ t, auth, issuerId } = await emittingApp());
});
afterAll(async () => t.runtime.close());

const gasoline = (fuel: Record<string, unknown> = {}) => ({
  description: 'Gasolina comum', quantity: 40, unit_price: 6.29, ncm: '27101259', cfop: '5656', unit: 'L', cst_icms: '61', icms_mono: { ad_rem_rate: 1.57 },
  fuel: { anp_code: '320102001', uf_cons: 'SP', cide: { base_quantity: 40, rate_per_unit: 0.1 }, pump_reading: { nozzle: '3', pump: '2', tank: '1', start: 120345.678, end: 120385.678 }, ...fuel },
});
const glp = (fuel: Record<string, unknown> = {}, unit = 'kg') => ({
  description: 'GLP granel', quantity: 25.5, unit_price: 7.8, ncm: '27111910', cfop: '5656', unit, cst_icms: '61', icms_mono: { ad_rem_rate: 1.47 },
  fuel: { anp_code: '210203001', uf_cons: 'SP', glp_percent: 60, natural_gas_national_percent: 30, natural_gas_imported_percent: 10, starting_value: 6.5, ...fuel },
});

const DIRS = { PL_009: 'PL_009_V4', PL_010: 'PL_010_V1.30', PL_010e: 'PL_010_V1.40', 'NFSe_v1.01': 'NFSe_v1.01' } as const;

async function checkedXml(family: 'nfce' | 'nfe', id: string): Promise<string> {
  const xml = (await t.app.inject({ method: 'GET', url: `/v1/${family}/${id}/xml`, headers: auth })).body;
  const dhEmi = /<dhEmi>([^<]+)<\/dhEmi>/.exec(xml)![1]!;
  expect(await xmllint(xml, DIRS[schemaPackageFor(family === 'nfce' ? 65 : 55, dhEmi)], 'procNFe_v4.00.xsd')).toBe('');
  expect(await xmlsecVerify(xml)).toBe('');
  return xml;
}

async function refused(path: string, payload: object): Promise<Array<{ field: string; rule?: string }>> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: auth, payload });
  expect(res.statusCode, res.body).toBe(422);
  return res.json().details;
}

describe('items[].fuel (prod/comb)', () => {
  it('an NFC-e fuel sale with the pump readings: comb after indTot, description from the ANP table; XSD of its date, signature, authorized', async () => {
    const { note } = await emitSettled(t, auth, sale(issuerId, { items: [gasoline()], payment: { method: 'dinheiro', amount: 251.6 } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await checkedXml('nfce', note.id);
    expect(xml).toContain('<vProd>251.60</vProd>');
    expect(xml).toContain('<ICMS61><orig>0</orig><CST>61</CST><qBCMonoRet>40.0000</qBCMonoRet><adRemICMSRet>1.57</adRemICMSRet><vICMSMonoRet>62.80</vICMSMonoRet></ICMS61>');
    expect(xml).toContain(
      '<indTot>1</indTot><comb><cProdANP>320102001</cProdANP><descANP>GASOLINA C COMUM</descANP><UFCons>SP</UFCons>' +
        '<CIDE><qBCProd>40.0000</qBCProd><vAliqProd>0.1000</vAliqProd><vCIDE>4.00</vCIDE></CIDE>' +
        '<encerrante><nBico>3</nBico><nBomba>2</nBomba><nTanque>1</nTanque><vEncIni>120345.678</vEncIni><vEncFin>120385.678</vEncFin></encerrante></comb></prod>',
    );
  });

  it('an NF-e with GLP (shares, vPart) and diesel B (pBio, qTemp, CODIF): authorized, XSD of its date', async () => {
    const diesel = { description: 'Oleo diesel B S10', quantity: 100, unit_price: 5.99, ncm: '27101921', cfop: '5656', unit: 'L', cst_icms: '61', icms_mono: { ad_rem_rate: 1.17 },
      fuel: { anp_code: '820101034', anp_description: 'OLEO DIESEL B S10 - COMUM', uf_cons: 'SP', codif: '123456789', temperature_quantity: 99.5, biodiesel_percent: 14,
        pump_reading: { nozzle: '7', tank: '2', start: 5000, end: 5100 } } };
    // 198.90 + 100 x 5.99 = 198.90 + 599.00 = 797.90
    const { note } = await emitNfeSettled(t, auth, invoice(issuerId, { items: [glp(), diesel], payment: { method: 'boleto', amount: 797.9 } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = await checkedXml('nfe', note.id);
    expect(xml).toContain('<comb><cProdANP>210203001</cProdANP><descANP>GLP</descANP><pGLP>60.00</pGLP><pGNn>30.00</pGNn><pGNi>10.00</pGNi><vPart>6.50</vPart><UFCons>SP</UFCons></comb>');
    expect(xml).toContain('<comb><cProdANP>820101034</cProdANP><descANP>OLEO DIESEL B S10 - COMUM</descANP><CODIF>123456789</CODIF><qTemp>99.5000</qTemp><UFCons>SP</UFCons>' +
      '<encerrante><nBico>7</nBico><nTanque>2</nTanque><vEncIni>5000.000</vEncIni><vEncFin>5100.000</vEncFin></encerrante><pBio>14</pBio></comb>');
    expect(xml).toContain('<vNF>797.90</vNF>');
    expect(xml).toContain('<qBCMonoRet>25.5000</qBCMonoRet><adRemICMSRet>1.47</adRemICMSRet><vICMSMonoRet>37.49</vICMSMonoRet>');
    expect(xml).toContain('<qBCMonoRet>100.0000</qBCMonoRet><adRemICMSRet>1.17</adRemICMSRet><vICMSMonoRet>117.00</vICMSMonoRet>');
    expect(xml).toContain('<qBCMonoRet>125.50</qBCMonoRet><vICMSMonoRet>154.49</vICMSMonoRet>');
    // The DANFE prints the ANP code and the pump readings under each fuel item's description (src/danfe/nfe/fuel-line.ts).
    const pdf = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/danfe.pdf`, headers: auth })).rawPayload;
    const text = (await run('pdftotext', ['-raw', tempFile('danfe.pdf', pdf), '-'])).stdout.replace(/\s+/g, '');
    expect(text).toContain('ANP210203001');
    expect(text).toContain('ANP820101034-BICO7TANQUE2-ENCERRANTE5000.000A5100.000');
  });

  it('422 naming the field and the MOC rule for each rule of the group', async () => {
    const nfce = (item: object) => sale(issuerId, { items: [item], payment: { method: 'dinheiro', amount: 300 } });
    const nfe = (item: object) => invoice(issuerId, { items: [item], payment: { method: 'boleto', amount: 251.6 } });
    const cases: Array<[string, object, string, string]> = [
      ['/v1/nfce', nfce(gasoline({ pump_reading: { nozzle: '1', tank: '1', start: 500, end: 500 } })), 'items[0].fuel.pump_reading.end', 'LA16-10'],
      ['/v1/nfce', nfce(gasoline({ glp_percent: 100 })), 'items[0].fuel.glp_percent', 'LA03c-10'],
      ['/v1/nfce', nfce(glp({ natural_gas_imported_percent: 0 })), 'items[0].fuel.glp_percent', 'LA03c-20'],
      ['/v1/nfce', nfce(glp({}, 'L')), 'items[0].unit', 'I13-20'],
      ['/v1/nfe', nfe({ ...gasoline(), cfop: '5102' }), 'items[0].fuel.pump_reading', 'LA11-20'],
      ['/v1/nfe', nfe(glp({ starting_value: undefined })), 'items[0].fuel.starting_value', 'LA03d-10'],
    ];
    for (const [path, payload, field, rule] of cases) {
      const details = await refused(path, payload);
      expect(details, `${field} ${rule}`).toContainEqual(expect.objectContaining({ field, rule }));
    }
    // A code the gateway's partial ANP list lacks is the authority's to judge (LA02-10 is not enforced here): it needs
    // the description the sale gives, and goes with it.
    const unknownCode = await refused('/v1/nfce', nfce(gasoline({ anp_code: '999999999', anp_description: undefined })));
    expect(unknownCode.map((d) => d.field)).toEqual(['items[0].fuel.anp_description']);
    const wrongCide = await refused('/v1/nfce', nfce(gasoline({ cide: { base_quantity: 40, rate_per_unit: 0.1, amount: 4.01 } })));
    expect(wrongCide.map((d) => d.field)).toContain('items[0].fuel.cide.amount');
    const badUf = await refused('/v1/nfce', nfce(gasoline({ uf_cons: 'XX' })));
    expect(badUf.map((d) => d.field)).toContain('items[0].fuel.uf_cons');
  });
});
