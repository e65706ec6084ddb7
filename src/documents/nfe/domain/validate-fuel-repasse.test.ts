import { describe, expect, it } from 'vitest';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import type { NfeItem } from './nfe-request.js';
import { checkRepasseFuel } from './validate-fuel-repasse.js';

// docs/fiscal/fuel.md: MOC N08-10 (858) — CST 60 of a fuel in the rule's list goes in ICMSST (st_repasse), not ICMS60.
const item = (anp: string, extra: Partial<NfeItem> = {}) =>
  ({ description: 'Diesel', quantity: 1, unit_price: 6, ncm: '27101921', cfop: '5656', unit: 'L', cst_icms: '60', fuel: { anp_code: anp, uf_cons: 'SP' }, ...extra }) as NfeItem;

describe('checkRepasseFuel (MOC N08-10)', () => {
  it('refuses CST 60 without st_repasse for a listed code, naming st_repasse and the rule', () => {
    const errors: Errors = [];
    checkRepasseFuel(errors, 'items[0]', item('820101034'));
    expect(errors).toEqual([expect.objectContaining({ field: 'items[0].st_repasse', rule: 'N08-10' })]);
  });

  it('accepts a code outside the list, another CST, or CST 60 with st_repasse', () => {
    for (const it of [item('810101001'), item('820101034', { cst_icms: '00' }), item('820101034', { st_repasse: {} as NfeItem['st_repasse'] })]) {
      const errors: Errors = [];
      checkRepasseFuel(errors, 'items[0]', it);
      expect(errors).toEqual([]);
    }
  });
});
