import { describe, expect, it } from 'vitest';
import { NFE_CONTEXT, interstateRequest, nfeDocumentContext } from '../../../../test/support/nfe-fixtures.js';
import { ALPHANUMERIC_ISSUER } from '../../../../test/support/nfce-fixtures.js';
import { buildPreparedNfe, prepareNfe } from './index.js';
import type { NfeItem, NfeRequest } from './nfe-request.js';
import { validateNfeRequest } from './validate-nfe.js';
import { VALID_IE } from '../../../../test/support/state-registrations.js';

// Tax figures computed by hand from the rules in docs/fiscal/icms-relief.md and docs/fiscal/icms-st.md.

/** A sale from `issuer` to a taxpayer (resale) in `uf`, one item, paid by boleto for `amount`. */
function taxpayerSale(item: NfeItem, uf: 'SP' | 'RJ' | 'RS', amount: number): NfeRequest {
  const req = interstateRequest();
  const city = { SP: ['3509502', 'Campinas'], RJ: ['3304557', 'Rio de Janeiro'], RS: ['4305108', 'Caxias do Sul'] }[uf];
  req.destinatario = {
    cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: VALID_IE[uf]!,
    address: { street: 'Rua A', number: '1', district: 'Centro', city_code: city[0]!, city: city[1]!, uf },
  };
  req.presenca = 'nao_se_aplica';
  req.items = [item];
  delete req.freight;
  req.payment = { method: 'boleto', amount };
  return req;
}

function prepared(req: NfeRequest, ctx = NFE_CONTEXT) {
  const p = prepareNfe(req, ctx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return { total: p.nfe.parts.total, det: p.nfe.parts.det, xml: buildPreparedNfe(p.nfe, nfeDocumentContext()).xml };
}

describe('ICMS relief and vNF (MOC W16-10 with NT 2023.004 indDeduzDeson)', () => {
  // SP -> SP, CST 20, 1 x 50,000.00, pICMS 18, pRedBC 41.67, relief 3,750.60 (motDesICMS 9).
  const item = (deducted?: boolean): NfeItem => ({
    description: 'Trator agricola', quantity: 1, unit_price: 50_000, ncm: '87019100', cfop: '5102', unit: 'UN', cst_icms: '20', pICMS: 18, icms_base_reduction: 41.67,
    icms_relief: { amount: 3_750.6, reason: 9, ...(deducted === undefined ? {} : { deducted }) },
  });

  it('deducted (the default): vNF = 50,000.00 - 3,750.60 = 46,249.40, and the item says indDeduzDeson 1', () => {
    const { total, xml } = prepared(taxpayerSale(item(), 'SP', 46_249.4));
    expect([total.vProd, total.vICMSDeson, total.vNF]).toEqual([5_000_000, 375_060, 4_624_940]);
    expect(xml).toContain('<vICMSDeson>3750.60</vICMSDeson><motDesICMS>9</motDesICMS><indDeduzDeson>1</indDeduzDeson></ICMS20>');
  });

  it('informed only (deducted false): vNF keeps the 50,000.00, vICMSDeson still totals 3,750.60 (W04a-10), indDeduzDeson 0', () => {
    const { total, xml } = prepared(taxpayerSale(item(false), 'SP', 50_000));
    expect([total.vProd, total.vICMSDeson, total.vNF]).toEqual([5_000_000, 375_060, 5_000_000]);
    expect(xml).toContain('<motDesICMS>9</motDesICMS><indDeduzDeson>0</indDeduzDeson></ICMS20>');
    const wrongPayment = taxpayerSale(item(false), 'SP', 46_249.4);
    expect(validateNfeRequest(wrongPayment, NFE_CONTEXT).map((e) => e.field)).toContain('payment');
  });
});

describe('ICMS-ST base with the IPI (LC 87/96 art. 8 II, Convênio ICMS 142/2018)', () => {
  // SP -> RJ to a taxpayer for resale: 20 x 189.00 = 3,780.00; IPI 5% = 189.00; own ICMS 12% on
  // 3,780.00 (IPI out: LC 87/96 art. 13 par. 2) = 453.60; ST base (3,780.00 + 189.00) x 1.5882 =
  // 6,303.5658 -> 6,303.57; ST 6,303.57 x 20% = 1,260.71 - 453.60 = 807.11; FCP-ST 2% = 126.07;
  // vNF = 3,780.00 + 189.00 + 807.11 + 126.07 = 4,902.18.
  const item: NfeItem = {
    description: 'Peca de reposicao', quantity: 20, unit_price: 189, ncm: '84713012', cfop: '6403', unit: 'UN', cst_icms: '10', pICMS: 12, cest: '0100100',
    ipi: { cst: '50', rate: 5 }, st: { mva: 58.82, rate: 20, fcp_rate: 2 },
  };

  it('vBCST 6,303.57, vICMSST 807.11, vFCPST 126.07 (not 6,003.40, 747.08, 120.07 without the IPI)', () => {
    const { total, det } = prepared(taxpayerSale(item, 'RJ', 4_902.18));
    expect(det[0]!.icms.own?.vBC).toBe(378_000);
    expect(det[0]!.icms.own?.vICMS).toBe(45_360);
    expect([total.vIPI, total.vBCST, total.vST, total.vFCPST, total.vNF]).toEqual([18_900, 630_357, 80_711, 12_607, 490_218]);
  });
});

describe('Simples Nacional ST (CSOSN 201/202/203): the own operation rate is required', () => {
  // RS -> RS, CSOSN 202, 12 x 4.59 = 55.08; ST base 55.08 x 1.70 = 93.636 -> 93.64; 18% = 16.8552
  // -> 16.86; own ICMS 55.08 x 18% = 9.9144 -> 9.91; ST due 16.86 - 9.91 = 6.95 (LC 87/96 art. 8 par. 5).
  const ctx = { ...NFE_CONTEXT, issuer: ALPHANUMERIC_ISSUER };
  const item = (pICMS?: number): NfeItem => ({
    description: 'Refrigerante lata', quantity: 12, unit_price: 4.59, ncm: '22021000', cfop: '5403', unit: 'UN', csosn: '202', cest: '0300700', st: { mva: 70, rate: 18 },
    ...(pICMS === undefined ? {} : { pICMS }),
  });

  it('refuses the sale without pICMS, naming items[0].pICMS', () => {
    const errors = validateNfeRequest(taxpayerSale(item(), 'RS', 55.08 + 16.86), ctx);
    const e = errors.find((x) => x.field === 'items[0].pICMS');
    expect(e?.message).toMatch(/is required with CSOSN 202: the ICMS rate of your own operation/);
  });

  it('with pICMS 18: vBCST 93.64, vICMSST 6.95, vNF 62.03', () => {
    const { total } = prepared(taxpayerSale(item(18), 'RS', 62.03), ctx);
    expect([total.vBCST, total.vST, total.vNF]).toEqual([9_364, 695, 6_203]);
  });
});
