import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../documents/nfe/domain/index.js';
import type { NfeRequest } from '../documents/nfe/domain/nfe-request.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from '../../test/support/nfe-fixtures.js';
import { nfeFacts } from './nfe-facts.js';
import { totalRejection } from './nfe-total-rules.js';

// MOC W16-10 (610) with NT 2023.004 (docs/fiscal/icms-relief.md): notes the gateway builds pass;
// the same notes altered the way a faulty client writes them are refused with the table's text.

/** SP -> SP to a taxpayer: CST 20, 1 x 50,000.00 with a relief of 3,750.60 (deducted unless told). */
function reliefNote(deducted?: boolean): string {
  const req: NfeRequest = interstateRequest();
  req.destinatario = {
    cnpj: '11222333000181', name: 'Mercado Boa Compra Ltda', indicador_ie: 'contribuinte', ie: '110042490114',
    address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3509502', city: 'Campinas', uf: 'SP' },
  };
  req.presenca = 'nao_se_aplica';
  delete req.freight;
  req.items = [{
    description: 'Trator agricola', quantity: 1, unit_price: 50_000, ncm: '87019100', cfop: '5102', unit: 'UN', cst_icms: '20', pICMS: 18, icms_base_reduction: 41.67,
    icms_relief: { amount: 3_750.6, reason: 9, ...(deducted === undefined ? {} : { deducted }) },
  }];
  req.payment = { method: 'boleto', amount: deducted === false ? 50_000 : 46_249.4 };
  const p = prepareNfe(req, NFE_CONTEXT);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return buildPreparedNfe(p.nfe, nfeDocumentContext()).xml;
}
const rejectionOf = (xml: string) => totalRejection(nfeFacts(xml));
const MESSAGE = 'Rejeição: Total da NF difere do somatório dos Valores compõe o valor Total da NF.';

describe('totalRejection (W16-10, 610)', () => {
  it('passes the notes the gateway builds: relief deducted (vNF 46,249.40) or only informed (vNF 50,000.00), and the DIFAL sale', () => {
    expect(rejectionOf(reliefNote())).toBeNull();
    expect(rejectionOf(reliefNote(false))).toBeNull();
    const p = prepareNfe(interstateRequest(), NFE_CONTEXT);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    expect(rejectionOf(buildPreparedNfe(p.nfe, nfeDocumentContext()).xml)).toBeNull();
  });

  it('refuses a vNF that deducts vICMSDeson without indDeduzDeson 1 (the gateway\'s old notes)', () => {
    // 50,000.00 - 3,750.60 = 46,249.40 written, but with no indicator (or 0) the parts add up to 50,000.00.
    const withoutIndicator = reliefNote().replace('<indDeduzDeson>1</indDeduzDeson>', '');
    const r = rejectionOf(withoutIndicator);
    expect(r).toMatchObject({ cStat: 610, xMotivo: MESSAGE });
    expect(r?.detail).toMatch(/vNF 46249.40 but its parts add up to 50000.00; vICMSDeson 3750.60, of which indDeduzDeson 1 deducts 0.00/);
    expect(rejectionOf(reliefNote().replace('<indDeduzDeson>1</indDeduzDeson>', '<indDeduzDeson>0</indDeduzDeson>'))?.cStat).toBe(610);
  });

  it('refuses a vNF that keeps the relief the item says it deducts, and any other cent off', () => {
    expect(rejectionOf(reliefNote(false).replace('<indDeduzDeson>0</indDeduzDeson>', '<indDeduzDeson>1</indDeduzDeson>'))?.cStat).toBe(610);
    expect(rejectionOf(reliefNote().replace('<vNF>46249.40</vNF>', '<vNF>46249.41</vNF>'))?.cStat).toBe(610);
  });

  it('does not check imports (a CFOP starting with 3, exception 2)', () => {
    const imported = reliefNote().replace('<CFOP>5102</CFOP>', '<CFOP>3102</CFOP>').replace('<vNF>46249.40</vNF>', '<vNF>1.00</vNF>');
    expect(rejectionOf(imported)).toBeNull();
  });
});
