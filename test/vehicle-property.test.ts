import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { Vehicle } from '../src/documents/nfe/domain/vehicle.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { caseArb } from './support/nfce-arbitraries.js';
import { nfeCaseArb } from './support/nfe-arbitraries.js';
import { nfeVerdict } from './support/simulator-verdict.js';
import { veicProdXml } from './support/vehicle-fixture.js';

// Random dealer NF-e (docs/fiscal/vehicles-and-foreign-trade.md): a random valid NF-e whose first item becomes a new
// vehicle with random veicProd values within the XSD is accepted by the gateway and authorized by the whole simulator
// (its rules and the XSD of the lot, test/support/simulator-verdict.ts). One rule broken in the request is refused
// naming the field; broken in the built XML, the simulator refuses it with its code: the chassis pattern (XSD, 225),
// direct billing without the delivery place (MOC C18-20, 478). An NFC-e carrying veicProd is 736 (MOC J01-10).

const RUNS = Number(process.env.VEHICLE_PROPERTY_RUNS ?? 150);
const SEED = Number(process.env.VEHICLE_PROPERTY_SEED ?? 20261129);
const BUDGET_MS = Math.max(180_000, RUNS * 1500);

// Free text of the layout (TString): printable, no space at either end.
const word = (max: number) => fc.stringMatching(new RegExp(`^[A-Z0-9](?:[A-Z0-9 .-]{0,${Math.max(0, max - 2)}}[A-Z0-9])?$`)).filter((s) => s.length <= max);
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));

const vehicleArb: fc.Arbitrary<Vehicle> = fc.record({
  operation_type: fc.constantFrom('0', '1', '3'),
  chassis: fc.stringMatching(/^[A-Z0-9]{17}$/),
  color_code: word(4), color_description: word(40), power: word(4), displacement: word(4), net_weight: word(9), gross_weight: word(9),
  serial_number: word(9), fuel_type: word(2), engine_number: word(21), max_traction: word(9), wheelbase: word(4),
  model_year: digits(4, 4), manufacture_year: digits(4, 4), paint_type: word(1), vehicle_type: digits(1, 2), vehicle_species: digits(1, 1),
  vin_condition: fc.constantFrom('N', 'R'), condition: fc.constantFrom('1', '2', '3'), model_code: digits(1, 6), denatran_color: digits(1, 2),
  seating_capacity: digits(1, 3), restriction: fc.constantFrom('0', '1', '2', '3', '4', '9'),
});
const breakArb = fc.constantFrom('chassis', 'directBilling');

/** The first det's veicProd edited in the built XML (the signature is not checked: the document is edited after signing). */
function brokenXml(xml: string, how: string): { xml: string; code: number } {
  if (how === 'chassis') return { xml: xml.replace(/<chassi>([^<]*)<\/chassi>/, (_, c: string) => `<chassi>${c.slice(0, 16)}a</chassi>`), code: 225 };
  return { xml: xml.replace(/<tpOp>[0-3]<\/tpOp>/, '<tpOp>2</tpOp>'), code: 478 };
}

describe('vehicle property: random dealer NF-e', () => {
  const seen = { nfe: 0, nfce: 0, refused: new Set<string>(), simulator: new Set<number>(), tpOp: new Set<string>() };

  it(`${RUNS} NF-e with a new vehicle: accepted, built, authorized; one rule broken refused by the gateway and the simulator`, () => {
    fc.assert(
      fc.property(nfeCaseArb(), vehicleArb, breakArb, ({ req, ctx, doc }, vehicle, how) => {
        if (!prepareNfe(req, ctx).ok) return; // the generator's own cases are judged by nfe-property
        const first = req.items[0]!;
        if (first.fuel !== undefined || first.medicine !== undefined) return;
        const withVehicle: NfeRequest = { ...req, items: [{ ...first, vehicle }, ...req.items.slice(1)] };
        const prepared = prepareNfe(withVehicle, ctx);
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        if (!prepared.ok) return;
        const built = buildPreparedNfe(prepared.nfe, doc);
        const at = new Date(doc.emittedAt.getTime() + 2000);
        expect(nfeVerdict(built.xml, { now: at, signature: true })).toBeNull();
        expect(built.xml).toContain(`<chassi>${vehicle.chassis}</chassi>`);
        seen.nfe++;
        seen.tpOp.add(vehicle.operation_type);
        // A lower-case letter is outside the XSD's pattern [A-Z0-9]; direct billing needs the delivery place (C18-20).
        const broken: Vehicle = how === 'chassis' ? { ...vehicle, chassis: `${vehicle.chassis.slice(0, 16)}a` } : { ...vehicle, operation_type: '2' };
        const field = how === 'chassis' ? 'items[0].vehicle.chassis' : 'items[0].vehicle.operation_type';
        const refused = prepareNfe({ ...withVehicle, items: [{ ...first, vehicle: broken }, ...req.items.slice(1)] }, ctx);
        expect(refused.ok ? [] : refused.errors).toContainEqual(expect.objectContaining({ field }));
        seen.refused.add(field);
        const x = brokenXml(built.xml, how);
        expect(nfeVerdict(x.xml, { now: at, signature: false })).toBe(x.code);
        seen.simulator.add(x.code);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(seen.nfe).toBeGreaterThan(RUNS / 3);
  }, BUDGET_MS);

  it(`${Math.ceil(RUNS / 3)} NFC-e with veicProd added to the built XML: refused with 736 (MOC J01-10)`, () => {
    fc.assert(
      fc.property(caseArb(), ({ sale, ctx }) => {
        if (!prepareNfce(sale, ctx).ok) return;
        const built = buildNfce(sale, ctx);
        const det = /<det nItem="1">[\s\S]*?<\/det>/.exec(built.xml)![0];
        if (/<(comb|med)>/.test(det)) return;
        const xml = built.xml.replace(det, det.replace('</prod>', `${veicProdXml('1')}</prod>`));
        expect(nfeVerdict(xml, { now: new Date(ctx.emittedAt.getTime() + 2000), csc: ctx.csc!, signature: false })).toBe(736);
        seen.nfce++;
      }),
      { numRuns: Math.ceil(RUNS / 3), seed: SEED },
    );
  }, BUDGET_MS);

  it('the generators reached each operation type and each broken rule', () => {
    expect([...seen.tpOp].sort()).toEqual(['0', '1', '3']);
    expect([...seen.refused].sort()).toEqual(['items[0].vehicle.chassis', 'items[0].vehicle.operation_type']);
    expect([...seen.simulator].sort()).toEqual([225, 478]);
    expect(seen.nfce).toBeGreaterThan(0);
  });
});
