import { describe, expect, it } from 'vitest';
import { accessKeyCheckDigit, buildAccessKey, parseAccessKey } from './access-key.js';
import { cnpjCheckDigits, isValidCnpj, isValidCpf } from '../../kernel/tax-id.js';

describe('access key check digit (MOC 5.4, docs/fiscal/access-key.md)', () => {
  it('recomputes the DV of a real authorised NFC-e key', () => {
    const key = '41170310422724000187650010000000061000005858';
    expect(accessKeyCheckDigit(key.slice(0, 43))).toBe(8);
    expect(parseAccessKey(key)).toMatchObject({ cUF: '41', aamm: '1703', cnpj: '10422724000187', mod: '65', serie: '001', nNF: '000000006', tpEmis: '1', cNF: '00000585', cDV: '8' });
  });

  it('handles an alphanumeric-CNPJ key with the ASCII-48 rule (wmixvideo/nfe example)', () => {
    const key = '3526050X0J92JY000196570010000006041448679011';
    expect(accessKeyCheckDigit(key.slice(0, 43))).toBe(1);
    expect(parseAccessKey(key)?.cnpj).toBe('0X0J92JY000196');
  });

  it('rejects keys with a wrong DV or letters outside positions 7-18', () => {
    expect(parseAccessKey('41170310422724000187650010000000061000005857')).toBeNull();
    expect(parseAccessKey('4117031042272400018765001000000006100000585A')).toBeNull();
    expect(() => accessKeyCheckDigit('A1170310422724000187650010000000061000005')).toThrow();
  });

  it('builds the key from its fields, padding each one', () => {
    const key = buildAccessKey({ cUF: 41, emittedYear: 2017, emittedMonth: 3, cnpj: '10422724000187', mod: 65, serie: 1, nNF: 6, tpEmis: 1, cNF: '00000585' });
    expect(key).toBe('41170310422724000187650010000000061000005858');
  });
});

describe('CNPJ / CPF check digits', () => {
  it('matches the published alphanumeric examples (docs/fiscal/access-key.md#alphanumeric-cnpj)', () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(cnpjCheckDigits('PC3D315K0001')).toBe('93');
    expect(isValidCnpj('PC3D315K000193')).toBe(true);
    expect(isValidCnpj('PC3D315K000194')).toBe(false);
  });
  it('validates numeric CNPJ and CPF', () => {
    expect(isValidCnpj('10422724000187')).toBe(true);
    expect(isValidCnpj('11111111111111')).toBe(false);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224726')).toBe(false);
    expect(isValidCpf('00000000000')).toBe(false);
  });
});
