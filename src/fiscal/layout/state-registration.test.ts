import { describe, expect, it } from 'vitest';
import { IE_STATES, isStateRegistrationValid, stateRegistrationProblem } from './state-registration.js';

// Valid registrations: the worked examples of SINTEGRA's "Conferência de Inscrições Estaduais" pages
// (docs/fiscal/state-registration.md), each recomputed by hand there; MS from a public library's
// fixtures, recomputed the same way. The invalid one of each state changes only the last check digit.
const CASES: Record<string, { valid: string[]; invalid: string }> = {
  AC: { valid: ['0100482300112'], invalid: '0100482300113' },
  AL: { valid: ['240000048'], invalid: '240000049' },
  AP: { valid: ['030123459'], invalid: '030123458' },
  AM: { valid: ['999999990'], invalid: '999999991' },
  BA: { valid: ['12345663', '100000306'], invalid: '12345664' },
  CE: { valid: ['060000015'], invalid: '060000016' },
  DF: { valid: ['0730000100109'], invalid: '0730000100108' },
  ES: { valid: ['999999990'], invalid: '999999999' },
  GO: { valid: ['109876547'], invalid: '109876548' },
  MA: { valid: ['120000385'], invalid: '120000386' },
  MT: { valid: ['00130000019'], invalid: '00130000018' },
  MS: { valid: ['280405383'], invalid: '280405384' },
  MG: { valid: ['0623079040081'], invalid: '0623079040082' },
  PA: { valid: ['159999995'], invalid: '159999996' },
  PB: { valid: ['060000015'], invalid: '060000014' },
  PR: { valid: ['1234567850', '9022433056'], invalid: '9022433051' },
  PE: { valid: ['032141840', '18100100000049'], invalid: '032141841' },
  PI: { valid: ['012345679'], invalid: '012345670' },
  RJ: { valid: ['99999993'], invalid: '99999994' },
  RN: { valid: ['200400401', '2000400400'], invalid: '200400402' },
  RS: { valid: ['2243658792'], invalid: '2243658793' },
  RO: { valid: ['00000000625213'], invalid: '00000000625214' },
  RR: { valid: ['240066281'], invalid: '240066282' },
  SC: { valid: ['251040852'], invalid: '251040853' },
  SP: { valid: ['110042490114', 'P011004243002'], invalid: '110042490115' },
  SE: { valid: ['271234563'], invalid: '271234564' },
  TO: { valid: ['29010227836', '290227836'], invalid: '29010227837' },
};

describe('state registration (IE) check digits, SINTEGRA', () => {
  it('covers the 27 states', () => {
    expect(IE_STATES.sort()).toEqual(Object.keys(CASES).sort());
    expect(IE_STATES).toHaveLength(27);
  });

  for (const [uf, { valid, invalid }] of Object.entries(CASES)) {
    it(`${uf}: accepts ${valid.join(', ')} and refuses ${invalid}`, () => {
      for (const ie of valid) expect(stateRegistrationProblem(uf, ie), ie).toBeNull();
      expect(stateRegistrationProblem(uf, invalid)).toMatch(/check digit/);
    });
  }

  it('normalizes the length by leading zeros (MOC footnote *2)', () => {
    expect(isStateRegistrationValid('MT', '130000019')).toBe(true); // 00130000019 without its zeros
    expect(isStateRegistrationValid('RO', '625213')).toBe(true);
    expect(isStateRegistrationValid('BA', '012345663')).toBe(true);
    expect(stateRegistrationProblem('RJ', '0099999993')).toBeNull();
  });

  it('refuses wrong sizes, compositions and all zeros', () => {
    expect(stateRegistrationProblem('PR', '12345678501')).toMatch(/too many digits/);
    expect(stateRegistrationProblem('AL', '250000048')).toMatch(/must start with 24/);
    expect(stateRegistrationProblem('SP', '0000')).toMatch(/zeros/);
    expect(stateRegistrationProblem('SP', 'ISENTO')).toMatch(/digits only/);
    expect(stateRegistrationProblem('XX', '123')).toMatch(/not a Brazilian state/);
    expect(stateRegistrationProblem('GO', '11094402' + '0')).toBeNull(); // SINTEGRA: both 0 and 1 accepted
    expect(stateRegistrationProblem('GO', '11094402' + '1')).toBeNull();
  });
});
