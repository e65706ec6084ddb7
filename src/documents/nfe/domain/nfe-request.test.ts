import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { validateNfe } from '../../../fiscal/xml/xsd/validate-xml.js';
import { interstateRequest, NFE_CONTEXT, nfeDocumentContext } from '../../../../test/support/nfe-fixtures.js';
import { buildPreparedNfe } from './build-nfe.js';
import { NfeRequestSchema } from './nfe-request.js';
import { prepareNfe } from './prepare-nfe.js';
import { nfeXsdPathToField } from './xsd-path-to-field.js';
import { SaleItemSchema } from '../../goods/domain/sale-item.js';

describe('NfeRequestSchema (for the HTTP route)', () => {
  it('accepts the request the domain accepts, refuses unknown fields and values', () => {
    expect(Value.Check(NfeRequestSchema, interstateRequest())).toBe(true);
    expect(Value.Check(NfeRequestSchema, { ...interstateRequest(), idDest: 2 })).toBe(false); // derived, never asked for
    expect(Value.Check(NfeRequestSchema, { ...interstateRequest(), finalidade: 'estorno' })).toBe(false);
    // The tax reform's credit and debit notes (finNFe 5/6) with their type codes (TTpNFCredito / TTpNFDebito).
    expect(Value.Check(NfeRequestSchema, { ...interstateRequest(), finalidade: 'credito', credit_type: '04' })).toBe(true);
    expect(Value.Check(NfeRequestSchema, { ...interstateRequest(), finalidade: 'debito', debit_type: '09' })).toBe(false);
    const noRecipient: Partial<ReturnType<typeof interstateRequest>> = interstateRequest();
    delete noRecipient.destinatario;
    expect(Value.Check(NfeRequestSchema, noRecipient)).toBe(false);
  });

  it('reuses the NFC-e item fields and documents the new ones', () => {
    const item = NfeRequestSchema.properties.items.items.properties;
    expect((item.ncm as { description?: string }).description).toMatch(/8 digits/);
    expect((item.difal as { description?: string }).description).toMatch(/interstate sale to a non-taxpayer final consumer/);
    expect((item.icms_partilha as { description?: string }).description).toMatch(/^ICMSPart \(MOC N10a\)/);
    expect((item.st_repasse as { description?: string }).description).toMatch(/^ICMSST \(MOC N10b\)/);
  });

  it('the NFC-e item has neither icms_partilha nor st_repasse (an NFC-e rejects them: 741, 740)', () => {
    const nfceItem = { description: 'Cafe', quantity: 1, unit_price: 10, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '60' };
    expect(Value.Check(SaleItemSchema, nfceItem)).toBe(true);
    expect(Value.Check(SaleItemSchema, { ...nfceItem, st_repasse: { destination_base: 1, destination_amount: 1 } })).toBe(false);
    expect(Value.Check(SaleItemSchema, { ...nfceItem, cst_icms: '10', icms_partilha: { operation_base_share: 1, uf_st: 'SP' } })).toBe(false);
  });
});

describe('nfeXsdPathToField', () => {
  it('maps the model 55 groups to request fields and the shared ones as the NFC-e does', () => {
    expect(nfeXsdPathToField('/NFe/infNFe/ide/natOp')).toBe('natureza_operacao');
    expect(nfeXsdPathToField('/NFe/infNFe/ide/NFref[2]/refNFe')).toBe('referenced_documents[1]');
    expect(nfeXsdPathToField('/NFe/infNFe/dest/enderDest/cMun')).toBe('destinatario.address.city_code');
    expect(nfeXsdPathToField('/NFe/infNFe/dest/IE')).toBe('destinatario.ie');
    expect(nfeXsdPathToField('/NFe/infNFe/autXML[3]/CNPJ')).toBe('aut_xml[2]');
    expect(nfeXsdPathToField('/NFe/infNFe/det[2]/imposto/IPI/IPITrib/pIPI')).toBe('items[1].ipi.rate');
    expect(nfeXsdPathToField('/NFe/infNFe/det[1]/imposto/ICMSUFDest/pICMSUFDest')).toBe('items[0].difal.destination_rate');
    expect(nfeXsdPathToField('/NFe/infNFe/det[1]/prod/vFrete')).toBe('freight');
    expect(nfeXsdPathToField('/NFe/infNFe/det[2]/imposto/ICMS/ICMSPart/UFST')).toBe('items[1].icms_partilha.uf_st');
    expect(nfeXsdPathToField('/NFe/infNFe/det[1]/imposto/ICMS/ICMSPart/pBCOp')).toBe('items[0].icms_partilha.operation_base_share');
    expect(nfeXsdPathToField('/NFe/infNFe/det[1]/imposto/ICMS/ICMSST/vICMSSTDest')).toBe('items[0].st_repasse.destination_amount');
    expect(nfeXsdPathToField('/NFe/infNFe/det[1]/imposto/ICMS/ICMSST/pFCPSTRet')).toBe('items[0].st_repasse.retained_fcp.rate');
    expect(nfeXsdPathToField('/NFe/infNFe/det[1]/imposto/ICMS/ICMSST/vBCSTRet')).toBe('items[0].st_retained.base');
    expect(nfeXsdPathToField('/NFe/infNFe/det[3]/prod/NCM')).toBe('items[2].ncm');
    expect(nfeXsdPathToField('/NFe/infNFe/transp/veicTransp/placa')).toBe('transporte.veiculo.placa');
    expect(nfeXsdPathToField('/NFe/infNFe/transp/vol[2]/pesoB')).toBe('transporte.volumes[1].gross_weight');
    expect(nfeXsdPathToField('/NFe/infNFe/cobr/dup[4]/dVenc')).toBe('cobranca.duplicatas[3].vencimento');
    expect(nfeXsdPathToField('/NFe/infNFe/infAdic/infAdFisco')).toBe('fisco_info');
    expect(nfeXsdPathToField('/NFe/infNFe/emit/IE')).toBe('issuer.ie');
  });

  it('maps a real schema error of a tampered note (validateNfe with the official XSD) to the item field', () => {
    const p = prepareNfe(interstateRequest(), NFE_CONTEXT);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const { xml } = buildPreparedNfe(p.nfe, nfeDocumentContext());
    expect(validateNfe(xml, 'PL_009').valid).toBe(true);
    const result = validateNfe(xml.replace('<cEnq>999</cEnq>', '<cEnq>9999</cEnq>'), 'PL_009');
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => nfeXsdPathToField(e.path ?? ''))).toContain('items[0].ipi.enquadramento');
  });
});
