import { describe, expect, it } from 'vitest';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import { reformTablesInForce } from '../../../fiscal/reform/reform-tables-in-force.js';
import { prepareNfe } from '../../nfe/domain/index.js';
import { interstateRequest, NFE_CONTEXT } from '../../../../test/support/nfe-fixtures.js';
import type { SaleItem } from './sale-item.js';
import { validateReformRules } from './validate-reform-rules.js';

// The gateway refuses first what the simulator (authority-sim/reform-rules.ts) refuses under NT 2025.002-RTC,
// naming the field and the rule (docs/fiscal/reform-rules.md), with the official tables (fiscal/reform).

const item = (reform: SaleItem['reform']): SaleItem => ({ description: 'Cadeira de rodas', quantity: 1, unit_price: 1000, ncm: '87131000', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18, reform });
function errorsOf(reform: SaleItem['reform'], date = '2026-07-15', dateIsIssue = true): Errors {
  const errors: Errors = [];
  validateReformRules(errors, 'items[0]', item(reform), { tables: reformTablesInForce(), document: 'nfe', date, dateIsIssue, defaultCst: '000' });
  return errors;
}
const fields = (errors: Errors) => errors.map((e) => [e.field, e.rule]);

describe('validateReformRules', () => {
  it('passes the defaults and a CST 200 / 200030 item with its 60% reduction', () => {
    expect(errorsOf({})).toEqual([]);
    expect(errorsOf({ cst: '000', class_code: '000001', ibs_state_rate: 0.1, ibs_municipal_rate: 0, cbs_rate: 0.9 })).toEqual([]);
    expect(errorsOf({ cst: '200', class_code: '200030', rate_reduction: 60 })).toEqual([]);
  });

  it('refuses a CST or cClassTrib the tables do not hold, or a cClassTrib of another CST (UB13-10, UB14-10, UB14-20)', () => {
    expect(fields(errorsOf({ cst: '999' }))).toEqual([['items[0].reform.cst', 'UB13-10']]);
    expect(fields(errorsOf({ cst: '000', class_code: '000999' }))).toEqual([['items[0].reform.class_code', 'UB14-10']]);
    expect(fields(errorsOf({ cst: '000', class_code: '200030' }))).toEqual([['items[0].reform.class_code', 'UB14-20']]);
  });

  it('follows the CST indicators: gRed taken from the class when not sent (no UB26-20), forbidden (UB26-10), deferral without its pDif (UB22-20) or with a CST that forbids it (UB22-10)', () => {
    // The gateway writes gRed with the cClassTrib's pRedIBS / pRedCBS (reform-class-checks.ts): CST 200 needs no rate_reduction.
    expect(fields(errorsOf({ cst: '200', class_code: '200030' }))).toEqual([]);
    expect(fields(errorsOf({ cst: '000', class_code: '000001', rate_reduction: 10 }))).toEqual([['items[0].reform.rate_reduction', 'UB26-10']]);
    expect(fields(errorsOf({ cst: '510' }))).toEqual([['items[0].reform.deferral_rate', 'UB22-20']]);
    expect(fields(errorsOf({ cst: '510', class_code: '510001', deferral_rate: 100 }))).toEqual([]);
    expect(fields(errorsOf({ cst: '000', deferral_rate: 100 }))).toEqual([['items[0].reform.deferral_rate', 'UB22-10']]);
    // A suspension (550001: ind_gTribRegular 1) states its regular taxation (UB68-10); another class may not (UB68-11).
    expect(fields(errorsOf({ cst: '550', class_code: '550001' }))).toEqual([['items[0].reform.regular_taxation', 'UB68-10']]);
    expect(fields(errorsOf({ cst: '550', class_code: '550001', regular_taxation: { cst: '000', class_code: '000001' } }))).toEqual([]);
    expect(fields(errorsOf({ regular_taxation: { cst: '000', class_code: '000001' } }))).toEqual([['items[0].reform.regular_taxation', 'UB68-11']]);
  });

  it('refuses a reduction other than the classification\'s (UB27-10: 200030 reduces 60%)', () => {
    expect(fields(errorsOf({ cst: '200', class_code: '200030', rate_reduction: 50 }))).toEqual([['items[0].reform.rate_reduction', 'UB27-10']]);
  });

  it('refuses rates other than the year\'s on the note\'s date: 2026 IBS UF 0.10 (UB18-10), municipal 0 (UB37-10), CBS 0.90 (UB56-10)', () => {
    expect(fields(errorsOf({ ibs_state_rate: 0.05, ibs_municipal_rate: 0.05, cbs_rate: 0.8 }))).toEqual([
      ['items[0].reform.ibs_state_rate', 'UB18-10'], ['items[0].reform.ibs_municipal_rate', 'UB37-10'], ['items[0].reform.cbs_rate', 'UB56-10'],
    ]);
    // LC 214/2025 art. 344: 0.05 + 0.05 in 2027; the 2027 CBS is not published, so any CBS rate is taken.
    expect(errorsOf({ ibs_state_rate: 0.05, ibs_municipal_rate: 0.05, cbs_rate: 0.8 }, '2027-03-01')).toEqual([]);
    expect(errorsOf({ ibs_state_rate: 0.05 }, '2026-07-15', false)).toEqual([]);
  });

  it('is the 422 of an NF-e request (validate-item.ts hook), naming the field', () => {
    const req = interstateRequest();
    req.items[0]!.reform = { cst: '000', class_code: '200030' };
    const p = prepareNfe(req, { ...NFE_CONTEXT, taxReform: true });
    expect(p.ok ? [] : p.errors.map((e) => [e.field, e.rule])).toEqual([['items[0].reform.class_code', 'UB14-20']]);
  });
});
