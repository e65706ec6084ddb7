import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { ImportDeclaration, ImportTax } from '../src/documents/nfe/domain/import-declaration.js';
import type { NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { nfeCaseArb } from './support/nfe-arbitraries.js';
import { nfeVerdict } from './support/simulator-verdict.js';

// Random NF-e imports (docs/fiscal/vehicles-and-foreign-trade.md): a generated NF-e with a party abroad is
// turned into an entry note from that supplier (every item CFOP 3102 with its DI and II). What the gateway
// accepts, the simulator authorizes (its whole rule set and the XSD); ICMSTot/vII is the sum of the items'
// II (MOC W11-10) and vNF includes it (W16-10, checked by the simulator). One DI rule broken in the request is
// refused naming the field; broken in the built XML it is refused by the simulator with its code.

const RUNS = Number(process.env.IMPORT_PROPERTY_RUNS ?? 100);
const SEED = Number(process.env.IMPORT_PROPERTY_SEED ?? 20261129);
const BUDGET_MS = Math.max(180_000, RUNS * 1500);

const money = (max: number) => fc.integer({ min: 0, max }).map((n) => n / 100);
const additionArb = fc.record({ sequence: fc.integer({ min: 1, max: 99999 }).map(String), manufacturer_code: fc.stringMatching(/^[A-Z0-9]{1,20}$/) });
const planArb = fc.record({
  number: fc.stringMatching(/^[0-9]{10,15}$/),
  daysAgo: fc.integer({ min: 0, max: 1800 }),
  mode: fc.constantFrom('1', '4', '7'),
  afrmm: money(100_000),
  onBehalf: fc.boolean(),
  additions: fc.array(additionArb, { minLength: 1, maxLength: 3 }),
  tax: fc.record({ base: money(10_000_000), customs_expenses: money(100_000), value: money(1_000_000), iof: money(10_000) }),
});
type Plan = typeof planArb extends fc.Arbitrary<infer T> ? T : never;
const BREAKS = [
  { how: 'sea', field: 'afrmm', rule: 'I23b-10', code: 330 },
  { how: 'buyer', field: 'buyer_cnpj', rule: 'I23d-10', code: 331 },
  { how: 'uf', field: 'third_party_uf', rule: 'I23e-10', code: 333 },
] as const;

const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

function declarationOf(p: Plan, day: string): ImportDeclaration {
  const di: ImportDeclaration = {
    number: p.number, registered_on: shift(day, p.daysAgo), clearance_place: 'PORTO DE SANTOS', clearance_uf: 'SP', cleared_on: shift(day, p.daysAgo),
    transport_mode: p.mode, intermediation: p.onBehalf ? '2' : '1', exporter_code: 'EXP1', additions: p.additions,
  };
  if (p.mode === '1') di.afrmm = p.afrmm;
  if (p.onBehalf) Object.assign(di, { buyer_cnpj: '11222333000181', third_party_uf: 'RJ' });
  return di;
}

function asImport(req: NfeRequest, plans: Plan[], day: string): NfeRequest {
  const { export: _export, cobranca: _cobranca, payments: _payments, ...rest } = req;
  return {
    ...rest,
    natureza_operacao: 'COMPRA PARA COMERCIALIZACAO',
    items: req.items.map((it, i) => {
      const { export_detail: _e, ...item } = it;
      const p = plans[i % plans.length]!;
      return { ...item, cfop: '3102', import_declarations: [declarationOf(p, day)], import_tax: p.tax as ImportTax };
    }),
    payment: { method: 'sem_pagamento', amount: 0 },
  } as NfeRequest;
}

const cents = (v: string) => Math.round(Number(v) * 100);

describe('import property: random NF-e imports', () => {
  const seen = { authorized: 0, refused: new Set<string>(), simulator: new Set<number>() };

  it(`${RUNS} imports: accepted, built, authorized; vII summed; one DI rule broken is refused by both`, () => {
    fc.assert(
      fc.property(nfeCaseArb().filter((g) => g.kind === 'abroad'), fc.array(planArb, { minLength: 1, maxLength: 3 }), fc.constantFrom(...BREAKS), ({ req, ctx, doc }, plans, br) => {
        // Notes under the 2026 reform are left out: an import's IBS/CBS (base with vII, rates of an entry) is not covered here.
        if (ctx.taxReform || !prepareNfe(req, ctx).ok) return;
        const day = doc.emittedAt.toISOString().slice(0, 10);
        const imp = asImport(req, plans, day);
        const prepared = prepareNfe(imp, ctx);
        // A note dated 2027 on needs the CBS rate of an import, which an export never asked for (left out, as above).
        if (!prepared.ok && prepared.errors.every((e) => e.field.includes('.reform.'))) return;
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        if (!prepared.ok) return;
        const built = buildPreparedNfe(prepared.nfe, doc);
        const at = new Date(doc.emittedAt.getTime() + 2000);
        expect(nfeVerdict(built.xml, { now: at, signature: true })).toBeNull();
        const vII = imp.items.reduce((s, it) => s + Math.round(it.import_tax!.value * 100), 0);
        expect(cents(/<ICMSTot>[\s\S]*?<vII>([^<]*)<\/vII>/.exec(built.xml)![1]!)).toBe(vII);
        seen.authorized++;
        // The request broken on the first item's declaration.
        const di = { ...imp.items[0]!.import_declarations![0]! };
        if (br.how === 'sea') Object.assign(di, { transport_mode: '1', afrmm: undefined });
        else Object.assign(di, { intermediation: '2', buyer_cnpj: br.how === 'buyer' ? undefined : '11222333000181', third_party_uf: br.how === 'uf' ? undefined : 'RJ' });
        const broken = { ...imp, items: [{ ...imp.items[0]!, import_declarations: [di] }, ...imp.items.slice(1)] };
        const refused = prepareNfe(broken, ctx);
        expect(refused.ok ? [] : refused.errors).toContainEqual(expect.objectContaining({ field: `items[0].import_declarations[0].${br.field}`, rule: br.rule }));
        seen.refused.add(br.rule);
        // The same rule broken in the built XML (signature not checked: edited after signing).
        const det = /<det nItem="1">[\s\S]*?<\/det>/.exec(built.xml)![0];
        let edited = det;
        if (br.how === 'sea') edited = det.replace(/<tpViaTransp>[^<]*<\/tpViaTransp>(<vAFRMM>[^<]*<\/vAFRMM>)?/, '<tpViaTransp>1</tpViaTransp>');
        else {
          const who = br.how === 'buyer' ? '<UFTerceiro>RJ</UFTerceiro>' : '<CNPJ>11222333000181</CNPJ>';
          edited = det.replace(/<tpIntermedio>[^<]*<\/tpIntermedio>(<CNPJ>[^<]*<\/CNPJ>)?(<UFTerceiro>[^<]*<\/UFTerceiro>)?/, `<tpIntermedio>2</tpIntermedio>${who}`);
        }
        expect(nfeVerdict(built.xml.replace(det, edited), { now: at, signature: false })).toBe(br.code);
        seen.simulator.add(br.code);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(seen.authorized).toBeGreaterThan(RUNS / 4);
    expect([...seen.refused].sort()).toEqual(['I23b-10', 'I23d-10', 'I23e-10']);
    expect([...seen.simulator].sort()).toEqual([330, 331, 333]);
  }, BUDGET_MS);
});
