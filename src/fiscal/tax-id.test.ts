import { describe, expect, it } from 'vitest';
import { cnpjCheckDigits, cnpjProblem, cpfProblem, issuerIeProblem, isValidTaxId } from './tax-id.js';

describe('CNPJ check digits (docs/fiscal/access-key.md#alphanumeric-cnpj)', () => {
  it('computes the worked examples, alphanumeric included', () => {
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
    expect(cnpjCheckDigits('PC3D315K0001')).toBe('93');
    expect(cnpjCheckDigits('061572500001')).toBe('16');
  });

  it('accepts real and alphanumeric CNPJs and explains the others', () => {
    expect(cnpjProblem('06157250000116')).toBeNull();
    expect(cnpjProblem('12ABC34501DE35')).toBeNull();
    expect(cnpjProblem('PC3D315K000193')).toBeNull();
    expect(cnpjProblem('06157250000117')).toMatch(/check digits/);
    expect(cnpjProblem('12ABC34501DE36')).toMatch(/check digits/);
    expect(cnpjProblem('06.157.250/0001-16')).toMatch(/14 characters/);
    expect(cnpjProblem('12abc34501de35')).toMatch(/capital letters/);
    expect(cnpjProblem('12ABC34501DEAB')).toMatch(/check digits|14 characters/);
    expect(cnpjProblem('00000000000000')).toMatch(/all digits equal/);
  });
});

describe('CPF and IE', () => {
  it('checks CPF digits', () => {
    expect(cpfProblem('90483926086')).toBeNull();
    expect(cpfProblem('90483926087')).toMatch(/check digits/);
    expect(cpfProblem('904.839.260-86')).toMatch(/11 digits/);
    expect(isValidTaxId('904.839.260-86')).toBe(true);
    expect(isValidTaxId('06.157.250/0001-16')).toBe(true);
  });

  it('follows XSD TIe for issuers but refuses ISENTO', () => {
    expect(issuerIeProblem('12')).toBeNull();
    expect(issuerIeProblem('110042490114')).toBeNull();
    expect(issuerIeProblem('12345678901234')).toBeNull();
    expect(issuerIeProblem('1')).toMatch(/2 to 14 digits/);
    expect(issuerIeProblem('123456789012345')).toMatch(/2 to 14 digits/);
    expect(issuerIeProblem('110.042.490.114')).toMatch(/2 to 14 digits/);
    expect(issuerIeProblem('ISENTO')).toMatch(/ISENTO is not allowed/);
  });
});
