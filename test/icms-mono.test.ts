import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';
import type { TestApp } from './support/app.js';
import { emitSettled, readyIssuer, sale } from './support/nfce-flow.js';
import { createTestApp } from './support/app.js';
import { emitNfeSettled, invoice } from './support/nfe-flow.js';
import { run } from './support/pdf-tools.js';
import { tempFile, xmllint, xmlsecVerify } from './support/xml-tools.js';

// docs/fiscal/icms-monophase.md: items[].icms_mono is written as ICMS02/15/53/61 (NT 2023.001) and summed in ICMSTot.
// Hand figures, gasoline C at the ad rem rate of 2026 (R$ 1.57 per litre, Convênio ICMS 15/2023 as changed by
// Convênio ICMS 112/2025, from 01/01/2026):
//   CST 61: 40 L x R$ 6.29 = R$ 251.60 (vProd); vICMSMonoRet = 40 x 1.57 = R$ 62.80.
//   CST 02: 40 L x 1.57 = R$ 62.80 (vICMSMono).
//   CST 15: own 40 x 1.57 = 62.80; retention 10 L x 1.57 = R$ 15.70 (vICMSMonoReten).
//   CST 53: vICMSMonoOp 40 x 1.57 = 62.80; pDif 40% -> vICMSMonoDif 25.12; vICMSMono 62.80 - 25.12 = 37.68.
// A station's NFC-e (CST 61, the only monophase CST of N12-30 as NT 2023.001 amended it): 40 L x R$ 6.29 = R$ 251.60
//   = vNF (the ICMS charged earlier is not in vNF); vICMSMonoRet = 40 x 1.57 = R$ 62.80.
let t: TestApp;
let auth: { authorization: string };
let issuerId: string;
beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
  ({ auth } = await t.newAccount());
  issuerId = await readyIssuer(t, auth, { regime_tributario: 'normal' });
});
afterAll(async () => t.runtime.close());

const gasoline = (cst: string, icms_mono: object | undefined, extra: Record<string, unknown> = {}) => ({
  description: 'Gasolina C comum', quantity: 40, unit_price: 6.29, ncm: '27101259', cfop: '5656', unit: 'L', cst_icms: cst,
  fuel: { anp_code: '320102001', uf_cons: 'SP' }, icms_mono, pis: { cst: '04' }, cofins: { cst: '04' }, ...extra,
});

const DIRS = { PL_009: 'PL_009_V4', PL_010: 'PL_010_V1.30', PL_010e: 'PL_010_V1.40', 'NFSe_v1.01': 'NFSe_v1.01' } as const;

async function refused(path: string, payload: object): Promise<Array<{ field: string; rule?: string; message: string }>> {
  const res = await t.app.inject({ method: 'POST', url: path, headers: auth, payload });
  expect(res.statusCode, res.body).toBe(422);
  return res.json().details;
}

async function stationSale(issuer: string): Promise<string> {
  const pump = { nozzle: '3', pump: '2', tank: '1', start: 120345.678, end: 120385.678 };
  const item = gasoline('61', { ad_rem_rate: 1.57 }, { fuel: { anp_code: '320102001', uf_cons: 'SP', pump_reading: pump } });
  const { note } = await emitSettled(t, auth, sale(issuer, { items: [item], payment: { method: 'dinheiro', amount: 251.6 } }));
  expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
  const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfce/${note.id}/xml`, headers: auth })).body;
  const dhEmi = /<dhEmi>([^<]+)<\/dhEmi>/.exec(xml)![1]!;
  expect(await xmllint(xml, DIRS[schemaPackageFor(65, dhEmi)], 'procNFe_v4.00.xsd')).toBe('');
  expect(await xmlsecVerify(xml)).toBe('');
  return xml;
}

describe('items[].icms_mono (monophase ICMS on fuels)', () => {
  it('a station\'s NFC-e with CST 61 (N12-30 as NT 2023.001 amended it): ICMS61 and its totals, XSD of its date, signed, authorized', async () => {
    const xml = await stationSale(issuerId);
    expect(xml).toContain('<CFOP>5656</CFOP>');
    expect(xml).toContain('<ICMS61><orig>0</orig><CST>61</CST><qBCMonoRet>40.0000</qBCMonoRet><adRemICMSRet>1.57</adRemICMSRet><vICMSMonoRet>62.80</vICMSMonoRet></ICMS61>');
    expect(xml).toContain('<qBCMonoRet>40.00</qBCMonoRet><vICMSMonoRet>62.80</vICMSMonoRet><vProd>251.60</vProd>');
    expect(xml).toContain('<vNF>251.60</vNF>');
  });

  it('a Simples Nacional station may send CST 61 (the exception NT 2023.001 added to N12-20)', async () => {
    const simples = await readyIssuer(t, auth, { regime_tributario: 'simples' });
    const xml = await stationSale(simples);
    expect(xml).toContain('<CRT>1</CRT>');
    expect(xml).toContain('<ICMS61><orig>0</orig><CST>61</CST>');
    // Another CST is still refused to a Simples issuer, which sends a CSOSN.
    const item = gasoline('00', undefined, { pICMS: 18 });
    const details = await refused('/v1/nfce', sale(simples, { items: [item], payment: { method: 'dinheiro', amount: 251.6 } }));
    expect(details.map((d) => d.field)).toContain('items[0].cst_icms');
  });

  it('an NF-e with CST 61, 02, 15 and 53: the four groups and the totals, XSD of its date, authorized', async () => {
    const items = [
      gasoline('61', { ad_rem_rate: 1.57 }),
      gasoline('02', { ad_rem_rate: 1.57 }),
      gasoline('15', { ad_rem_rate: 1.57, retention: { quantity: 10, ad_rem_rate: 1.57 } }),
      gasoline('53', { ad_rem_rate: 1.57, deferral_rate: 40 }),
    ];
    // vNF = 4 x 251.60 + vICMSMonoReten 15.70 = 1006.40 + 15.70 = 1022.10 (NT 2023.001 adds the retention to vNF).
    const { note } = await emitNfeSettled(t, auth, invoice(issuerId, { items, payment: { method: 'boleto', amount: 1022.1 } }));
    expect(note.status, JSON.stringify(note.rejection)).toBe('authorized');
    const xml = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/xml`, headers: auth })).body;
    const dhEmi = /<dhEmi>([^<]+)<\/dhEmi>/.exec(xml)![1]!;
    expect(await xmllint(xml, DIRS[schemaPackageFor(55, dhEmi)], 'procNFe_v4.00.xsd')).toBe('');
    expect(xml).toContain('<ICMS61><orig>0</orig><CST>61</CST><qBCMonoRet>40.0000</qBCMonoRet><adRemICMSRet>1.57</adRemICMSRet><vICMSMonoRet>62.80</vICMSMonoRet></ICMS61>');
    expect(xml).toContain('<ICMS02><orig>0</orig><CST>02</CST><qBCMono>40.0000</qBCMono><adRemICMS>1.57</adRemICMS><vICMSMono>62.80</vICMSMono></ICMS02>');
    expect(xml).toContain('<ICMS15><orig>0</orig><CST>15</CST><qBCMono>40.0000</qBCMono><adRemICMS>1.57</adRemICMS><vICMSMono>62.80</vICMSMono>' +
      '<qBCMonoReten>10.0000</qBCMonoReten><adRemICMSReten>1.57</adRemICMSReten><vICMSMonoReten>15.70</vICMSMonoReten></ICMS15>');
    expect(xml).toContain('<ICMS53><orig>0</orig><CST>53</CST><qBCMono>40.0000</qBCMono><adRemICMS>1.57</adRemICMS><vICMSMonoOp>62.80</vICMSMonoOp>' +
      '<pDif>40.00</pDif><vICMSMonoDif>25.12</vICMSMonoDif><vICMSMono>37.68</vICMSMono></ICMS53>');
    // Totals: own 40 + 40 + 40 = 120 L, 62.80 + 62.80 + 37.68 = 163.28; retention 10 L, 15.70; charged earlier 40 L, 62.80.
    expect(xml).toContain('<vFCPSTRet>0.00</vFCPSTRet><qBCMono>120.00</qBCMono><vICMSMono>163.28</vICMSMono><qBCMonoReten>10.00</qBCMonoReten>' +
      '<vICMSMonoReten>15.70</vICMSMonoReten><qBCMonoRet>40.00</qBCMonoRet><vICMSMonoRet>62.80</vICMSMonoRet><vProd>1006.40</vProd>');
    expect(xml).toContain('<vNF>1022.10</vNF>');
    // The DANFE's item lines carry orig + CST (061, 002, 015, 053) and the ANP line under the description; its layout
    // has no place for the monophase values (docs/fiscal/icms-monophase.md).
    const pdf = (await t.app.inject({ method: 'GET', url: `/v1/nfe/${note.id}/danfe.pdf`, headers: auth })).rawPayload;
    const text = (await run('pdftotext', ['-raw', tempFile('danfe.pdf', pdf), '-'])).stdout;
    for (const cst of ['061', '002', '015', '053']) expect(text).toContain(` ${cst} `);
    expect(text.replace(/\s+/g, '')).toContain('ANP320102001');
  });

  it('422 naming the field for each broken rule of the groups', async () => {
    const nfe = (item: object) => invoice(issuerId, { items: [item], payment: { method: 'boleto', amount: 251.6 } });
    const cases: Array<[string, object, string]> = [
      ['/v1/nfe', nfe(gasoline('61', undefined)), 'items[0].icms_mono'],
      ['/v1/nfe', nfe(gasoline('61', { ad_rem_rate: 1.57 }, { fuel: undefined })), 'items[0].fuel'],
      ['/v1/nfe', nfe(gasoline('61', { ad_rem_rate: 0 })), 'items[0].icms_mono.ad_rem_rate'],
      ['/v1/nfe', nfe(gasoline('61', { ad_rem_rate: 1.57001 })), 'items[0].icms_mono.ad_rem_rate'],
      ['/v1/nfe', nfe(gasoline('15', { ad_rem_rate: 1.57 })), 'items[0].icms_mono.retention'],
      ['/v1/nfe', nfe(gasoline('53', { ad_rem_rate: 1.57 })), 'items[0].icms_mono.deferral_rate'],
      ['/v1/nfe', nfe(gasoline('02', { ad_rem_rate: 1.57, deferral_rate: 10 })), 'items[0].icms_mono.deferral_rate'],
      ['/v1/nfe', nfe(gasoline('00', { ad_rem_rate: 1.57 }, { pICMS: 18 })), 'items[0].icms_mono'],
      // An NFC-e takes 61 only: N12-30 as NT 2023.001 amended it does not list 02, 15, 53.
      ['/v1/nfce', sale(issuerId, { items: [gasoline('02', { ad_rem_rate: 1.57 })], payment: { method: 'dinheiro', amount: 251.6 } }), 'items[0].cst_icms'],
      ['/v1/nfce', sale(issuerId, { items: [gasoline('61', undefined)], payment: { method: 'dinheiro', amount: 251.6 } }), 'items[0].icms_mono'],
    ];
    for (const [path, payload, field] of cases) {
      const details = await refused(path, payload);
      expect(details.map((d) => d.field), field).toContain(field);
    }
    // pt-BR messages.
    const res = await t.app.inject({ method: 'POST', url: '/v1/nfe', headers: { ...auth, 'accept-language': 'pt-BR' }, payload: nfe(gasoline('61', undefined)) });
    expect(res.json().details[0].message).toContain('obrigatório com o CST 61');
  });
});
