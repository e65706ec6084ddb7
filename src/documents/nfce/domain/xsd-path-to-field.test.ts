import { describe, expect, it } from 'vitest';
import { validateNfe } from '../../../fiscal/xml/xsd/validate-xml.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from '../../../../test/support/nfce-fixtures.js';
import { buildNfce } from './build-nfce.js';
import { xsdPathToField } from '../../goods/domain/xsd-path-to-field.js';

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

  it('maps every path of the issuer block (emit) to the issuer field to correct', () => {
    expect(xsdPathToField('/NFe/infNFe/emit/xNome')).toBe('issuer.razao_social');
    expect(xsdPathToField('/NFe/infNFe/emit/xFant')).toBe('issuer.nome_fantasia');
    expect(xsdPathToField('/NFe/infNFe/emit/IE')).toBe('issuer.ie');
    expect(xsdPathToField('/NFe/infNFe/emit/CRT')).toBe('issuer.regime_tributario');
    expect(xsdPathToField('/nfe:NFe/nfe:infNFe/nfe:emit/nfe:enderEmit/nfe:xLgr')).toBe('issuer.endereco.logradouro');
    expect(xsdPathToField('/NFe/infNFe/emit/enderEmit/nro')).toBe('issuer.endereco.numero');
    expect(xsdPathToField('/NFe/infNFe/emit/enderEmit/xCpl')).toBe('issuer.endereco.complemento');
    expect(xsdPathToField('/NFe/infNFe/emit/enderEmit/xBairro')).toBe('issuer.endereco.bairro');
    expect(xsdPathToField('/NFe/infNFe/emit/enderEmit/xMun')).toBe('issuer.endereco.codigo_municipio');
    expect(xsdPathToField('/NFe/infNFe/emit/enderEmit/fone')).toBe('issuer.endereco.telefone');
    expect(xsdPathToField('/NFe/infNFe/emit/enderEmit/CEP')).toBe('issuer.endereco.cep');
    expect(xsdPathToField('/NFe/infNFe/emit/enderEmit/xPais')).toBe('issuer.endereco');
    expect(xsdPathToField('/NFe/infNFe/emit/IM')).toBe('issuer');
    expect(xsdPathToField('/NFe/infNFe/emit')).toBe('issuer');
  });

  it('maps a real schema error of an issuer name the layout cannot carry to issuer.razao_social', () => {
    const { xml } = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER));
    const tampered = xml.replace(/<xNome>[^<]*<\/xNome>/, '<xNome>Padaria \u202E Ltda</xNome>');
    const result = validateNfe(tampered, 'PL_010');
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => xsdPathToField(e.path ?? ''))).toContain('issuer.razao_social');
  });

  it('maps a real schema error of a tampered document to the item field', () => {
    const { xml } = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER));
    const tampered = xml.replace('<NCM>19059090</NCM>', '<NCM>1905909</NCM>');
    const result = validateNfe(tampered, 'PL_010');
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => xsdPathToField(e.path ?? ''))).toContain('items[1].ncm');
  });
});
