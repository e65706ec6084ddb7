import { describe, expect, it } from 'vitest';
import { dpsPathToField } from './dps-path-to-field.js';
import { explainNfseRejection } from './nfse-rejection.js';

describe('NFS-e rejections name the request field', () => {
  it('maps DPS paths from the XSD and from Anexo I to request fields', () => {
    expect(dpsPathToField('/DPS/infDPS/toma/end/endNac/CEP')).toBe('tomador.address.cep');
    expect(dpsPathToField('DPS/infDPS/toma/CPF')).toBe('tomador.cpf');
    expect(dpsPathToField('/DPS/infDPS/interm/xNome')).toBe('intermediario.name');
    expect(dpsPathToField('/DPS/infDPS/valores/trib/tribMun/pAliq')).toBe('values.iss.rate');
    expect(dpsPathToField('/DPS/infDPS/serv/cServ/cTribNac')).toBe('service.national_code');
    expect(dpsPathToField('/DPS/infDPS/prest/regTrib/regEspTrib')).toBe('issuer.nfse.special_regime');
    expect(dpsPathToField('DPS/Signature')).toBe('issuer.nfse.signature_profile');
    expect(dpsPathToField('/DPS/infDPS/dCompet')).toBe('competence_date');
  });

  it('explains a signature refusal with the official message and what to change', () => {
    const r = explainNfseRejection([{ code: 'E0714', description: '' }]);
    expect(r).toMatchObject({ code: 'E0714', message: 'Arquivo enviado com erro na assinatura.', field: 'issuer.nfse.signature_profile' });
    expect(r.hint).toContain('nfse.signature_profile');
  });

  it('takes the field of a schema failure from the path in the complement', () => {
    const r = explainNfseRejection([{ code: 'E1235', description: 'Falha no esquema XML do DF-e.', complement: "/DPS/infDPS/toma/end/endNac/CEP: Element '{http://www.sped.fazenda.gov.br/nfse}CEP': [facet 'pattern'] The value '123' is not accepted" }]);
    expect(r.field).toBe('tomador.address.cep');
    expect(r.message).toContain('Falha no esquema XML do DF-e.');
  });

  it('lists every error and keeps unknown codes readable', () => {
    const r = explainNfseRejection([{ code: 'E0015', description: 'x' }, { code: 'E9999', description: 'y' }]);
    expect(r.field).toBe('competence_date');
    expect(r.errors).toHaveLength(2);
    expect(r.errors![1]).toEqual({ code: 'E9999', message: 'y', field: null });
  });
});
