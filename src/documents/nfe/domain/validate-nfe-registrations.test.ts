import { describe, expect, it } from 'vitest';
import { interstateRequest, NFE_CONTEXT } from '../../../../test/support/nfe-fixtures.js';
import { NUMERIC_ISSUER, simpleSale } from '../../../../test/support/nfce-fixtures.js';
import { validateSale } from '../../nfce/domain/validate-sale.js';
import type { NfeRequest } from './nfe-request.js';
import { validateNfeRequest } from './validate-nfe.js';

// The gateway refuses what the authority would (docs/fiscal/state-registration.md, docs/fiscal/ncm.md):
// 422 naming the field, with the MOC rule id.

function toTaxpayer(ie: string): NfeRequest {
  const req = interstateRequest();
  const { cpf: _cpf, ...dest } = req.destinatario;
  req.destinatario = { ...dest, cnpj: '11222333000181', indicador_ie: 'contribuinte', ie };
  req.consumidor_final = false;
  req.presenca = 'nao_se_aplica';
  req.items = req.items.map(({ difal: _d, ...it }) => it);
  return req;
}
const errorOf = (req: NfeRequest, field: string) => validateNfeRequest(req, NFE_CONTEXT).find((e) => e.field === field);

describe('recipient IE check digits (MOC E17-50, 210)', () => {
  it('accepts a valid RJ registration (SINTEGRA 99.999.99-3)', () => {
    expect(errorOf(toTaxpayer('99999993'), 'destinatario.ie')).toBeUndefined();
  });

  it('refuses a wrong check digit, naming the field and the rule', () => {
    expect(errorOf(toTaxpayer('99999994'), 'destinatario.ie')).toMatchObject({ rule: 'E17-50', message: expect.stringMatching(/check digit.*RJ.*210/) });
  });

  it('refuses a registration of another state (PR 123.45678-50 for an RJ recipient)', () => {
    expect(errorOf(toTaxpayer('1234567850'), 'destinatario.ie')).toMatchObject({ rule: 'E17-50' });
  });
});

describe('NCM in the table (MOC I05-20, 778)', () => {
  it('NF-e: refuses 99999999 on items[i].ncm with the rule', () => {
    const req = interstateRequest();
    req.items[0]!.ncm = '99999999';
    expect(errorOf(req, 'items[0].ncm')).toMatchObject({ rule: 'I05-20', message: expect.stringMatching(/not in the NCM table.*778/) });
  });

  it('NFC-e: refuses 99999999, accepts 00000000 (I05-10 obs. 3) and a code of the table', () => {
    const sale = simpleSale();
    sale.items[0]!.ncm = '99999999';
    expect(validateSale(sale, NUMERIC_ISSUER).find((e) => e.field === 'items[0].ncm')).toMatchObject({ rule: 'I05-20' });
    sale.items[0]!.ncm = '00000000';
    expect(validateSale(sale, NUMERIC_ISSUER).find((e) => e.field === 'items[0].ncm')).toBeUndefined();
    sale.items[0]!.ncm = '09012100';
    expect(validateSale(sale, NUMERIC_ISSUER).find((e) => e.field === 'items[0].ncm')).toBeUndefined();
  });
});
