import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import type { Issuer } from '../src/documents/goods/domain/issuer-context.js';
import type { SaleItem } from '../src/documents/nfce/domain/sale.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';
import { xmllintFailures } from './support/nfce-checks.js';
import { VALID_IE } from './support/state-registrations.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from './support/nfe-fixtures.js';

// Each ICMS group with its fields in XSD order and values computed from one R$ 100.00 item. The codes
// an NFC-e takes (MOC N12-30, N12a-20) are written in an NFC-e, with the CFOP its code goes with
// (N12-40/44, N12a-40/44); the others (ST charged in the sale, CSOSN 101/201/202/203) in an NF-e of
// the same state, and an NFC-e refuses them naming the rule.

const dir = mkdtempSync(join(tmpdir(), 'nfce-icms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const files: string[] = [];
const SIMPLES: Issuer = { ...NUMERIC_ISSUER, crt: 1 };

const ST = { rate: 18, mva: 40 };
const ST_XML = '<modBCST>4</modBCST><pMVAST>40.00</pMVAST><vBCST>140.00</vBCST><pICMSST>18.00</pICMSST>';
const RETAINED = { base: 100, rate: 18, amount: 18 };
const RETAINED_XML = '<vBCSTRet>100.00</vBCSTRet><pST>18.00</pST><vICMSSTRet>18.00</vICMSSTRet>';
const CREDIT_XML = '<pCredSN>1.25</pCredSN><vCredICMSSN>1.25</vCredICMSSN>';

const CASES: Array<[string, Partial<SaleItem>, string]> = [
  ['00', { pICMS: 18, fcp_rate: 2 }, '<ICMS00><orig>0</orig><CST>00</CST><modBC>3</modBC><vBC>100.00</vBC><pICMS>18.00</pICMS><vICMS>18.00</vICMS><pFCP>2.00</pFCP><vFCP>2.00</vFCP></ICMS00>'],
  ['10', { pICMS: 18, st: ST }, `<ICMS10><orig>0</orig><CST>10</CST><modBC>3</modBC><vBC>100.00</vBC><pICMS>18.00</pICMS><vICMS>18.00</vICMS>${ST_XML}<vICMSST>7.20</vICMSST></ICMS10>`],
  ['20', { pICMS: 18, icms_base_reduction: 10, origin: 2 }, '<ICMS20><orig>2</orig><CST>20</CST><modBC>3</modBC><pRedBC>10.00</pRedBC><vBC>90.00</vBC><pICMS>18.00</pICMS><vICMS>16.20</vICMS></ICMS20>'],
  ['30', { st: { ...ST, fcp_rate: 2 } }, `<ICMS30><orig>0</orig><CST>30</CST>${ST_XML}<vICMSST>25.20</vICMSST><vBCFCPST>140.00</vBCFCPST><pFCPST>2.00</pFCPST><vFCPST>2.80</vFCPST></ICMS30>`],
  ['40', {}, '<ICMS40><orig>0</orig><CST>40</CST></ICMS40>'],
  ['41', {}, '<ICMS40><orig>0</orig><CST>41</CST></ICMS40>'],
  ['60', { st_retained: RETAINED }, `<ICMS60><orig>0</orig><CST>60</CST>${RETAINED_XML}</ICMS60>`],
  ['60', {}, '<ICMS60><orig>0</orig><CST>60</CST></ICMS60>'],
  ['70', { pICMS: 18, icms_base_reduction: 10, st: ST }, `<ICMS70><orig>0</orig><CST>70</CST><modBC>3</modBC><pRedBC>10.00</pRedBC><vBC>90.00</vBC><pICMS>18.00</pICMS><vICMS>16.20</vICMS>${ST_XML}<vICMSST>9.00</vICMSST></ICMS70>`],
  ['90', { pICMS: 18, vBC: 50 }, '<ICMS90><orig>0</orig><CST>90</CST><modBC>3</modBC><vBC>50.00</vBC><pICMS>18.00</pICMS><vICMS>9.00</vICMS></ICMS90>'],
  ['90', {}, '<ICMS90><orig>0</orig><CST>90</CST></ICMS90>'],
  ['101', { simples_credit_rate: 1.25 }, `<ICMSSN101><orig>0</orig><CSOSN>101</CSOSN>${CREDIT_XML}</ICMSSN101>`],
  ['102', {}, '<ICMSSN102><orig>0</orig><CSOSN>102</CSOSN></ICMSSN102>'],
  ['103', {}, '<ICMSSN102><orig>0</orig><CSOSN>103</CSOSN></ICMSSN102>'],
  ['300', {}, '<ICMSSN102><orig>0</orig><CSOSN>300</CSOSN></ICMSSN102>'],
  ['400', {}, '<ICMSSN102><orig>0</orig><CSOSN>400</CSOSN></ICMSSN102>'],
  ['201', { st: ST, pICMS: 12, simples_credit_rate: 1.25 }, `<ICMSSN201><orig>0</orig><CSOSN>201</CSOSN>${ST_XML}<vICMSST>13.20</vICMSST>${CREDIT_XML}</ICMSSN201>`],
  // CSOSN 201/202/203 deduct the own operation's ICMS at pICMS (docs/fiscal/icms-st.md): 140.00 x 18% - 100.00 x 18% = 7.20.
  ['202', { st: ST, pICMS: 18 }, `<ICMSSN202><orig>0</orig><CSOSN>202</CSOSN>${ST_XML}<vICMSST>7.20</vICMSST></ICMSSN202>`],
  // 120.00 x 18% = 21.60 - 100.00 x 18% = 3.60.
  ['203', { st: { rate: 18, base: 120 }, pICMS: 18 }, '<ICMSSN202><orig>0</orig><CSOSN>203</CSOSN><modBCST>4</modBCST><vBCST>120.00</vBCST><pICMSST>18.00</pICMSST><vICMSST>3.60</vICMSST></ICMSSN202>'],
  ['500', { st_retained: RETAINED }, `<ICMSSN500><orig>0</orig><CSOSN>500</CSOSN>${RETAINED_XML}</ICMSSN500>`],
  ['900', { pICMS: 18, icms_base_reduction: 10, simples_credit_rate: 1.25 }, `<ICMSSN900><orig>0</orig><CSOSN>900</CSOSN><modBC>3</modBC><vBC>90.00</vBC><pRedBC>10.00</pRedBC><pICMS>18.00</pICMS><vICMS>16.20</vICMS>${CREDIT_XML}</ICMSSN900>`],
];

const NFCE_CODES = new Set(['00', '20', '40', '41', '60', '90', '102', '103', '300', '400', '500', '900']);
const NFCE_RULE: Record<string, string> = { '10': 'N12-30', '30': 'N12-30', '70': 'N12-30', '101': 'N12a-20', '201': 'N12a-20', '202': 'N12a-20', '203': 'N12a-20' };

/**
 * An NF-e to a taxpayer of the issuer's own state (SP) with this one item: a non-taxpayer receives
 * none of these codes (MOC N12-70, 508; N12a-70, 600), and goods under ST carry their CEST (N23-10, 806).
 */
function nfeXml(item: SaleItem, issuer: Issuer): string {
  const base = interstateRequest();
  const { cpf: _cpf, ...dest } = base.destinatario;
  const req: NfeRequest = {
    ...base,
    destinatario: { ...dest, cnpj: '11222333000181', indicador_ie: 'contribuinte', ie: VALID_IE.SP!, address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3550308', city: 'Sao Paulo', uf: 'SP', cep: '01001000' } },
    consumidor_final: false,
    items: [{ ...item, ...(item.st ? { cest: '0300700' } : {}) } as NfeRequest['items'][number]],
    payment: { method: 'dinheiro', amount: 200 },
  };
  delete req.freight;
  delete req.transporte;
  const prepared = prepareNfe(req, { ...NFE_CONTEXT, issuer: { ...issuer, uf: 'SP' } });
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
  return buildPreparedNfe(prepared.nfe, nfeDocumentContext()).xml;
}

describe('ICMS groups', () => {
  it.each(CASES)('code %s %j writes its group', (code, fields, expected) => {
    const withheld = code === '60' || code === '500';
    const cfop = withheld ? '5405' : '5102';
    const item: SaleItem = { description: 'Produto', quantity: 1, unit_price: 100, ncm: '22021000', cfop, unit: 'UN', cst_icms: code, ...fields };
    const issuer = code.length === 3 ? SIMPLES : NUMERIC_ISSUER;
    let xml: string;
    if (NFCE_CODES.has(code)) {
      xml = buildNfce(simpleSale({ items: [item], payment: { method: 'dinheiro', amount: 200 } }), testContext(issuer, { tpAmb: 1 })).xml;
    } else {
      const refused = prepareNfce(simpleSale({ items: [item], payment: { method: 'dinheiro', amount: 200 } }), testContext(issuer, { tpAmb: 1 }));
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.errors.some((e) => e.field === 'items[0].cst_icms' && e.rule === NFCE_RULE[code])).toBe(true);
      xml = nfeXml(item, issuer);
    }
    expect(/<ICMS>(.*)<\/ICMS>/.exec(xml)![1]).toBe(expected);
    const built = { xml };
    const file = join(dir, `icms-${files.length}.xml`);
    writeFileSync(file, built.xml);
    files.push(file);
  });

  it('all of them validate against both official XSD packages', async () => {
    expect(files).toHaveLength(CASES.length);
    expect(await xmllintFailures('PL_010_V1.30', files)).toBe('');
    expect(await xmllintFailures('PL_009_V4', files)).toBe('');
  });
});
