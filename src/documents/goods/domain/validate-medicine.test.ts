import { describe, expect, it } from 'vitest';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import { medOf, rastroOf, type BatchInput, type MedicineInput } from './medicine-item.js';
import { checkBatchDates, checkMedicine } from './validate-medicine.js';
import { xsdPathToField } from './xsd-path-to-field.js';

// docs/fiscal/medicines.md: the XSD types of prod/med and prod/rastro and MOC I83-10 (877), I84-10 (870), K01-20 (873).

const med: MedicineInput = { anvisa_code: '1012345670012', max_consumer_price: 14.9 };
const batch = (b: Partial<BatchInput> = {}): BatchInput => ({ number: 'L1', quantity: 1, manufactured_on: '2025-01-10', expires_on: '2027-01-31', ...b });

function errorsOf(medicine: MedicineInput | undefined, batches: BatchInput[] | undefined, model: 55 | 65 = 55, fuel = false): Errors {
  const errors: Errors = [];
  checkMedicine(errors, 'items[0]', medicine, batches, { model, fuel });
  return errors;
}

describe('items[].medicine and items[].batches checks', () => {
  it('K01-20 binds model 55 only: med without batches is refused in an NF-e, accepted in an NFC-e', () => {
    expect(errorsOf(med, undefined, 55)).toEqual([expect.objectContaining({ field: 'items[0].batches', rule: 'K01-20' })]);
    expect(errorsOf(med, [], 55)).toEqual([expect.objectContaining({ field: 'items[0].batches', rule: 'K01-20' })]);
    expect(errorsOf(med, undefined, 65)).toEqual([]);
    expect(errorsOf(med, [batch()], 55)).toEqual([]);
    // Batches without medicine: any traced product (MOC group I80).
    expect(errorsOf(undefined, [batch()], 55)).toEqual([]);
  });

  it('I84-10: an expiry before manufacture is refused; the same day is not', () => {
    expect(errorsOf(med, [batch({ manufactured_on: '2025-03-01', expires_on: '2025-02-28' })])).toEqual([expect.objectContaining({ field: 'items[0].batches[0].expires_on', rule: 'I84-10' })]);
    expect(errorsOf(med, [batch({ manufactured_on: '2025-03-01', expires_on: '2025-03-01' })])).toEqual([]);
  });

  it('the XSD patterns: cProdANVISA 11 or 13 digits or ISENTO; TData 2000-2099 with real days (29 Feb of leap years only); TDec_0803v; lengths', () => {
    for (const code of ['10123456789', '1012345670012', 'ISENTO']) expect(errorsOf({ ...med, anvisa_code: code }, [batch()]), code).toEqual([]);
    for (const code of ['1012345670', '101234567001', '10123456700123', 'isento', ' ISENTO']) {
      expect(errorsOf({ ...med, anvisa_code: code }, [batch()]).map((e) => e.field), code).toEqual(['items[0].medicine.anvisa_code']);
    }
    for (const day of ['2000-01-01', '2024-02-29', '2000-02-29', '2099-12-31', '2025-04-30']) expect(errorsOf(med, [batch({ manufactured_on: day, expires_on: '2099-12-31' })]), day).toEqual([]);
    for (const day of ['1999-12-31', '2100-01-01', '2025-02-29', '2100-02-29', '2025-04-31', '2025-1-10', '10/01/2025', '2025-01-10T00:00:00']) {
      expect(errorsOf(med, [batch({ manufactured_on: day, expires_on: '2099-12-31' })]).map((e) => e.field), day).toEqual(['items[0].batches[0].manufactured_on']);
    }
    expect(errorsOf(med, [batch({ quantity: 0 }), batch({ quantity: 99_999_999.999 }), batch({ quantity: 0.001 })])).toEqual([]);
    expect(errorsOf(med, [batch({ quantity: 1.0001 }), batch({ quantity: 100_000_000 }), batch({ quantity: -1 })]).map((e) => e.field)).toEqual(['items[0].batches[0].quantity', 'items[0].batches[1].quantity', 'items[0].batches[2].quantity']);
    expect(errorsOf(med, [batch({ number: 'X'.repeat(20), aggregation_code: '9'.repeat(20) })])).toEqual([]);
    expect(errorsOf(med, [batch({ number: 'X'.repeat(21), aggregation_code: '' })]).map((e) => e.field)).toEqual(['items[0].batches[0].number', 'items[0].batches[0].aggregation_code']);
    expect(errorsOf({ ...med, max_consumer_price: 0 }, [batch()])).toEqual([]);
    expect(errorsOf({ ...med, max_consumer_price: 1.005 }, [batch()]).map((e) => e.field)).toEqual(['items[0].medicine.max_consumer_price']);
    expect(errorsOf(med, Array.from({ length: 501 }, () => batch())).map((e) => e.field)).toEqual(['items[0].batches']);
  });

  it('med and comb close prod each: not both on one item', () => {
    expect(errorsOf(med, [batch()], 65, true).map((e) => e.field)).toEqual(['items[0].medicine']);
  });

  it('I83-10 against the UTC day: a batch made on that day passes, the day after is refused; no day, no check', () => {
    // 2026-07-15 at 22:30 in Sao Paulo (UTC-3) is 2026-07-16 01:30 UTC: the authority may already be on the 16th.
    const items = [{ batches: [batch({ manufactured_on: '2026-07-16', expires_on: '2027-07-31' }), batch({ manufactured_on: '2026-07-17', expires_on: '2027-07-31' })] }];
    const errors: Errors = [];
    checkBatchDates(errors, items, '2026-07-16');
    expect(errors).toEqual([expect.objectContaining({ field: 'items[0].batches[1].manufactured_on', rule: 'I83-10', message: 'must not be after 2026-07-16, the day the authority processes the note (MOC I83-10, 877)' })]);
    const none: Errors = [];
    checkBatchDates(none, items, undefined);
    expect(none).toEqual([]);
  });

  it('the XML model: qLote with 3 decimals, vPMC in cents, texts in the layout', () => {
    expect(rastroOf([batch({ quantity: 2.5, number: ' L 1 ', aggregation_code: '789' })])).toEqual([{ nLote: 'L 1', qLote: '2.500', dFab: '2025-01-10', dVal: '2027-01-31', cAgreg: '789' }]);
    expect(medOf({ anvisa_code: 'ISENTO', exemption_reason: 'RDC  98/2016', max_consumer_price: 14.9 })).toEqual({ cProdANVISA: 'ISENTO', xMotivoIsencao: 'RDC 98/2016', vPMC: 1490 });
  });

  it('an XSD error inside rastro or med names the request field', () => {
    expect(xsdPathToField('/NFe/infNFe/det[2]/prod/rastro[3]/dVal')).toBe('items[1].batches[2].expires_on');
    expect(xsdPathToField('/NFe/infNFe/det[1]/prod/rastro/nLote')).toBe('items[0].batches[0].number');
    expect(xsdPathToField('/NFe/infNFe/det[1]/prod/med/cProdANVISA')).toBe('items[0].medicine.anvisa_code');
    expect(xsdPathToField('/NFe/infNFe/det[1]/prod/med')).toBe('items[0].medicine');
  });
});
