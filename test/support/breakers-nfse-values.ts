import type { NfseBreaker, NfseCase } from './nfse-breakers.js';
import { editAt } from './rule-breakers.js';

// Breakers of the rules in authority-sim/enforced-nfse-values.ts (see rule-breakers.ts for the three kinds).

const taxable = (c: NfseCase) => (c.req.values.iss.taxation ?? 'tributavel') === 'tributavel';
const mei = (c: NfseCase) => c.ctx.issuer.simplesNacional === 2;
/** tribFed may be written: a provider identified by CNPJ that is not a MEI (E0675, E0676). */
const federalAllowed = (c: NfseCase) => c.ctx.issuer.taxId.length === 14 && !mei(c);
/** A taxed PIS/COFINS (CST 01) with its base, rates and withholding type, nothing withheld (no CSLL). */
function taxedPisCofins(c: NfseCase, extra: Record<string, unknown> = {}): NonNullable<NonNullable<NfseCase['req']['values']['federal']>['pis_cofins']> {
  const f = (c.req.values.federal ??= {});
  if (f.withholdings) delete f.withholdings.csll;
  return (f.pis_cofins = { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 0, ...extra });
}
/** The approximate taxes as three amounts or three rates, the Simples rate dropped. */
function approximate(c: NfseCase, t: NonNullable<NfseCase['req']['values']['approximate_taxes']>): void {
  delete c.req.values.simples_nacional_rate;
  c.req.values.approximate_taxes = t;
}
const dropDeductions = (c: NfseCase) => (delete c.req.values.deductions, delete c.req.values.deduction_rate);
/** A deduction and an ISSQN rate may be given and the 2 % minimum binds the service (E0444, E0447). */
const minimumBinds = (c: NfseCase) => taxable(c) && !mei(c) && c.ctx.issuer.specialRegime === 0 && c.ctx.issuer.simplesRegime !== 1 && !['0702', '0705', '1601'].includes(c.req.service.national_code.slice(0, 4));
const zeroAmounts = { federal: 0, state: 0, municipal: 0 };
const zeroRates = { federal_rate: 0, state_rate: 0, municipal_rate: 0 };
const above = (c: NfseCase) => Math.round(c.req.values.service_amount * 100 + 1) / 100;
const noEstimate = (c: NfseCase) => (delete c.req.values.approximate_taxes, delete c.req.values.simples_nacional_rate);

export const NFSE_VALUES_BREAKERS: readonly NfseBreaker[] = [
  {
    kind: 'document', rule: 'E0424', code: 'E0424', why: 'the gateway issues as the provider (tpEmit 1) and never writes vReceb',
    break: (d) => ({ xml: editAt(d.xml, ['infDPS', 'valores', 'vServPrest'], (o) => o.replace('<vServ>', '<vReceb>1.00</vReceb><vServ>')) }),
  },
  { kind: 'request', rule: 'E0431', code: 'E0431', break: (c) => ((c.req.values.unconditional_discount = c.req.values.service_amount), 'values.unconditional_discount') },
  { kind: 'request', rule: 'E0432', code: 'E0432', break: (c) => ((c.req.values.conditional_discount = c.req.values.service_amount), 'values.conditional_discount') },
  {
    kind: 'request', rule: 'E0532', code: 'E0532', applies: (c) => taxable(c) && c.ctx.issuer.specialRegime === 0,
    break: (c) => ((c.req.service.national_code = '990101'), 'values.iss.taxation'),
  },
  {
    kind: 'request', rule: 'E0580', code: 'E0580', applies: (c) => c.ctx.issuer.specialRegime === 0,
    break: (c) => {
      c.req.values.iss.taxation = 'nao_incidencia';
      c.req.values.iss.retained = 'tomador';
      delete c.req.values.iss.rate;
      return 'values.iss.retained';
    },
  },
  { kind: 'request', rule: 'E0583', code: 'E0583', applies: (c) => mei(c) && taxable(c), break: (c) => ((c.req.values.iss.retained = 'tomador'), 'values.iss.retained') },
  {
    kind: 'request', rule: 'E0595', code: 'E0595', applies: (c) => taxable(c) && !mei(c) && c.ctx.issuer.specialRegime === 0,
    break: (c) => ((c.req.values.iss.rate = 5.5), 'values.iss.rate'),
  },
  { kind: 'request', rule: 'E0600', code: 'E0600', applies: (c) => mei(c) && taxable(c), break: (c) => ((c.req.values.iss.rate = 2), 'values.iss.rate') },
  { kind: 'request', rule: 'E0602', code: 'E0602', applies: (c) => !taxable(c), break: (c) => ((c.req.values.iss.rate = 2), 'values.iss.rate') },
  // vDedRed (E0427-E0453), the ISSQN's retention, immunity, suspension and rate with a special regime
  {
    kind: 'request', rule: 'E0427', code: 'E0427', applies: (c) => (c.req.values.unconditional_discount ?? 0) > 0,
    break: (c) => (dropDeductions(c), (c.req.values.deductions = Math.round((c.req.values.service_amount - c.req.values.unconditional_discount!) * 100 + 1) / 100), 'values.deductions'),
  },
  {
    kind: 'request', rule: 'E0428', code: 'E0428', applies: (c) => c.req.values.service_amount >= 0.03,
    break: (c) => (dropDeductions(c), (c.req.values.unconditional_discount = 0.02), (c.req.values.conditional_discount = Math.round(c.req.values.service_amount * 100 - 1) / 100), 'values'),
  },
  {
    kind: 'request', rule: 'E0435', code: 'E0435', applies: (c) => c.ctx.issuer.specialRegime === 0,
    break: (c) => {
      dropDeductions(c);
      Object.assign(c.req.values.iss, { taxation: 'nao_incidencia', retained: 'nao_retido' });
      delete c.req.values.iss.rate;
      c.req.values.deductions = 0.01;
      return 'values.deductions';
    },
  },
  { kind: 'request', rule: 'E0436', code: 'E0436', applies: (c) => mei(c) && taxable(c), break: (c) => (dropDeductions(c), (c.req.values.deductions = 0.01), 'values.deductions') },
  { kind: 'request', rule: 'E0438', code: 'E0438', applies: (c) => c.ctx.issuer.specialRegime !== 0, break: (c) => (dropDeductions(c), (c.req.values.deductions = 0.01), 'values.deductions') },
  { kind: 'request', rule: 'E0453', code: 'E0453', break: (c) => (dropDeductions(c), (c.req.values.deduction_rate = 100.01), 'values.deduction_rate') },
  { kind: 'request', rule: 'E0444', code: 'E0444', applies: minimumBinds, break: (c) => (dropDeductions(c), (c.req.values.deduction_rate = 99), (c.req.values.iss.rate = 2), 'values.deduction_rate') },
  { kind: 'request', rule: 'E0447', code: 'E0447', applies: minimumBinds, break: (c) => (dropDeductions(c), (c.req.values.deductions = 0.01), (c.req.values.iss.rate = 2), 'values.deductions') },
  {
    kind: 'request', rule: 'E0585', code: 'E0585', applies: (c) => c.ctx.issuer.specialRegime === 0,
    break: (c) => {
      dropDeductions(c);
      c.req.values.iss = { taxation: 'nao_incidencia', retained: 'nao_retido', suspension: { type: 'decisao_judicial', process_number: '0'.repeat(20) + '1234567890' } };
      return 'values.iss.suspension';
    },
  },
  { kind: 'request', rule: 'E0588', code: 'E0588', applies: (c) => c.ctx.issuer.specialRegime !== 0, break: (c) => ((c.req.values.iss.retained = 'tomador'), 'values.iss.retained') },
  { kind: 'request', rule: 'E0592', code: 'E0592', applies: taxable, break: (c) => ((c.req.values.iss.immunity_type = 1), 'values.iss.immunity_type') },
  {
    kind: 'request', rule: 'E0596', code: 'E0596', applies: (c) => taxable(c) && !mei(c) && c.ctx.issuer.specialRegime === 0,
    break: (c) => ((c.req.service.national_code = '220101'), (c.req.values.iss.retained = 'tomador'), 'values.iss.retained'),
  },
  { kind: 'request', rule: 'E0604', code: 'E0604', applies: (c) => c.ctx.issuer.specialRegime !== 0, break: (c) => ((c.req.values.iss.rate = 2), 'values.iss.rate') },
  // tribFed (E0675-E0724)
  { kind: 'request', rule: 'E0675', code: 'E0675', applies: (c) => c.ctx.issuer.taxId.length === 11, break: (c) => ((c.req.values.federal = { withholdings: { irrf: 0.01 } }), 'values.federal') },
  { kind: 'request', rule: 'E0676', code: 'E0676', applies: (c) => c.ctx.issuer.taxId.length === 14 && mei(c), break: (c) => ((c.req.values.federal = { withholdings: { irrf: 0.01 } }), 'values.federal') },
  { kind: 'request', rule: 'E0677', code: 'E0677', applies: federalAllowed, break: (c) => (taxedPisCofins(c, { base: above(c) }), 'values.federal.pis_cofins.base') },
  {
    kind: 'document', rule: 'E0678', code: 'E0678', why: 'the gateway writes vBCPisCofins with every taxed CST (the request\'s base, or the ISSQN base)',
    applies: (_c, d) => d.xml.includes('<vBCPisCofins>'), break: (d) => ({ xml: d.xml.replace(/<vBCPisCofins>[^<]*<\/vBCPisCofins>/, '') }),
  },
  { kind: 'request', rule: 'E0680', code: 'E0680', applies: federalAllowed, break: (c) => (taxedPisCofins(c, { base: 0 }), 'values.federal.pis_cofins.base') },
  { kind: 'request', rule: 'E0682', code: 'E0682', applies: federalAllowed, break: (c) => (taxedPisCofins(c, { cst: '08', base: 0.01 }), 'values.federal.pis_cofins.base') },
  { kind: 'request', rule: 'E0684', code: 'E0684', applies: federalAllowed, break: (c) => (delete taxedPisCofins(c).pis_rate, 'values.federal.pis_cofins.pis_rate') },
  { kind: 'request', rule: 'E0688', code: 'E0688', applies: federalAllowed, break: (c) => (taxedPisCofins(c, { cst: '06' }), 'values.federal.pis_cofins') },
  { kind: 'request', rule: 'E0690', code: 'E0690', applies: federalAllowed, break: (c) => (delete taxedPisCofins(c).cofins_rate, 'values.federal.pis_cofins.cofins_rate') },
  { kind: 'request', rule: 'E0694', code: 'E0694', applies: federalAllowed, break: (c) => (taxedPisCofins(c, { base: 100, pis_amount: 0.66 }), 'values.federal.pis_cofins.pis_amount') },
  { kind: 'request', rule: 'E0696', code: 'E0696', applies: federalAllowed, break: (c) => (taxedPisCofins(c, { base: 100, cofins_amount: 3.01 }), 'values.federal.pis_cofins.cofins_amount') },
  { kind: 'request', rule: 'E0698', code: 'E0698', applies: federalAllowed, break: (c) => (delete taxedPisCofins(c).withheld, 'values.federal.pis_cofins.withheld') },
  ...([['E0699', 'cp'], ['E0700', 'irrf'], ['E0701', 'csll']] as const).map(([rule, k]): NfseBreaker => ({
    kind: 'request', rule, code: rule, applies: federalAllowed,
    break: (c) => (((c.req.values.federal ??= {}).withholdings = { ...c.req.values.federal.withholdings, [k]: c.req.values.service_amount }), `values.federal.withholdings.${k}`),
  })),
  {
    kind: 'request', rule: 'E0720', code: 'E0720', applies: federalAllowed,
    break: (c) => (taxedPisCofins(c), (c.req.values.federal!.withholdings = { ...c.req.values.federal!.withholdings, csll: 0.01 }), 'values.federal.withholdings.csll'),
  },
  { kind: 'request', rule: 'E0724', code: 'E0724', applies: federalAllowed, break: (c) => (taxedPisCofins(c, { withheld: 1 }), 'values.federal.withholdings.csll') },
  // totTrib (E0702-E0713)
  ...([['E0702', 'federal'], ['E0703', 'state'], ['E0704', 'municipal']] as const).map(([rule, k]): NfseBreaker => ({
    kind: 'request', rule, code: rule, break: (c) => (approximate(c, { ...zeroAmounts, [k]: above(c) }), `values.approximate_taxes.${k}`),
  })),
  ...([['E0706', 'federal_rate'], ['E0707', 'state_rate'], ['E0708', 'municipal_rate']] as const).map(([rule, k]): NfseBreaker => ({
    kind: 'request', rule, code: rule, break: (c) => (approximate(c, { ...zeroRates, [k]: 100.01 }), `values.approximate_taxes.${k}`),
  })),
  { kind: 'request', rule: 'E0710', code: 'E0710', applies: mei, break: (c) => (noEstimate(c), (c.req.values.simples_nacional_rate = 4), 'values.simples_nacional_rate') },
  { kind: 'request', rule: 'E0712', code: 'E0712', applies: (c) => c.ctx.issuer.simplesNacional === 3, break: (c) => (noEstimate(c), 'values.simples_nacional_rate') },
  { kind: 'request', rule: 'E0713', code: 'E0713', applies: (c) => c.ctx.issuer.simplesNacional === 1, break: (c) => (noEstimate(c), 'values.approximate_taxes') },
];
