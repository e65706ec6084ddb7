import { describe, expect, it } from 'vitest';
import type { Errors } from '../../../fiscal/layout/field-rules.js';
import { xsdPathToField } from '../../goods/domain/xsd-path-to-field.js';
import { checkVehicle, directVehicleSale, veicProdOf, type Vehicle } from './vehicle.js';

// docs/fiscal/vehicles-and-foreign-trade.md: items[].vehicle -> prod/veicProd, the XSD's types and MOC C18-20.

const CAR: Vehicle = {
  operation_type: '1', chassis: '9BWZZZ377VT004251', color_code: '0040', color_description: 'BRANCO CRISTAL', power: '116', displacement: '999',
  net_weight: '1025', gross_weight: '1480', serial_number: 'AB1234', fuel_type: '16', engine_number: 'CSS123456', max_traction: '1.4800',
  wheelbase: '2566', model_year: '2027', manufacture_year: '2026', paint_type: 'M', vehicle_type: '06', vehicle_species: '1', vin_condition: 'N',
  condition: '1', model_code: '110435', denatran_color: '04', seating_capacity: '5', restriction: '0',
};
const run = (item: Parameters<typeof checkVehicle>[2]) => {
  const errors: Errors = [];
  checkVehicle(errors, 'items[0]', item);
  return errors.map((e) => [e.field, e.rule ?? null]);
};

describe('items[].vehicle', () => {
  it('maps every field to its veicProd element', () => {
    expect(veicProdOf(CAR)).toMatchObject({ tpOp: '1', chassi: '9BWZZZ377VT004251', xCor: 'BRANCO CRISTAL', anoMod: '2027', cCorDENATRAN: '04', lota: '5', tpRest: '0', CMT: '1.4800' });
  });

  it('accepts a valid car; refuses the XSD patterns, the free-text limits, tpOp 2 (C18-20) and medicine or fuel beside it', () => {
    expect(run({ vehicle: CAR })).toEqual([]);
    expect(run({ vehicle: { ...CAR, chassis: '9BWZZZ377VT00425', seating_capacity: '1000', color_description: 'AZUL 🚗' } }).sort()).toEqual([
      ['items[0].vehicle.chassis', null], ['items[0].vehicle.color_description', null], ['items[0].vehicle.seating_capacity', null],
    ]);
    expect(run({ vehicle: { ...CAR, operation_type: '2' } })).toEqual([['items[0].vehicle.operation_type', 'C18-20']]);
    expect(run({ vehicle: CAR, fuel: {} })).toEqual([['items[0].vehicle', null]]);
  });

  it('direct billing or direct sale (tpOp 2, 3) is what N16-20 exception 2 reads', () => {
    expect(directVehicleSale([{ vehicle: CAR }])).toBe(false);
    expect(directVehicleSale([{}, { vehicle: { ...CAR, operation_type: '3' } }])).toBe(true);
  });

  it('maps XSD error paths of veicProd back to the field', () => {
    expect(xsdPathToField('/NFe/infNFe/det[2]/prod/veicProd/chassi')).toBe('items[1].vehicle.chassis');
    expect(xsdPathToField('/NFe/infNFe/det[1]/prod/veicProd/cCorDENATRAN')).toBe('items[0].vehicle.denatran_color');
    expect(xsdPathToField('/NFe/infNFe/det[1]/prod/veicProd')).toBe('items[0].vehicle');
  });
});
