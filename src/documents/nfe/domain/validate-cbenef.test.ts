import { describe, expect, it } from 'vitest';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import type { NfeItem } from './nfe-request.js';
import { checkCbenefRequired } from './validate-cbenef.js';

// docs/fiscal/cbenef.md: the gateway names items[i].benefit_code before the authority's 930 (RJ, CST 20/30/40/70).
const item = (cst: string, benefit_code?: string) => ({ cst_icms: cst, ...(benefit_code ? { benefit_code } : {}) }) as unknown as NfeItem;
const run = (it: NfeItem, uf: string) => {
  const errors: Errors = [];
  checkCbenefRequired(errors, 'items[0]', it, uf, '2026-06-10');
  return errors;
};

describe('checkCbenefRequired', () => {
  it('RJ with CST 20 and no code: 422 on items[0].benefit_code with rule N12-85', () => {
    expect(run(item('20'), 'RJ')).toEqual([expect.objectContaining({ field: 'items[0].benefit_code', rule: 'N12-85' })]);
    expect(run(item('20'), 'RJ')[0]!.message).toContain('930');
  });
  it('nothing with the code, with CST 00, or in a state outside the table', () => {
    expect(run(item('20', 'RJ800001'), 'RJ')).toEqual([]);
    expect(run(item('00'), 'RJ')).toEqual([]);
    expect(run(item('20'), 'SP')).toEqual([]);
  });
});
