import { describe, expect, it } from 'vitest';
import type { NfseContext } from './nfse-context.js';
import type { NfseRequest } from './nfse-request.js';
import { prepareNfse } from './prepare-nfse.js';
import { checkNfse } from './validate-nfse.js';

const ctx = (over: Partial<NfseContext['issuer']> = {}, rest: Partial<NfseContext> = {}): NfseContext => ({
  issuer: { taxId: '11444777000161', simplesNacional: 1, specialRegime: 0, cityCode: '3304557', municipalRegistration: '12345', ...over },
  tpAmb: 2,
  taxReform: false,
  today: '2026-03-10',
  ...rest,
});

const base = (): NfseRequest => ({
  issuer_id: 'iss_1',
  competence_date: '2026-03-10',
  service: { national_code: '010101', description: 'Desenvolvimento de software', place_of_provision: { city_code: '3304557' } },
  tomador: { cpf: '529.982.247-25', name: 'Maria da Silva' },
  values: { service_amount: 1000, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido' } },
});

function fieldsOf(req: NfseRequest, c: NfseContext = ctx()): string[] {
  return checkNfse(req, c).map((e) => e.field);
}

function errorOn(req: NfseRequest, field: string, c: NfseContext = ctx()): string {
  const e = checkNfse(req, c).find((x) => x.field === field);
  expect(e, `expected an error on ${field}, got ${JSON.stringify(checkNfse(req, c))}`).toBeDefined();
  return e!.message;
}

describe('checkNfse: each rule names the request field', () => {
  it('accepts a minimal valid request', () => {
    expect(checkNfse(base(), ctx())).toEqual([]);
  });

  it('competence date: a date, not after the emission (E0015), IBS/CBS from 2026 (E0850)', () => {
    expect(errorOn({ ...base(), competence_date: '2026-13-01' }, 'competence_date')).toMatch(/YYYY-MM-DD/);
    expect(errorOn({ ...base(), competence_date: '2026-02-30' }, 'competence_date')).toMatch(/YYYY-MM-DD/);
    expect(errorOn({ ...base(), competence_date: '10/03/2026' }, 'competence_date')).toMatch(/YYYY-MM-DD/);
    expect(errorOn({ ...base(), competence_date: '2026-03-11' }, 'competence_date')).toMatch(/E0015/);
    const r = { ...base(), competence_date: '2025-12-31', service: { ...base().service, nbs: '115022000' }, reform: { operation_code: '100301', cst: '000', class_code: '000001' } };
    expect(errorOn(r, 'reform', ctx({}, { taxReform: true }))).toMatch(/E0850/);
  });

  it('service codes and place of provision', () => {
    const s = base().service;
    expect(errorOn({ ...base(), service: { ...s, national_code: '1010' } }, 'service.national_code')).toMatch(/6 digits/);
    expect(errorOn({ ...base(), service: { ...s, municipal_code: '01' } }, 'service.municipal_code')).toMatch(/3 digits/);
    expect(errorOn({ ...base(), service: { ...s, nbs: '12' } }, 'service.nbs')).toMatch(/9-digit/);
    expect(errorOn({ ...base(), service: { ...s, place_of_provision: {} } }, 'service.place_of_provision')).toMatch(/exactly one/);
    expect(errorOn({ ...base(), service: { ...s, place_of_provision: { country_code: 'BR' } } }, 'service.place_of_provision.country_code')).toMatch(/other than BR/);
    expect(errorOn({ ...base(), service: { ...s, place_of_provision: { city_code: '3300000' } } }, 'service.place_of_provision.city_code')).toMatch(/E0302/);
    expect(errorOn({ ...base(), service: { ...s, municipal_code: '000' } }, 'service.municipal_code')).toMatch(/E0315/);
    expect(errorOn({ ...base(), service: { ...s, national_code: '070201' } }, 'service.national_code')).toMatch(/E0370/);
    expect(errorOn({ ...base(), service: { ...s, national_code: '120101' } }, 'service.national_code')).toMatch(/E0390/);
    expect(errorOn({ ...base(), service: { ...s, place_of_provision: { country_code: 'US' } } }, 'service.nbs')).toMatch(/E0318/);
    expect(errorOn({ ...base(), tomador: { cpf: '52998224725', name: 'X', address: { street: 'R', number: '1', district: 'C', city_code: '3300000', cep: '20010000' } } }, 'tomador.address.city_code')).toMatch(/E0238/);
    expect(errorOn({ ...base(), service: { ...s, description: '' } }, 'service.description')).toMatch(/empty/);
  });

  it('reform: only with reform_2026, needs the NBS code (E0322), an operation of Anexo C (E0901) without real estate (E0932), cClassTrib of its CST (E0959)', () => {
    const r = { ...base(), reform: { operation_code: '100301', cst: '000', class_code: '000001' } };
    expect(errorOn(r, 'reform')).toMatch(/reform_2026/);
    expect(errorOn(r, 'service.nbs', ctx({}, { taxReform: true }))).toMatch(/E0322/);
    const tpOper = { ...r, service: { ...r.service, national_code: '250501', nbs: '115022000' } };
    expect(errorOn(tpOper, 'reform', ctx({}, { taxReform: true }))).toMatch(/E0903/);
    const on = ctx({}, { taxReform: true });
    const withNbs = (reform: typeof r.reform) => ({ ...r, service: { ...r.service, nbs: '115022000' }, reform });
    expect(errorOn(withNbs({ ...r.reform, operation_code: '999999' }), 'reform.operation_code', on)).toMatch(/E0901/);
    expect(errorOn(withNbs({ ...r.reform, operation_code: '020101' }), 'reform.operation_code', on)).toMatch(/E0932/);
    expect(errorOn(withNbs({ ...r.reform, class_code: '010001' }), 'reform.class_code', on)).toMatch(/E0959/);
  });

  it('taker: one id, check digits, not the provider, addresses (E0188, E0206, E0202, E0235, E0223)', () => {
    expect(errorOn({ ...base(), tomador: { name: 'X' } }, 'tomador')).toMatch(/exactly one/);
    expect(errorOn({ ...base(), tomador: { cpf: '52998224724', name: 'X' } }, 'tomador.cpf')).toMatch(/check digits/);
    expect(errorOn({ ...base(), tomador: { cnpj: '11222333000182', name: 'X' } }, 'tomador.cnpj')).toMatch(/check digits/);
    expect(errorOn({ ...base(), tomador: { cnpj: '11444777000242', name: 'X' } }, 'tomador.cnpj')).toMatch(/provider/);
    expect(errorOn({ ...base(), tomador: { cnpj: '11222333000181', name: 'X' } }, 'tomador.address')).toMatch(/E0235/);
    const abroad = { street: 'Main St', number: '1', district: 'Downtown', country_code: 'US', postal_code: '10001', city: 'New York', state_region: 'NY' };
    expect(errorOn({ ...base(), tomador: { cpf: '52998224725', name: 'X', address: abroad } }, 'tomador.address')).toMatch(/E0223/);
    expect(errorOn({ ...base(), tomador: { nif: '123', name: 'X' } }, 'tomador.address')).toMatch(/abroad/);
    expect(errorOn({ ...base(), tomador: { cpf: '52998224725', name: 'X', email: 'no-at' } }, 'tomador.email')).toMatch(/e-mail/);
    expect(errorOn({ ...base(), tomador: { cpf: '52998224725', name: 'X', address: { street: 'R', number: '1', district: 'C', city_code: '33', cep: '1' } } }, 'tomador.address.city_code')).toMatch(/7-digit/);
  });

  it('intermediary: same shape and rules under its own path (E0248, E0266)', () => {
    expect(errorOn({ ...base(), intermediario: { cpf: '11111111111', name: 'X' } }, 'intermediario.cpf')).toMatch(/valid CPF.*E0266/);
    expect(errorOn({ ...base(), intermediario: { cnpj: '11222333000182', name: 'X' } }, 'intermediario.cnpj')).toMatch(/E0248/);
    expect(errorOn({ ...base(), intermediario: { cnpj: '11444777000242', name: 'X' } }, 'intermediario.cnpj')).toMatch(/E0262/);
  });

  it('ISS retention needs an identified party with an address in Brazil (E0204, E0237, E0264, E0293)', () => {
    const v = base().values;
    expect(errorOn({ ...base(), tomador: undefined, values: { ...v, iss: { retained: 'tomador' } } }, 'values.iss.retained')).toMatch(/E0204/);
    expect(errorOn({ ...base(), values: { ...v, iss: { retained: 'tomador' } } }, 'values.iss.retained')).toMatch(/E0237/);
    expect(errorOn({ ...base(), values: { ...v, iss: { retained: 'intermediario' } } }, 'values.iss.retained')).toMatch(/E0264/);
  });

  it('ISS rate: two decimals, at most 5, absent for MEI, special regimes and non-taxable services; ME/EPP withheld needs it', () => {
    const v = base().values;
    const withRate = (rate: number) => ({ ...base(), values: { ...v, iss: { retained: 'nao_retido' as const, rate } } });
    expect(errorOn(withRate(5.5), 'values.iss.rate')).toMatch(/E0595/);
    expect(errorOn(withRate(2.555), 'values.iss.rate')).toMatch(/2 decimal/);
    expect(errorOn(withRate(2), 'values.iss.rate', ctx({ simplesNacional: 2 }))).toMatch(/E0600/);
    expect(errorOn(withRate(2), 'values.iss.rate', ctx({ specialRegime: 1 }))).toMatch(/E0604/);
    const immune = { ...base(), values: { ...v, iss: { retained: 'nao_retido' as const, rate: 2, taxation: 'imunidade' as const, immunity_type: 1 } } };
    expect(errorOn(immune, 'values.iss.rate')).toMatch(/E0602/);
    const addr = { street: 'Rua A', number: '1', district: 'Centro', city_code: '3304557', cep: '20010000' };
    const meWithheld = { ...base(), tomador: { cpf: '52998224725', name: 'X', address: addr }, values: { ...v, iss: { retained: 'tomador' as const } } };
    expect(errorOn(meWithheld, 'values.iss.rate', ctx({ simplesNacional: 3, simplesRegime: 1 }))).toMatch(/E0621/);
    expect(fieldsOf({ ...meWithheld, values: { ...v, iss: { retained: 'tomador', rate: 2 } } }, ctx({ simplesNacional: 3, simplesRegime: 1 }))).toEqual([]);
  });

  it('ISS taxation: immunity type, export country, special regime only when taxable (E0172)', () => {
    const v = base().values;
    expect(errorOn({ ...base(), values: { ...v, iss: { retained: 'nao_retido', taxation: 'imunidade' } } }, 'values.iss.immunity_type')).toMatch(/required/);
    expect(errorOn({ ...base(), values: { ...v, iss: { retained: 'nao_retido', taxation: 'exportacao', export_country: 'BR' } } }, 'values.iss.export_country')).toMatch(/other than BR/);
    expect(errorOn({ ...base(), service: { ...base().service, national_code: '990101' } }, 'values.iss.taxation')).toMatch(/E0532/);
    const susp = { type: 'decisao_judicial' as const, process_number: '1'.repeat(30) };
    expect(errorOn({ ...base(), values: { ...v, iss: { retained: 'nao_retido', taxation: 'nao_incidencia', suspension: susp } } }, 'values.iss.suspension')).toMatch(/E0585/);
    expect(errorOn({ ...base(), values: { ...v, iss: { retained: 'nao_retido', suspension: { ...susp, process_number: '12' } } } }, 'values.iss.suspension.process_number')).toMatch(/30 digits/);
    expect(errorOn({ ...base(), values: { ...v, iss: { retained: 'nao_retido', taxation: 'nao_incidencia' } } }, 'values.iss.taxation', ctx({ specialRegime: 1 }))).toMatch(/E0172/);
  });

  it('values consistency (E0431, E0432, E0427, E0428, E0435, E0436, E0438)', () => {
    const v = base().values;
    expect(errorOn({ ...base(), values: { ...v, unconditional_discount: 1000 } }, 'values.unconditional_discount')).toMatch(/E0431/);
    expect(errorOn({ ...base(), values: { ...v, conditional_discount: 1200 } }, 'values.conditional_discount')).toMatch(/E0432/);
    expect(errorOn({ ...base(), values: { ...v, deductions: 1000.01 } }, 'values.deductions')).toMatch(/E0427/);
    expect(errorOn({ ...base(), values: { ...v, deductions: 600, unconditional_discount: 500 } }, 'values.deductions')).toMatch(/E0427/);
    expect(errorOn({ ...base(), values: { ...v, deductions: 10 } }, 'values.deductions', ctx({ simplesNacional: 2 }))).toMatch(/E0436/);
    expect(errorOn({ ...base(), values: { ...v, deduction_rate: 10 } }, 'values.deduction_rate', ctx({ simplesNacional: 2 }))).toMatch(/E0436/);
    expect(errorOn({ ...base(), values: { ...v, deduction_rate: 100.01 } }, 'values.deduction_rate')).toMatch(/at most 100/);
    expect(errorOn({ ...base(), values: { ...v, deduction_rate: 0 } }, 'values.deduction_rate')).toMatch(/greater than zero/);
    expect(errorOn({ ...base(), values: { ...v, deduction_rate: 10, deductions: 5 } }, 'values.deduction_rate')).toMatch(/not both/);
    expect(errorOn({ ...base(), values: { ...v, deductions: 10 } }, 'values.deductions', ctx({ specialRegime: 3 }))).toMatch(/E0438/);
    expect(errorOn({ ...base(), values: { ...v, service_amount: 0 } }, 'values.service_amount')).toMatch(/greater than zero/);
    expect(errorOn({ ...base(), values: { ...v, federal: { withholdings: { csll: 1.234 } } } }, 'values.federal.withholdings.csll')).toMatch(/decimal/);
    expect(errorOn({ ...base(), values: { ...v, federal: { pis_cofins: { cst: '01', pis_rate: 100 } } } }, 'values.federal.pis_cofins.pis_rate')).toMatch(/99.99/);
    expect(errorOn({ ...base(), values: { ...v, federal: { pis_cofins: { cst: '10' } } } }, 'values.federal.pis_cofins.cst')).toMatch(/TSTipoCST/);
    // E0444 / E0447: a deduction may not bring the ISSQN below 2 % (7.02, 7.05, 16.01 aside); E0588/E0596: no retention with a special regime or for 22.01.01.
    const ruleOn = (req: NfseRequest, field: string, c: NfseContext = ctx()) => checkNfse(req, c).find((e) => e.field === field)?.rule;
    expect(ruleOn({ ...base(), values: { ...v, deduction_rate: 10, iss: { retained: 'nao_retido', rate: 2 } } }, 'values.deduction_rate')).toBe('E0444');
    expect(ruleOn({ ...base(), values: { ...v, deductions: 100, iss: { retained: 'nao_retido', rate: 2.2 } } }, 'values.deductions')).toBe('E0447');
    expect(fieldsOf({ ...base(), values: { ...v, deductions: 100, iss: { retained: 'nao_retido', rate: 2.3 } } })).toEqual([]);
    expect(fieldsOf({ ...base(), service: { ...base().service, national_code: '160101' }, values: { ...v, deductions: 900, iss: { retained: 'nao_retido', rate: 2 } } })).toEqual([]);
    const withheld = { ...base(), tomador: { cpf: '52998224725', name: 'Maria', address: { street: 'Rua', number: '1', district: 'Centro', city_code: '3304557', cep: '20040030' } }, values: { ...v, iss: { retained: 'tomador' as const } } };
    expect(ruleOn(withheld, 'values.iss.retained', ctx({ specialRegime: 3 }))).toBe('E0588');
    // E0441 / E0442: an ME/EPP of the SN deducts only for 06.01, 06.02, 07.02, 07.05.
    expect(ruleOn({ ...base(), values: { ...v, deductions: 10 } }, 'values.deductions', ctx({ simplesNacional: 3, simplesRegime: 1 }))).toBe('E0441');
    expect(ruleOn({ ...base(), service: { ...base().service, national_code: '070501' }, values: { ...v, deductions: 10 } }, 'values.deductions', ctx({ simplesNacional: 3, simplesRegime: 1 }))).toBeUndefined();
    // E0625 / E0631: an ME/EPP paying ISSQN through the SN gives no rate when nothing is withheld.
    expect(ruleOn({ ...base(), values: { ...v, iss: { retained: 'nao_retido', rate: 2 } } }, 'values.iss.rate', ctx({ simplesNacional: 3, simplesRegime: 1 }))).toBe('E0625');
    expect(ruleOn({ ...base(), values: { ...v, iss: { retained: 'nao_retido', rate: 2 } } }, 'values.iss.rate', ctx({ simplesNacional: 3, simplesRegime: 2 }))).toBeUndefined();
    expect(ruleOn({ ...withheld, service: { ...base().service, national_code: '220101' } }, 'values.iss.retained')).toBe('E0596');
    expect(ruleOn({ ...base(), values: { ...v, federal: { withholdings: { irrf: 1 } } } }, 'values.federal', ctx({ taxId: '52998224725' }))).toBe('E0675');
    expect(ruleOn({ ...base(), values: { ...v, federal: { withholdings: { irrf: 1 } } } }, 'values.federal', ctx({ simplesNacional: 2 }))).toBe('E0676');
  });

  it('PIS/COFINS and federal withholdings (E0678-E0724)', () => {
    const v = base().values;
    const pc = (p: object, withholdings?: object) => ({ ...base(), values: { ...v, federal: { pis_cofins: { cst: '01', ...p }, ...(withholdings ? { withholdings } : {}) } } });
    expect(errorOn(pc({ cst: '08', base: 100 }), 'values.federal.pis_cofins.base')).toMatch(/E0682/);
    expect(fieldsOf(pc({ cst: '08' }))).toEqual([]);
    expect(errorOn(pc({ base: 1000.01, pis_rate: 1, cofins_rate: 1, withheld: 2 }), 'values.federal.pis_cofins.base')).toMatch(/E0677/);
    expect(errorOn(pc({ cofins_rate: 3, withheld: 2 }), 'values.federal.pis_cofins.pis_rate')).toMatch(/E0684/);
    expect(errorOn(pc({ pis_rate: 1, withheld: 2 }), 'values.federal.pis_cofins.cofins_rate')).toMatch(/E0690/);
    expect(errorOn(pc({ cst: '06', pis_rate: 1, cofins_rate: 0, withheld: 2 }), 'values.federal.pis_cofins')).toMatch(/E0688/);
    expect(errorOn(pc({ pis_rate: 0.65, cofins_rate: 3, pis_amount: 6, withheld: 2 }), 'values.federal.pis_cofins.pis_amount')).toMatch(/6\.50.*E0694/);
    expect(errorOn(pc({ pis_rate: 0.65, cofins_rate: 3, cofins_amount: 31, withheld: 2 }), 'values.federal.pis_cofins.cofins_amount')).toMatch(/E0696/);
    expect(fieldsOf(pc({ pis_rate: 0.65, cofins_rate: 3, pis_amount: 6.5, cofins_amount: 30, withheld: 2 }))).toEqual([]);
    expect(errorOn(pc({ pis_rate: 0.65, cofins_rate: 3 }), 'values.federal.pis_cofins.withheld')).toMatch(/E0698/);
    expect(errorOn(pc({ pis_rate: 0.65, cofins_rate: 3, withheld: 0 }, { csll: 10 }), 'values.federal.withholdings.csll')).toMatch(/E0720/);
    expect(errorOn(pc({ pis_rate: 0.65, cofins_rate: 3, withheld: 3 }), 'values.federal.withholdings.csll')).toMatch(/E0724/);
    expect(errorOn({ ...base(), values: { ...v, federal: { withholdings: { irrf: 1000 } } } }, 'values.federal.withholdings.irrf')).toMatch(/E0700/);
    expect(errorOn({ ...base(), values: { ...v, federal: { withholdings: { cp: 0 } } } }, 'values.federal.withholdings.cp')).toMatch(/greater than zero/);
  });

  it("the issuer's NFS-e data (E0162, E0166, E0174, E0175) is reported on issuer_id", () => {
    expect(errorOn(base(), 'issuer_id', ctx({ simplesNacional: 3 }))).toMatch(/E0166/);
    expect(errorOn(base(), 'issuer_id', ctx({ simplesNacional: 1, simplesRegime: 1 }))).toMatch(/E0162/);
    expect(errorOn(base(), 'issuer_id', ctx({ simplesNacional: 2, specialRegime: 1 }))).toMatch(/E0174/);
    expect(errorOn(base(), 'issuer_id', ctx({ simplesNacional: 3, simplesRegime: 1, specialRegime: 1 }))).toMatch(/E0175/);
    expect(errorOn(base(), 'issuer_id', ctx({ cityCode: '33' }))).toMatch(/cLocEmi/);
  });
});

describe('prepareNfse', () => {
  it('E0428: discounts, deductions and the withheld taxes (computed ISSQN and PIS/COFINS too) may not exceed the service value', () => {
    const v = base().values;
    const over = prepareNfse({ ...base(), values: { ...v, conditional_discount: 500, federal: { withholdings: { irrf: 300, cp: 300 } } } }, ctx());
    expect(over).toMatchObject({ ok: false, errors: [{ field: 'values', message: expect.stringMatching(/E0428/) }] });
    const addr = { street: 'Rua A', number: '1', district: 'Centro', city_code: '3304557', cep: '20010000' };
    // 1000 - 900 (conditional) = 100 left; ISS 5% withheld = 50, PIS/COFINS withheld 0.65% + 3% of 1000 = 36.50, CSLL 13.50: exactly 100.
    const fits = { ...base(), tomador: { cpf: '52998224725', name: 'X', address: addr }, values: { ...v, conditional_discount: 900, iss: { retained: 'tomador' as const, rate: 5 }, federal: { pis_cofins: { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 1 }, withholdings: { csll: 13.5 } } } };
    expect(prepareNfse(fits, ctx()).ok).toBe(true);
    // ... and a CSLL of 13.51 makes it 100.01.
    const tooMuch = { ...fits, values: { ...fits.values, federal: { ...fits.values.federal, withholdings: { csll: 13.51 } } } };
    expect(prepareNfse(tooMuch, ctx())).toMatchObject({ ok: false, errors: [{ field: 'values' }] });
  });

  it('returns the errors, or the DPS model in cents and hundredths', () => {
    expect(prepareNfse({ ...base(), competence_date: 'x' }, ctx())).toMatchObject({ ok: false, errors: [{ field: 'competence_date' }] });
    const r = { ...base(), values: { service_amount: 1234.56, approximate_taxes: { federal: 100, state: 0, municipal: 30.86 }, unconditional_discount: 34.56, iss: { retained: 'nao_retido' as const, rate: 2.5 }, federal: { pis_cofins: { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 2 } } } };
    const p = prepareNfse(r, ctx());
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    expect(p.dps.valores).toMatchObject({ vServ: 123456, vDescIncond: 3456, tribMun: { tribISSQN: 1, tpRetISSQN: 1, pAliq: 250 } });
    // Base 1200.00: PIS 0.65% = 7.80, COFINS 3% = 36.00, computed.
    expect(p.dps.valores.tribFed?.piscofins).toEqual({ CST: '01', vBCPisCofins: 120000, pAliqPis: 65, pAliqCofins: 300, vPis: 780, vCofins: 3600, tpRetPisCofins: 2 });
    expect(p.dps.toma).toEqual({ id: { CPF: '52998224725' }, xNome: 'Maria da Silva' });
    expect(p.dps.prest).toEqual({ id: { CNPJ: '11444777000161' }, IM: '12345', regTrib: { opSimpNac: 1, regEspTrib: 0 } });
    expect(p.dps).not.toHaveProperty('IBSCBS');
    expect(p.dps.valores.totTrib).toEqual({ vTotTrib: { vTotTribFed: 10000, vTotTribEst: 0, vTotTribMun: 3086 } });
  });

  it('approximate taxes (totTrib): indTotTrib only for a MEI (E0712, E0713), pTotTribSN only for an ME/EPP (E0710, E0713), amounts and rates in range (E0702-E0708)', () => {
    const none = (): NfseRequest => ({ ...base(), values: { service_amount: 1000, iss: { retained: 'nao_retido' } } });
    const rulesOf = (req: NfseRequest, c: NfseContext) => checkNfse(req, c).map((e) => `${e.field} ${e.rule}`);
    expect(rulesOf(none(), ctx())).toEqual(['values.approximate_taxes E0713']);
    expect(rulesOf(none(), ctx({ simplesNacional: 3, simplesRegime: 1 }))).toEqual(['values.simples_nacional_rate E0712']);
    expect(rulesOf(none(), ctx({ simplesNacional: 2 }))).toEqual([]);
    const sn = (): NfseRequest => ({ ...base(), values: { service_amount: 1000, simples_nacional_rate: 6, iss: { retained: 'nao_retido' } } });
    expect(rulesOf(sn(), ctx())).toEqual(['values.simples_nacional_rate E0713']);
    expect(rulesOf(sn(), ctx({ simplesNacional: 2 }))).toEqual(['values.simples_nacional_rate E0710']);
    const mei = prepareNfse(none(), ctx({ simplesNacional: 2 }));
    const epp = prepareNfse(sn(), ctx({ simplesNacional: 3, simplesRegime: 1 }));
    expect(mei.ok && mei.dps.valores.totTrib).toEqual({ indTotTrib: 0 });
    expect(epp.ok && epp.dps.valores.totTrib).toEqual({ pTotTribSN: 600 });
    const with_ = (t: NonNullable<NfseRequest['values']['approximate_taxes']>): NfseRequest => ({ ...base(), values: { service_amount: 1000, approximate_taxes: t, iss: { retained: 'nao_retido' } } });
    expect(rulesOf(with_({ federal: 1000.01, state: 0, municipal: 0 }), ctx())).toEqual(['values.approximate_taxes.federal E0702']);
    expect(rulesOf(with_({ federal_rate: 0, state_rate: 0, municipal_rate: 100.01 }), ctx())).toEqual(['values.approximate_taxes.municipal_rate E0708']);
    expect(fieldsOf(with_({ federal: 1, state_rate: 0, municipal_rate: 2 }))).toEqual(['values.approximate_taxes']);
    const rates = prepareNfse(with_({ federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }), ctx());
    expect(rates.ok && rates.dps.valores.totTrib).toEqual({ pTotTrib: { pTotTribFed: 1345, pTotTribEst: 0, pTotTribMun: 200 } });
  });
});
