import { describe, expect, it } from 'vitest';
import { validateNfe } from '../fiscal/xml/xsd/validate-xml.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from '../../test/support/nfce-fixtures.js';
import { buildNfce } from './build-nfce.js';
import { xsdPathToField } from './xsd-path-to-field.js';

describe('xsdPathToField', () => {
  it('maps item, tax, consumer and payment paths to request fields', () => {
    expect(xsdPathToField('/NFe/infNFe/det[3]/prod/NCM')).toBe('items[2].ncm');
    expect(xsdPathToField('/NFe/infNFe/det[1]/prod/xProd')).toBe('items[0].description');
    expect(xsdPathToField('/NFe/infNFe/det[2]/imposto/ICMS/ICMS10/pICMSST')).toBe('items[1].st.rate');
    expect(xsdPathToField('/NFe/infNFe/det[2]/imposto/ICMS/ICMSSN101/pCredSN')).toBe('items[1].simples_credit_rate');
    expect(xsdPathToField('/NFe/infNFe/det[4]/imposto/PIS/PISAliq/pPIS')).toBe('items[3].pis.rate');
    expect(xsdPathToField('/NFe/infNFe/det[1]/imposto/IBSCBS/gIBSCBS/gCBS/pCBS')).toBe('items[0].reform.cbs_rate');
    expect(xsdPathToField('/NFe/infNFe/dest/enderDest/cMun')).toBe('consumer.address.city_code');
    expect(xsdPathToField('/NFe/infNFe/pag/detPag[2]/card/tBand', { payments: [] })).toBe('payments[1].card_brand');
    expect(xsdPathToField('/NFe/infNFe/pag/detPag/vPag', { payment: { method: 'pix', amount: 1 } })).toBe('payment.amount');
    expect(xsdPathToField('/NFe/infNFe/infAdic/infCpl')).toBe('additional_info');
    expect(xsdPathToField('/NFe/infNFe/ide/dhEmi')).toBeNull();
  });

  it('maps a real schema error of a tampered document to the item field', () => {
    const { xml } = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER));
    const tampered = xml.replace('<NCM>19059090</NCM>', '<NCM>1905909</NCM>');
    const result = validateNfe(tampered, 'PL_010');
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => xsdPathToField(e.path ?? ''))).toContain('items[1].ncm');
  });
});
