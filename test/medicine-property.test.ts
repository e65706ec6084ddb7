import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { prepareNfce } from '../src/documents/nfce/domain/prepare-nfce.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { BatchInput, MedicineInput } from '../src/documents/goods/domain/medicine-item.js';
import type { SaleItem } from '../src/documents/goods/domain/sale-item.js';
import { caseArb } from './support/nfce-arbitraries.js';
import { nfeCaseArb } from './support/nfe-arbitraries.js';
import { nfeVerdict } from './support/simulator-verdict.js';

// Random NFC-e and NF-e with medicine items (docs/fiscal/medicines.md): what the gateway accepts, the simulator
// authorizes (its whole rule set and the XSD of the lot, test/support/simulator-verdict.ts); each of the three
// rules of the groups (MOC I83-10, I84-10, K01-20) broken in the request is refused naming the field, and broken
// in the built XML is refused by the simulator with its code.

const RUNS = Number(process.env.MEDICINE_PROPERTY_RUNS ?? 150);
const SEED = Number(process.env.MEDICINE_PROPERTY_SEED ?? 20261128);
const BUDGET_MS = Math.max(180_000, RUNS * 1500);
const DAY_MS = 86_400_000;

const batchArb = fc.record({
  number: fc.stringMatching(/^[A-Z0-9][A-Z0-9-]{0,18}[A-Z0-9]$/),
  quantity: fc.integer({ min: 0, max: 99_999_999_999 }).map((n) => n / 1000),
  // Days before the emission's UTC date the batch was made (0: that very day), and its shelf life (0: expires that day).
  madeDaysAgo: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3000 })),
  lifeDays: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3650 })),
  aggregation: fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
});
const medicineArb = fc.record({
  code: fc.oneof(fc.stringMatching(/^[0-9]{13}$/), fc.stringMatching(/^[0-9]{11}$/), fc.constant('ISENTO')),
  reason: fc.option(fc.constantFrom('RDC 98/2016', 'Isento conforme RDC 576/2021', 'Medicamento de notificacao simplificada'), { nil: undefined }),
  pmc: fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
  batches: fc.array(batchArb, { minLength: 1, maxLength: 3 }),
  // An NFC-e may sell a medicine without batches (K01-20 binds model 55 only).
  withoutBatches: fc.boolean(),
  breakWith: fc.constantFrom('future', 'expiry', 'noBatch'),
});
type Plan = typeof medicineArb extends fc.Arbitrary<infer T> ? T : never;

const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

function withMedicine(item: SaleItem, p: Plan, day: string, model: 55 | 65): SaleItem {
  const medicine: MedicineInput = { anvisa_code: p.code, max_consumer_price: p.pmc };
  if (p.reason !== undefined) medicine.exemption_reason = p.reason;
  const batches = p.batches.map((b): BatchInput => {
    const made = shift(day, -b.madeDaysAgo);
    const batch: BatchInput = { number: b.number, quantity: b.quantity, manufactured_on: made, expires_on: shift(made, b.lifeDays) };
    if (b.aggregation !== undefined) batch.aggregation_code = b.aggregation;
    return batch;
  });
  return model === 65 && p.withoutBatches ? { ...item, medicine } : { ...item, medicine, batches };
}

/** One rule broken on the first item's request; null when it does not apply (K01-20 in an NFC-e). */
function brokenRequest(item: SaleItem, how: Plan['breakWith'], day: string, model: 55 | 65): { item: SaleItem; field: string; rule: string } | null {
  const first = item.batches?.[0] ?? { number: 'L1', quantity: 1, manufactured_on: day, expires_on: day };
  const rest = item.batches?.slice(1) ?? [];
  switch (how) {
    case 'future': return { item: { ...item, batches: [{ ...first, manufactured_on: shift(day, 1), expires_on: shift(day, 400) }, ...rest] }, field: 'items[0].batches[0].manufactured_on', rule: 'I83-10' };
    case 'expiry': return { item: { ...item, batches: [{ ...first, expires_on: shift(first.manufactured_on, -1) }, ...rest] }, field: 'items[0].batches[0].expires_on', rule: 'I84-10' };
    case 'noBatch': return model === 55 ? { item: { ...item, batches: undefined }, field: 'items[0].batches', rule: 'K01-20' } : null;
  }
}

/** The same rule broken in the built XML (signature not checked: the document is edited after signing). */
function brokenXml(xml: string, how: Plan['breakWith'], model: 55 | 65): { xml: string; code: number } | null {
  const det = /<det nItem="1">[\s\S]*?<\/det>/.exec(xml)![0];
  if (how === 'noBatch') return model === 55 ? { xml: xml.replace(det, det.replace(/<rastro>[\s\S]*<\/rastro>/, '')), code: 873 } : null;
  if (!det.includes('<rastro>')) return null;
  const edited = how === 'future'
    ? det.replace(/<dFab>[^<]*<\/dFab><dVal>[^<]*<\/dVal>/, '<dFab>2099-01-01</dFab><dVal>2099-12-31</dVal>')
    : det.replace(/<dFab>[^<]*<\/dFab><dVal>[^<]*<\/dVal>/, '<dFab>2020-06-01</dFab><dVal>2020-05-31</dVal>');
  return { xml: xml.replace(det, edited), code: how === 'future' ? 877 : 870 };
}

describe('medicine property: random NFC-e and NF-e selling medicines', () => {
  const seen = { nfce: 0, nfe: 0, exempt: 0, nfceWithoutBatches: 0, sameDay: 0, refused: new Set<string>(), simulator: new Set<number>() };

  it(`${RUNS} NFC-e with medicines: accepted, built, authorized by the simulator; one rule broken is refused by both`, () => {
    fc.assert(
      fc.property(caseArb(), fc.array(medicineArb, { minLength: 1, maxLength: 3 }), ({ sale, ctx }, plans) => {
        const day = ctx.emittedAt.toISOString().slice(0, 10);
        const items = sale.items.map((it, i) => (i < plans.length ? withMedicine(it, plans[i]!, day, 65) : it));
        const medSale = { ...sale, items };
        const prepared = prepareNfce(medSale, ctx);
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        const built = buildNfce(medSale, ctx);
        const at = new Date(ctx.emittedAt.getTime() + 2000);
        expect(nfeVerdict(built.xml, { now: at, csc: ctx.csc!, signature: true })).toBeNull();
        expect((built.xml.match(/<med>/g) ?? []).length).toBe(Math.min(plans.length, sale.items.length));
        seen.nfce++;
        if (built.xml.includes('<cProdANVISA>ISENTO</cProdANVISA>')) seen.exempt++;
        if (!items[0]!.batches) seen.nfceWithoutBatches++;
        if (items.some((it) => it.batches?.some((b) => b.manufactured_on === day || b.expires_on === b.manufactured_on))) seen.sameDay++;
        const b = brokenRequest(items[0]!, plans[0]!.breakWith, day, 65);
        if (b) {
          seen.refused.add(b.rule);
          const refused = prepareNfce({ ...medSale, items: [b.item, ...items.slice(1)] }, ctx);
          expect(refused.ok ? [] : refused.errors).toContainEqual(expect.objectContaining({ field: b.field, rule: b.rule }));
        }
        const x = brokenXml(built.xml, plans[0]!.breakWith, 65);
        if (x) {
          seen.simulator.add(x.code);
          expect(nfeVerdict(x.xml, { now: at, csc: ctx.csc!, signature: false })).toBe(x.code);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, BUDGET_MS);

  it(`${RUNS} NF-e with medicines: accepted, built, authorized by the simulator; one rule broken is refused by both`, () => {
    fc.assert(
      fc.property(nfeCaseArb(), fc.array(medicineArb, { minLength: 1, maxLength: 3 }), ({ req, ctx, doc }, plans) => {
        if (!prepareNfe(req, ctx).ok) return; // the generator's own cases are judged by nfe-property
        const day = doc.emittedAt.toISOString().slice(0, 10);
        const items = req.items.map((it, i) => (i < plans.length ? withMedicine(it, plans[i]!, day, 55) : it));
        const medReq = { ...req, items };
        const prepared = prepareNfe(medReq, ctx);
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        if (!prepared.ok) return;
        const built = buildPreparedNfe(prepared.nfe, doc);
        const at = new Date(doc.emittedAt.getTime() + 2000);
        expect(nfeVerdict(built.xml, { now: at, signature: true })).toBeNull();
        seen.nfe++;
        const b = brokenRequest(items[0]!, plans[0]!.breakWith, day, 55)!;
        seen.refused.add(b.rule);
        const refused = prepareNfe({ ...medReq, items: [b.item, ...items.slice(1)] }, ctx);
        expect(refused.ok ? [] : refused.errors).toContainEqual(expect.objectContaining({ field: b.field, rule: b.rule }));
        const x = brokenXml(built.xml, plans[0]!.breakWith, 55)!;
        seen.simulator.add(x.code);
        expect(nfeVerdict(x.xml, { now: at, signature: false })).toBe(x.code);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(seen.nfe).toBeGreaterThan(RUNS / 2);
  }, BUDGET_MS);

  it('the generators reached each part of the groups and each broken rule', () => {
    expect(seen.exempt).toBeGreaterThan(0);
    expect(seen.nfceWithoutBatches).toBeGreaterThan(0);
    expect(seen.sameDay).toBeGreaterThan(0);
    expect([...seen.refused].sort(), JSON.stringify(seen)).toEqual(['I83-10', 'I84-10', 'K01-20']);
    expect([...seen.simulator].sort()).toEqual([870, 873, 877]);
  });
});
