import { describe, expect, it } from 'vitest';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { reformRejection } from '../src/authority-sim/reform-rules.js';
import { checkDocument } from '../src/authority-sim/nfse/document-checks.js';
import { dpsFacts } from '../src/authority-sim/nfse/dps-facts.js';
import { nfseKey } from '../src/authority-sim/nfse/issue-nfse.js';
import { writeNfse } from '../src/authority-sim/nfse/write-nfse.js';
import { writeNfseIbsCbs } from '../src/authority-sim/nfse/write-nfse-ibscbs.js';
import { nfseValues } from '../src/authority-sim/nfse/nfse-values.js';
import type { Issuer } from '../src/documents/goods/domain/issuer-context.js';
import { buildPreparedNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import type { Sale } from '../src/documents/nfce/domain/sale.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { buildPreparedDps, dpsFigures, prepareNfse, type NfseRequest } from '../src/documents/nfse/domain/index.js';
import type { NfseContext } from '../src/documents/nfse/domain/nfse-context.js';
import { reformTablesInForce } from '../src/fiscal/reform/reform-tables-in-force.js';
import { schemaPackageFor } from '../src/fiscal/xml/xsd/schema-packages.js';
import { creditNote, debitNote, recipient } from './support/adjustment-notes.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { NUMERIC_ISSUER, testContext, testSigningKey } from './support/nfce-fixtures.js';
import { exportRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';
import { nfseIbsCbsFiguresOf, packageFolderOf, reformFiguresOf, type NoteReformFigures } from './support/reform-figures-xml.js';
import { nfeVerdict, nfseVerdict } from './support/simulator-verdict.js';
import { tempFile, xmllint } from './support/xml-tools.js';

// "Done when": a table of worked cases of the tax reform, each computed BY HAND below from the law
// (LC 214/2025) and NT 2025.002-RTC, the rule named per case; the gateway's XML must carry the same figures to
// the cent, pass the schema package in force on its own date (schema-packages.ts, xmllint) and the simulated
// authority (its reform rules and its whole authorization verdict). docs/fiscal/tax-reform.md, "Worked cases".
// Rules every case uses:
// - Base (NT UB16-10; LC 214 art. 12 par. 1 IV, VI and par. 2 II, III, V): regime normal vProd + vFrete + vSeg +
//   vOutro - vDesc - vICMS - vFCP (until 2032) - vPIS - vCOFINS (2026 only); Simples Nacional vProd + vFrete + vSeg
//   + vOutro - vDesc (docs/fiscal/tax-reform.md, "The base").
// - Rates: 2026 IBS UF 0.10 %, Mun 0 %, CBS 0.90 % (LC 214 arts. 343, 346); 2027 IBS UF 0.05 % + Mun 0.05 %
//   (art. 344), CBS the reference rate of the Senate resolution less 0.1 point (art. 347, arts. 349 I, 353): the
//   law writes no figure and none was published in what we read (assets/fiscal/reform/rates.json), so the 2027
//   cases SEND an explicit reform.cbs_rate of 8.70 % (an assumed figure, not the law's) as the gateway requires.
// - Value = vBC x rate (with gRed: x pAliqEfet, pAliqEfet = rate x (1 - pRedAliq/100), 4 places), rounded half up
//   to the cent (NT UB35-10, UB54-10, UB67-10); vIBS = vIBSUF + vIBSMun (UB54a-10); totals the sums (W35-W56).
// - vNFTot (NT W60-10) = sum of the items' vItem; VB01-10 adds vIBS + vCBS + vIS to vItem, "Exceção 1: Em 2025
//   e 2026 não somar": 2026 vNFTot = vNF; from 2027 vNF + vIBS + vCBS + vIS.
// Deferral (CST 510/515, gDif) and monophase fuels are other helpers' cases (not here).

const C = (reais: number) => Math.round(reais * 100);

interface HandItem { vBC: number; vIBSUF: number; vIBSMun: number; vCBS: number }
interface Hand {
  /** Per item, in reais; null = IBSCBS without gIBSCBS (CST 410); 'absent' = no IBSCBS at all. */
  items: (HandItem | null)[] | 'absent';
  vNF: number;
  /** null: no IBSCBSTot nor vNFTot (Simples Nacional 2026). */
  vNFTot: number | null;
}

interface GoodsCase {
  name: string;
  build: () => { xml: string; now: Date; csc?: { id: string; token: string } };
  hand: Hand;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function nfce(sale: Sale, issuer: Issuer, emittedAt: Date, taxReform: boolean) {
  const ctx = testContext(issuer, { taxReform, emittedAt });
  const p = prepareNfce(sale, ctx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return { xml: buildPreparedNfce(p.nfce, ctx).xml, now: new Date(emittedAt.getTime() + 2000), csc: ctx.csc! };
}

function nfe(req: NfeRequest, issuer: Issuer, emittedAt: Date, today: string, taxReform = true) {
  const p = prepareNfe(req, { ...NFE_CONTEXT, issuer, taxReform, today });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return { xml: buildPreparedNfe(p.nfe, nfeDocumentContext({ emittedAt })).xml, now: new Date(emittedAt.getTime() + 2000) };
}

const JUL_2026 = new Date('2026-07-15T15:04:05Z');
const JAN_2027 = new Date('2027-01-15T15:00:00Z');
const SIMPLES: Issuer = { ...NUMERIC_ISSUER, crt: 1 };
const CBS_2027 = 8.7;

/** Retail basket in São Paulo: coffee 3 x 21.90 = 65.70 less 5.70 (ICMS 00, 18 %); milk 6 x 4.99 = 29.94 (ICMS 40). */
function basket(icms: 'normal' | 'simples', reform?: Record<string, unknown>): Sale {
  const own = (cst: string, pICMS?: number) => (icms === 'normal' ? { cst_icms: cst, ...(pICMS ? { pICMS } : {}) } : { cst_icms: '102' });
  return {
    issuer_id: 'iss_test', external_ref: 'cesta-1',
    items: [
      { description: 'Cafe torrado 500g', quantity: 3, unit_price: 21.9, discount: 5.7, ncm: '09012100', cfop: '5102', unit: 'UN', ...own('00', 18), ...(reform ? { reform } : {}) },
      { description: 'Leite integral 1L', quantity: 6, unit_price: 4.99, ncm: '04012010', cfop: '5102', unit: 'UN', ...own('40'), ...(reform ? { reform } : {}) },
    ],
    payment: { method: 'pix', amount: 89.94 },
  };
}

/** An in-state NF-e to a shop in Campinas (SP), with note-level discount, freight, insurance and other charges. */
function wholesale(items: NfeRequest['items'], charges: { discount: number; freight: number; insurance: number; other: number }, total: number): NfeRequest {
  return {
    issuer_id: 'iss_test', external_ref: 'atacado-1', natureza_operacao: 'VENDA DE MERCADORIA', presenca: 'nao_se_aplica', destinatario: recipient,
    items, discount: charges.discount, freight: charges.freight, insurance: charges.insurance, other_expenses: charges.other,
    transporte: { modalidade: 'emitente', transportadora: { cnpj: '10422724000187', name: 'Transportes Rapidos', uf: 'SP' } },
    payment: { method: 'boleto', amount: total },
  };
}

/**
 * An import entry note (tpNF 0, CFOP 3102, idDest 3) from a supplier in Germany, with its DI and II: vProd is the
 * customs value (3,200.00, the II's base), the AFRMM (25.00) is in vOutro.
 */
function importRequest(reform: Record<string, unknown>, cstIcms = '90'): NfeRequest {
  return {
    issuer_id: 'iss_test', external_ref: 'importacao-1', natureza_operacao: 'COMPRA PARA COMERCIALIZACAO', presenca: 'nao_se_aplica', other_expenses: 25,
    destinatario: {
      id_estrangeiro: 'DE123456789', name: 'Maschinenbau Nord GmbH', indicador_ie: 'nao_contribuinte',
      address: { street: 'Hafenstrasse', number: '12', district: 'Altona', city: 'Hamburg', country_code: '230', country: 'Alemanha' },
    },
    items: [{
      description: 'Motor eletrico', quantity: 2, unit_price: 1600, ncm: '85015210', cfop: '3102', unit: 'UN', cst_icms: cstIcms, reform,
      import_declarations: [{
        number: '2712345678', registered_on: '2027-01-12', clearance_place: 'PORTO DE SANTOS', clearance_uf: 'SP', cleared_on: '2027-01-13',
        transport_mode: '1', afrmm: 25, intermediation: '1', exporter_code: 'EXP-0001', additions: [{ number: '1', sequence: '1', manufacturer_code: 'FAB-0001' }],
      }],
      import_tax: { base: 3200, customs_expenses: 50, value: 448, iof: 0 },
    }],
    payment: { method: 'sem_pagamento', amount: 0 },
  };
}

const CASES: GoodsCase[] = [
  {
    // LC 214 arts. 343, 346 (2026 rates), art. 12 / UB16-10 (base); regime normal (CRT 3), reform_2026 account.
    // Coffee: vProd 65.70 - vDesc 5.70 = 60.00; ICMS 18 % = 10.80; PIS 0.65 % = 0.39; COFINS 3 % = 1.80;
    //   vBC = 60.00 - 10.80 - 0.39 - 1.80 = 47.01; IBS UF 0.04701 -> 0.05; Mun 0; CBS 0.42309 -> 0.42.
    // Milk: 29.94, ICMS 0 (CST 40); PIS 0.19461 -> 0.19; COFINS 0.8982 -> 0.90; vBC = 29.94 - 0.19 - 0.90 = 28.85;
    //   IBS UF 0.02885 -> 0.03; CBS 0.25965 -> 0.26.
    // Totals: vBCIBSCBS 75.86, vIBSUF 0.08, vIBSMun 0, vIBS 0.08, vCBS 0.68; vNF 89.94; vNFTot = vNF = 89.94 (2026).
    name: 'NFC-e, retail sale in SP, regime normal, 2026',
    build: () => nfce(basket('normal'), NUMERIC_ISSUER, JUL_2026, true),
    hand: { items: [{ vBC: 47.01, vIBSUF: 0.05, vIBSMun: 0, vCBS: 0.42 }, { vBC: 28.85, vIBSUF: 0.03, vIBSMun: 0, vCBS: 0.26 }], vNF: 89.94, vNFTot: 89.94 },
  },
  {
    // LC 214 art. 344 (IBS 0.05 + 0.05), art. 347 (CBS: sent, 8.70 % assumed); groups for every account from 2027
    // (arts. 344, 347; a legacy account here). PIS/COFINS leave the base (they end with 2026), ICMS stays.
    // Coffee: vBC = 60.00 - 10.80 = 49.20; IBS UF 0.0246 -> 0.02; Mun 0.02; CBS 8.7 % = 4.2804 -> 4.28.
    // Milk: vBC = 29.94; IBS UF 0.01497 -> 0.01; Mun 0.01; CBS 2.60478 -> 2.60.
    // Totals: vBC 79.14; vIBSUF 0.03; vIBSMun 0.03; vIBS 0.06; vCBS 6.88; vNFTot = 89.94 + 0.06 + 6.88 = 96.88.
    name: 'NFC-e, the same sale in 2027 (reform.cbs_rate 8.70 sent)',
    build: () => nfce(basket('normal', { cbs_rate: CBS_2027 }), NUMERIC_ISSUER, JAN_2027, false),
    hand: { items: [{ vBC: 49.2, vIBSUF: 0.02, vIBSMun: 0.02, vCBS: 4.28 }, { vBC: 29.94, vIBSUF: 0.01, vIBSMun: 0.01, vCBS: 2.6 }], vNF: 89.94, vNFTot: 96.88 },
  },
  {
    // LC 214 art. 348 III c: the 2026 rates do not apply to the Simples Nacional; NT UB12-10 (1115) binds CRT 1,
    // 2, 4 only from 04/01/2027. No IBSCBS, IBSCBSTot nor vNFTot; vNF = 65.70 - 5.70 + 29.94 = 89.94.
    name: 'NFC-e, Simples Nacional (CRT 1), 2026: no groups',
    build: () => nfce(basket('simples'), SIMPLES, JUL_2026, true),
    hand: { items: 'absent', vNF: 89.94, vNFTot: null },
  },
  {
    // LC 214 arts. 344, 347: from 2027 the Simples Nacional carries the groups (NT UB12-10, 1115, binds CRT 1, 2, 4
    // from 04/01/2027; a note of 15/01/2027). SN base (docs/fiscal/tax-reform.md "The base"): vProd + vFrete + vSeg
    // + vOutro - vDesc, no ICMS subtracted (CSOSN 102 has none).
    // Coffee: vBC = 65.70 - 5.70 = 60.00; IBS UF 0.05 % = 0.03; Mun 0.03; CBS 8.70 % = 5.22.
    // Milk: vBC = 29.94; IBS UF 0.01497 -> 0.01; Mun 0.01; CBS 2.60478 -> 2.60.
    // Totals: vBC 89.94; vIBSUF 0.04; vIBSMun 0.04; vIBS 0.08; vCBS 7.82; vNFTot = 89.94 + 0.08 + 7.82 = 97.84.
    name: 'NFC-e, the same retail sale, Simples Nacional (CRT 1), 2027 (reform.cbs_rate 8.70 sent)',
    build: () => nfce(basket('simples', { cbs_rate: CBS_2027 }), SIMPLES, JAN_2027, false),
    hand: { items: [{ vBC: 60, vIBSUF: 0.03, vIBSMun: 0.03, vCBS: 5.22 }, { vBC: 29.94, vIBSUF: 0.01, vIBSMun: 0.01, vCBS: 2.6 }], vNF: 89.94, vNFTot: 97.84 },
  },
  {
    // LC 214 arts. 344, 347 (no Simples exception from 2027); SN base (official calculator): vProd + vFrete +
    // vSeg + vOutro - vDesc, no ICMS/PIS/COFINS subtracted. Charges split 700 : 300 (70 % / 30 %):
    // discount 50 -> 35.00 / 15.00; freight 40 -> 28.00 / 12.00; insurance 10 -> 7.00 / 3.00; other 5 -> 3.50 / 1.50.
    // Chairs: 700 + 28 + 7 + 3.50 - 35 = 703.50; IBS UF 0.35175 -> 0.35; Mun 0.35; CBS 61.2045 -> 61.20.
    // Desk: 300 + 12 + 3 + 1.50 - 15 = 301.50; IBS UF 0.15075 -> 0.15; Mun 0.15; CBS 26.2305 -> 26.23.
    // Totals: vBC 1005.00; vIBSUF 0.50; vIBSMun 0.50; vIBS 1.00; vCBS 87.43; vNF = 1000 - 50 + 40 + 10 + 5 = 1005.00;
    // vNFTot = 1005.00 + 1.00 + 87.43 = 1093.43.
    name: 'NF-e, Simples Nacional (CRT 1), 2027, discount/freight/insurance/other',
    build: () => nfe(wholesale([
      { description: 'Cadeira de escritorio', quantity: 2, unit_price: 350, ncm: '94013100', cfop: '5102', unit: 'UN', cst_icms: '102', reform: { cbs_rate: CBS_2027 } },
      { description: 'Mesa de escritorio', quantity: 1, unit_price: 300, ncm: '94033000', cfop: '5102', unit: 'UN', cst_icms: '102', reform: { cbs_rate: CBS_2027 } },
    ], { discount: 50, freight: 40, insurance: 10, other: 5 }, 1005), SIMPLES, JAN_2027, '2027-01-15', false),
    hand: { items: [{ vBC: 703.5, vIBSUF: 0.35, vIBSMun: 0.35, vCBS: 61.2 }, { vBC: 301.5, vIBSUF: 0.15, vIBSMun: 0.15, vCBS: 26.23 }], vNF: 1005, vNFTot: 1093.43 },
  },
  {
    // Immunity of exports (Constitution art. 156-A par. 1 III, art. 195 par. 16; LC 214 art. 8): CST 410,
    // cClassTrib 410004 ("Sem Alíquota": no gIBSCBS, TTribNFe's choice minOccurs 0). 2 x 980.50 = 1961.00.
    // IBSCBSTot all 0.00; 2027: vNFTot = 1961.00 + 0 + 0 = 1961.00. No CBS rate is sent (none applies).
    name: 'NF-e, export to Argentina (CST 410 / 410004), 2027',
    build: () => nfe(exportRequest(980.5, { shipment_uf: 'SP', shipment_place: 'Porto de Santos' }), NUMERIC_ISSUER, JAN_2027, '2027-01-15'),
    hand: { items: [null], vNF: 1961, vNFTot: 1961 },
  },
  {
    // CST 200 "Alíquota reduzida", cClassTrib 200030 (LC 214 Anexo IV medical devices, 60 % reduction: table
    // pRedIBS = pRedCBS = 60); NT UB26-20 / UB27-10 / UB28-10 (gRed, pRedAliq, pAliqEfet). 2027, regime normal.
    // Wheelchair 2000.00; discount 80, freight 100, insurance 20, other 10 (one item takes them all).
    // ICMS base (MOC N15: the operation value with freight, insurance, other charges, less discount) = 2050.00;
    // ICMS 18 % = 369.00. vBC = 2000 + 100 + 20 + 10 - 80 - 369.00 = 1681.00.
    // pAliqEfet UF = 0.05 x 0.40 = 0.02; Mun 0.02; CBS = 8.70 x 0.40 = 3.48.
    // vIBSUF = 1681.00 x 0.02 % = 0.3362 -> 0.34; vIBSMun 0.34; vCBS = 1681.00 x 3.48 % = 58.4988 -> 58.50.
    // vNF = 2000 - 80 + 100 + 20 + 10 = 2050.00; vNFTot = 2050.00 + 0.68 + 58.50 = 2109.18.
    name: 'NF-e, reduced rate CST 200 / 200030 (60 %), 2027, discount/freight/insurance/other',
    build: () => nfe(wholesale([
      { description: 'Cadeira de rodas', quantity: 1, unit_price: 2000, ncm: '87131000', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, reform: { cst: '200', class_code: '200030', cbs_rate: CBS_2027 } },
    ], { discount: 80, freight: 100, insurance: 20, other: 10 }, 2050), NUMERIC_ISSUER, JAN_2027, '2027-01-15', false),
    hand: { items: [{ vBC: 1681, vIBSUF: 0.34, vIBSMun: 0.34, vCBS: 58.5 }], vNF: 2050, vNFTot: 2109.18 },
  },
  {
    // Nota de crédito (finNFe 5, tpNFCredito 04 redução de valores), NT 2025.002-RTC B25: IBS/CBS only in the item
    // (B25-80: no ICMS, PIS, COFINS), so vBC = vProd. 2026 rates (arts. 343, 346).
    // 350.00: IBS UF 0.35, CBS 3.15. 149.90: IBS UF 0.1499 -> 0.15, CBS 1.3491 -> 1.35.
    // Totals: vBC 499.90; vIBSUF 0.50; vIBSMun 0; vIBS 0.50; vCBS 4.50; vNF 499.90; vNFTot = vNF = 499.90 (2026).
    name: 'NF-e, nota de crédito 04 (finNFe 5), 2026',
    build: () => nfe(creditNote({ items: [
      { description: 'Reducao de valor - cafe', quantity: 1, unit_price: 350, ncm: '09012100', cfop: '1949', unit: 'UN' },
      { description: 'Reducao de valor - leite', quantity: 1, unit_price: 149.9, ncm: '04012010', cfop: '1949', unit: 'UN' },
    ] }), NUMERIC_ISSUER, new Date('2026-11-28T13:00:00Z'), '2026-11-28'),
    hand: { items: [{ vBC: 350, vIBSUF: 0.35, vIBSMun: 0, vCBS: 3.15 }, { vBC: 149.9, vIBSUF: 0.15, vIBSMun: 0, vCBS: 1.35 }], vNF: 499.9, vNFTot: 499.9 },
  },
  {
    // Nota de débito (finNFe 6, tpNFDebito 06 pagamento antecipado), NT 2025.002-RTC B25 / B25.1: as for the credit
    // note, IBS/CBS only in the item (B25-80), so vBC = vProd (UB16-10 with nothing to subtract). 2026 rates.
    // 500.00: IBS UF 0.50, CBS 4.50. 1,234.56: IBS UF 1.23456 -> 1.23, CBS 11.11104 -> 11.11.
    // Totals: vBC 1734.56; vIBSUF 1.73; vIBSMun 0; vIBS 1.73; vCBS 15.61; vNF 1734.56; vNFTot = vNF = 1734.56 (2026).
    name: 'NF-e, nota de débito 06 (finNFe 6), 2026',
    build: () => nfe(debitNote({ items: [
      { description: 'Antecipacao do pedido 77 - cafe', quantity: 1, unit_price: 500, ncm: '09012100', cfop: '5949', unit: 'UN' },
      { description: 'Antecipacao do pedido 77 - leite', quantity: 1, unit_price: 1234.56, ncm: '04012010', cfop: '5949', unit: 'UN' },
    ], payment: { method: 'pix', amount: 1734.56 } }), NUMERIC_ISSUER, new Date('2026-11-28T13:00:00Z'), '2026-11-28'),
    hand: { items: [{ vBC: 500, vIBSUF: 0.5, vIBSMun: 0, vCBS: 4.5 }, { vBC: 1234.56, vIBSUF: 1.23, vIBSMun: 0, vCBS: 11.11 }], vNF: 1734.56, vNFTot: 1734.56 },
  },
  {
    // Import (NF-e de entrada, CFOP 3102, DI and II), 2027, regime normal. NT 2025.002-RTC UB16-10: vProd + vFrete +
    // vSeg + vOutro + vII - vDesc - vICMS ... ("(+) vII"); LC 214 art. 69: customs value + II (I) + AFRMM (IV) + ...,
    // without IPI, ICMS, ISS (par. 2). Both give, with ICMS CST 90 without a rate (no vICMS) and PIS/COFINS ended:
    // vBC = 3,200.00 + 25.00 + 448.00 (II 14 % of 3,200.00) = 3,673.00.
    // IBS UF 0.05 % = 1.8365 -> 1.84; Mun 1.84; CBS 8.70 % (sent, assumed) = 319.551 -> 319.55.
    // vNF (W16-10) = 3,200.00 + 25.00 + 448.00 = 3,673.00; vNFTot = 3,673.00 + 3.68 + 319.55 = 3,996.23.
    name: 'NF-e, import with DI and II (vII in the base), 2027',
    build: () => nfe(importRequest({ cbs_rate: CBS_2027 }), NUMERIC_ISSUER, JAN_2027, '2027-01-15', false),
    hand: { items: [{ vBC: 3673, vIBSUF: 1.84, vIBSMun: 1.84, vCBS: 319.55 }], vNF: 3673, vNFTot: 3996.23 },
  },
  {
    // The same import by a Simples Nacional issuer (CRT 1, CSOSN 900 without ICMS). The official calculator's SN base
    // has no vII, but LC 214 art. 69 I adds the II on every import and UB16-10 has no Simples exception: the same
    // vBC 3,673.00 and figures as above (the gateway wrote 3,225.00, vProd + vOutro, before).
    name: 'NF-e, the same import, Simples Nacional (CRT 1), 2027',
    build: () => nfe(importRequest({ cbs_rate: CBS_2027 }, '900'), SIMPLES, JAN_2027, '2027-01-15', false),
    hand: { items: [{ vBC: 3673, vIBSUF: 1.84, vIBSMun: 1.84, vCBS: 319.55 }], vNF: 3673, vNFTot: 3996.23 },
  },
];

function expectedFigures(hand: Hand): Pick<NoteReformFigures, 'vNF' | 'vNFTot'> & { items: unknown[]; total: unknown } {
  const items = hand.items === 'absent' ? [] : hand.items;
  const withGroup = items.filter((i): i is HandItem => i !== null);
  const itemFig = (i: HandItem | null) => ({
    vBC: i ? C(i.vBC) : null, vIBSUF: i ? C(i.vIBSUF) : null, vIBSMun: i ? C(i.vIBSMun) : null,
    vIBS: i ? C(i.vIBSUF) + C(i.vIBSMun) : null, vCBS: i ? C(i.vCBS) : null,
  });
  return {
    vNF: C(hand.vNF),
    vNFTot: hand.vNFTot === null ? null : C(hand.vNFTot),
    items: hand.items === 'absent' ? [] : items.map(itemFig),
    total: hand.items === 'absent' ? null : {
      vBCIBSCBS: sum(withGroup.map((i) => C(i.vBC))),
      vIBSUF: sum(withGroup.map((i) => C(i.vIBSUF))),
      vIBSMun: sum(withGroup.map((i) => C(i.vIBSMun))),
      vIBS: sum(withGroup.map((i) => C(i.vIBSUF) + C(i.vIBSMun))),
      vCBS: sum(withGroup.map((i) => C(i.vCBS))),
    },
  };
}

describe('worked cases of the tax reform: hand figures = the gateway\'s XML, which the package of its date and the simulator accept', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { xml, now, csc } = c.build();
    const f = reformFiguresOf(xml);
    const want = expectedFigures(c.hand);
    expect(f.vNF).toBe(want.vNF);
    if (c.hand.items === 'absent') expect(f.items.every((i) => i === null)).toBe(true);
    else expect(f.items.map((i) => i && { vBC: i.vBC, vIBSUF: i.vIBSUF, vIBSMun: i.vIBSMun, vIBS: i.vIBS, vCBS: i.vCBS })).toEqual(want.items);
    expect(f.total).toEqual(want.total);
    expect(f.vNFTot).toBe(want.vNFTot);
    // The simulated authority: its NT 2025.002 reform rules, then its whole authorization verdict (signature included).
    expect(reformRejection(nfeFacts(xml))).toBeNull();
    expect(nfeVerdict(xml, { now, signature: true, ...(csc ? { csc } : {}) })).toBeNull();
    // The schema package in force on the note's dhEmi in its environment (schema-packages.ts), with xmllint.
    expect(await xmllintFailures(packageFolderOf(f), [tempFile('case.xml', xml)])).toBe('');
  });

  it('the cases name the codes they are about (CST / cClassTrib as written)', () => {
    const codes = CASES.map((c) => reformFiguresOf(c.build().xml).items.map((i) => i && `${i.CST}/${i.cClassTrib}`));
    expect(codes).toEqual([
      ['000/000001', '000/000001'], ['000/000001', '000/000001'], [null, null], ['000/000001', '000/000001'], ['000/000001', '000/000001'],
      ['410/410004'], ['200/200030'], ['000/000001', '000/000001'], ['000/000001', '000/000001'], ['000/000001'], ['000/000001'],
    ]);
  });
});

/** NFS-e (Padrão Nacional) of a provider outside the Simples in Rio de Janeiro, competence in November 2026. */
const NFSE_CTX: NfseContext = {
  issuer: { taxId: '11444777000161', simplesNacional: 1, specialRegime: 0, cityCode: '3304557', municipalRegistration: '12345' },
  tpAmb: 2, taxReform: true, today: '2026-11-20', reformTables: reformTablesInForce(),
};

const nfseRequest = (): NfseRequest => ({
  issuer_id: 'iss_1',
  competence_date: '2026-11-20',
  service: { national_code: '010101', description: 'Desenvolvimento de software sob encomenda', place_of_provision: { city_code: '3304557' }, nbs: '115021000' },
  tomador: { cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3304557', cep: '20010000' } },
  values: {
    service_amount: 2500,
    unconditional_discount: 100,
    approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 },
    iss: { retained: 'nao_retido', rate: 2 },
    federal: { pis_cofins: { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 2 } },
  },
  reform: { operation_code: '100301', cst: '000', class_code: '000001' },
});

describe('worked case: NFS-e with IBSCBS (docs/fiscal/nfse-reform.md)', () => {
  it('R$ 2,500.00 less 100.00, ISSQN 2 % not withheld, PIS/COFINS due, 2026: vBC 2264.40, IBS UF 2.26, CBS 20.38', async () => {
    // XSD TCRTCValoresIBSCBS/vBC until 2026 = vServ - vDescIncond - vCalcReeRepRes - vISSQN - vPIS - vCOFINS;
    // LC 214 art. 12 par. 2 III (discount), V (ISS, PIS, COFINS out of the base).
    // ISSQN base 2500 - 100 = 2400.00, ISSQN 2 % = 48.00; PIS 0.65 % of 2400 = 15.60; COFINS 3 % = 72.00.
    // vBC = 2500.00 - 100.00 - 0 - 48.00 - 15.60 - 72.00 = 2264.40; IBS UF 0.10 % = 2.2644 -> 2.26 (art. 343);
    // IBS Mun 0 (art. 343); CBS 0.90 % = 20.3796 -> 20.38 (art. 346); vTotNF = vLiq (2026) = 2500 - 100 = 2400.00.
    const p = prepareNfse(nfseRequest(), NFSE_CTX);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const emittedAt = new Date('2026-11-20T14:00:00Z');
    const dps = buildPreparedDps(p.dps, { serie: '1', nDPS: '31', emittedAt, signingKey: testSigningKey(), reformTables: NFSE_CTX.reformTables! }).xml;
    // The gateway's own figures (returned among the note's values).
    expect(dpsFigures(p.dps, NFSE_CTX.reformTables)).toMatchObject({ vBCIBSCBS: 226_440, vIBSUF: 226, vIBSMun: 0, vIBSTot: 226, vCBS: 2038, vTotNF: 240_000 });
    expect(dps).toContain('<IBSCBS>');
    expect(schemaPackageFor('nfse', emittedAt, 2)).toBe('NFSe_v1.01');
    expect(await xmllint(dps, 'NFSe_v1.01', 'DPS_v1.01.xsd')).toBe('');
    // The simulated Sefin: every DPS rule, then the NFS-e it writes, with the same figures and its own schema.
    expect(nfseVerdict(dps, { signature: true, now: new Date(emittedAt.getTime() + 2000) })).toBeNull();
    const checked = checkDocument(dps, 'DPS', 'DPS_v1.01.xsd');
    const facts = dpsFacts(checked.root);
    const nfse = writeNfse({ key: nfseKey(facts, 7, '2611', '000000031'), nNFSe: 7, nDFSe: 1, processedAt: new Date(emittedAt.getTime() + 2000), providerName: 'Prestador de Teste', facts, dpsText: checked.text }, testSigningKey());
    expect(nfseIbsCbsFiguresOf(nfse)).toEqual({ vBC: 226_440, vIBSUF: 226, vIBSMun: 0, vIBSTot: 226, vCBS: 2038, vTotNF: 240_000 });
    expect(await xmllint(nfse, 'NFSe_v1.01', 'NFSe_v1.01.xsd')).toBe('');
  });
});

describe('worked case: NFS-e with IBSCBS in 2027 (docs/fiscal/nfse-reform.md, "Worked cases")', () => {
  // The 2027 CBS rate is not published (assets/fiscal/reform/rates.json has it null), and the DPS carries no rate:
  // Sefin applies "a alíquota parametrizada no sistema". With the installed tables neither the gateway nor the
  // simulated Sefin computes figures for a 2027 competence. To check that both apply the 2027 layout the same way,
  // the same tables with the 2027 CBS set to 8.70 % (an assumed figure, as in the NF-e cases) are given to both.
  const installed = reformTablesInForce()!;
  const assumed2027 = { ...installed, rates: installed.rates.map((r) => (r.from === '2027-01-01' ? { ...r, cbs: CBS_2027 } : r)) };
  const request2027 = (): NfseRequest => {
    const r = nfseRequest();
    // PIS and COFINS end with 2026 (tax-reform.md, "PIS and COFINS end in 2027"): no federal group.
    return { ...r, competence_date: '2027-01-20', values: { ...r.values, federal: undefined } };
  };

  it('R$ 2,500.00 less 100.00, ISSQN 2 % not withheld, 2027: vBC 2352.00, IBS 1.18 + 1.18, CBS 204.62 (8.70 % assumed), vTotNF 2606.98', async () => {
    // XSD TCRTCValoresIBSCBS/vBC 2027 to 2032 = vServ - descIncond - vCalcReeRepRes - vISSQN (no PIS/COFINS).
    // ISSQN 2 % of 2400.00 = 48.00. vBC = 2500.00 - 100.00 - 0 - 48.00 = 2352.00.
    // IBS UF 0.05 % (LC 214 art. 344) = 1.176 -> 1.18; IBS Mun 0.05 % = 1.18; vIBSTot 2.36; CBS 8.70 % = 204.624 -> 204.62.
    // vLiq = 2500.00 - 100.00 (nothing withheld) = 2400.00; XSD vTotNF "a partir de 2027" = vLiq + vCBS + vIBSTot
    // = 2400.00 + 204.62 + 2.36 = 2606.98.
    const ctx = { ...NFSE_CTX, today: '2027-01-20', reformTables: assumed2027 };
    const p = prepareNfse(request2027(), ctx);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const hand = { vBCIBSCBS: 235_200, vIBSUF: 118, vIBSMun: 118, vIBSTot: 236, vCBS: 20_462, vTotNF: 260_698 };
    expect(dpsFigures(p.dps, assumed2027)).toMatchObject(hand);
    const dps = buildPreparedDps(p.dps, { serie: '1', nDPS: '32', emittedAt: new Date('2027-01-20T14:00:00Z'), signingKey: testSigningKey(), reformTables: assumed2027 }).xml;
    expect(await xmllint(dps, 'NFSe_v1.01', 'DPS_v1.01.xsd')).toBe('');
    expect(nfseVerdict(dps, { signature: true, now: new Date('2027-01-20T14:00:02Z') })).toBeNull();
    const facts = dpsFacts(checkDocument(dps, 'DPS', 'DPS_v1.01.xsd').root);
    const group = writeNfseIbsCbs(facts, nfseValues(facts.values), assumed2027);
    const sefin = nfseIbsCbsFiguresOf(`<NFSe xmlns="http://www.sped.fazenda.gov.br/nfse"><infNFSe>${group}</infNFSe></NFSe>`);
    expect(sefin).toEqual({ vBC: hand.vBCIBSCBS, vIBSUF: hand.vIBSUF, vIBSMun: hand.vIBSMun, vIBSTot: hand.vIBSTot, vCBS: hand.vCBS, vTotNF: hand.vTotNF });
    // With the tables as installed (2027 CBS not published), no figures from either side.
    expect(writeNfseIbsCbs(facts, nfseValues(facts.values), installed)).toBe('');
    expect(dpsFigures(p.dps, installed).vCBS).toBeUndefined();
  });
});
