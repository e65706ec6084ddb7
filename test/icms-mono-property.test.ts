import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { monoRejection } from '../src/authority-sim/icms-mono-rules.js';
import { model55Rejection } from '../src/authority-sim/nfe55-rules.js';
import { totalRejection } from '../src/authority-sim/nfe-total-rules.js';
import { computeNfe } from '../src/documents/nfe/domain/compute-nfe.js';
import { buildPreparedNfe, prepareNfe } from '../src/documents/nfe/domain/index.js';
import type { NfeItem, NfeRequest } from '../src/documents/nfe/domain/nfe-request.js';
import { NFE_CONTEXT, interstateRequest, nfeDocumentContext } from './support/nfe-fixtures.js';
import { packageFailures } from './support/nfce-checks.js';

// The fuel property extended to the monophase ICMS (docs/fiscal/icms-monophase.md): random NF-e of CST 02/15/53/61
// fuel items; each value and total is recomputed here from the request with integer arithmetic (half up to the
// cent), each document passes the XSD of its date and the simulator's model 55 and W16-10 (vNF) rules.

const RUNS = Number(process.env.MONO_PROPERTY_RUNS ?? 120);
const SEED = Number(process.env.MONO_PROPERTY_SEED ?? 20261129);
const dir = mkdtempSync(join(tmpdir(), 'mono-property-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const planArb = fc.record({
  cst: fc.constantFrom('02', '15', '53', '61'),
  q: fc.integer({ min: 10_000, max: 100_000_000 }), // quantity, scale 4 (1 to 10 000 L)
  price: fc.integer({ min: 1_000, max: 99_999 }), // unit price, scale 4 (R$ 0.10 to 9.9999)
  ownQ: fc.option(fc.integer({ min: 1, max: 100_000_000 }), { nil: undefined }),
  adRem: fc.integer({ min: 1, max: 99_999 }), // reais per unit, scale 4
  retQ: fc.option(fc.integer({ min: 1, max: 100_000_000 }), { nil: undefined }),
  retAdRem: fc.integer({ min: 1, max: 99_999 }),
  pDif: fc.integer({ min: 0, max: 1_000_000 }),
  reduction: fc.option(fc.record({ rate: fc.integer({ min: 0, max: 10_000 }), reason: fc.constantFrom<1 | 9>(1, 9) }), { nil: undefined }),
});
type Plan = typeof planArb extends fc.Arbitrary<infer T> ? T : never;

/** q (scale 4) x rate (scale 4) in cents, half up. */
const times = (q: number, r: number) => Number((BigInt(q) * BigInt(r) + 500_000n) / 1_000_000n);
const cents = (s: string | undefined) => Math.round(Number(s ?? 'NaN') * 100);
const leaf = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

function itemOf(p: Plan): NfeItem {
  const icms_mono: NonNullable<NfeItem['icms_mono']> = { ad_rem_rate: p.adRem / 10_000 };
  if (p.ownQ !== undefined) icms_mono.quantity = p.ownQ / 10_000;
  if (p.cst === '15') {
    icms_mono.retention = { ad_rem_rate: p.retAdRem / 10_000, ...(p.retQ !== undefined ? { quantity: p.retQ / 10_000 } : {}) };
    if (p.reduction) icms_mono.ad_rem_reduction = { rate: p.reduction.rate / 100, reason: p.reduction.reason };
  }
  if (p.cst === '53') icms_mono.deferral_rate = p.pDif / 10_000;
  return {
    description: 'Gasolina C comum', quantity: p.q / 10_000, unit_price: p.price / 10_000, ncm: '27101259', cfop: '5656', unit: 'L', cst_icms: p.cst,
    fuel: { anp_code: '320102001', uf_cons: 'SP' }, icms_mono, pis: { cst: '04' }, cofins: { cst: '04' },
  };
}

function requestOf(plans: Plan[]): NfeRequest {
  const req = interstateRequest();
  req.presenca = 'nao_se_aplica';
  req.destinatario = {
    cnpj: '11222333000181', name: 'Posto Boa Viagem Ltda', indicador_ie: 'contribuinte', ie: '112006603110',
    address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3509502', city: 'Campinas', uf: 'SP', cep: '13010000' },
  };
  req.items = plans.map(itemOf);
  delete req.freight;
  delete req.transporte;
  const { vNF } = computeNfe(req, { crt: 3, issuerUf: 'SP', destUf: 'SP', finalConsumer: false }).total;
  req.payment = { method: 'boleto', amount: vNF / 100 };
  return req;
}

/** What each item's group must say, from the plan alone. */
function expected(p: Plan) {
  const itemQ = p.q;
  const ownQ = p.ownQ ?? itemQ;
  if (p.cst === '61') return { ret: { q: ownQ, v: times(ownQ, p.adRem) } };
  const op = times(ownQ, p.adRem);
  if (p.cst === '53') {
    const dif = Number((BigInt(op) * BigInt(p.pDif) + 500_000n) / 1_000_000n);
    return { own: { q: ownQ, v: op - dif }, op, dif };
  }
  const out: { own: { q: number; v: number }; reten?: { q: number; v: number } } = { own: { q: ownQ, v: op } };
  if (p.cst === '15') out.reten = { q: p.retQ ?? itemQ, v: times(p.retQ ?? itemQ, p.retAdRem) };
  return out;
}

describe('monophase property: random NF-e of CST 02/15/53/61 fuel items', () => {
  const pl010: string[] = [];
  const pl009: string[] = [];
  const seen = new Set<string>();

  it(`${RUNS} NF-e: values and totals as computed by hand, vNF with the retention, accepted by the simulator's model 55 and W16-10 rules`, () => {
    let n = 0;
    fc.assert(
      fc.property(fc.array(planArb, { minLength: 1, maxLength: 4 }), (plans) => {
        const prepared = prepareNfe(requestOf(plans), NFE_CONTEXT);
        if (!prepared.ok) expect(prepared.errors).toEqual([]);
        if (!prepared.ok) return;
        const built = buildPreparedNfe(prepared.nfe, nfeDocumentContext());
        const xml = built.xml;
        const dets = xml.split('<det ').slice(1);
        const sums = { q: 0, v: 0, rq: 0, rv: 0, tq: 0, tv: 0, vProd: 0 };
        plans.forEach((p, i) => {
          seen.add(p.cst);
          const g = new RegExp(`<ICMS${p.cst}>(.*?)</ICMS${p.cst}>`).exec(dets[i]!)?.[1] ?? '';
          const e = expected(p);
          sums.vProd += cents(leaf(dets[i]!, 'vProd'));
          if ('ret' in e && e.ret) {
            expect(Math.round(Number(leaf(g, 'qBCMonoRet')) * 10_000)).toBe(e.ret.q);
            expect(cents(leaf(g, 'vICMSMonoRet'))).toBe(e.ret.v);
            sums.tq += e.ret.q;
            sums.tv += e.ret.v;
            return;
          }
          const own = (e as { own: { q: number; v: number } }).own;
          expect(Math.round(Number(leaf(g, 'qBCMono')) * 10_000)).toBe(own.q);
          expect(cents(leaf(g, 'vICMSMono'))).toBe(own.v);
          sums.q += own.q;
          sums.v += own.v;
          if ('op' in e) {
            expect(cents(leaf(g, 'vICMSMonoOp'))).toBe(e.op);
            expect(cents(leaf(g, 'vICMSMonoDif'))).toBe(e.dif);
          }
          if ('reten' in e && e.reten) {
            expect(Math.round(Number(leaf(g, 'qBCMonoReten')) * 10_000)).toBe(e.reten.q);
            expect(cents(leaf(g, 'vICMSMonoReten'))).toBe(e.reten.v);
            sums.rq += e.reten.q;
            sums.rv += e.reten.v;
          }
        });
        const tot = /<ICMSTot>(.*?)<\/ICMSTot>/.exec(xml)![1]!;
        const hundredths = (q4: number) => Math.floor((q4 + 50) / 100);
        const check = (qName: string, vName: string, q: number, v: number, present: boolean) => {
          if (!present) return expect(leaf(tot, qName)).toBeUndefined();
          expect(cents(leaf(tot, qName))).toBe(hundredths(q));
          expect(cents(leaf(tot, vName))).toBe(v);
        };
        check('qBCMono', 'vICMSMono', sums.q, sums.v, plans.some((p) => p.cst !== '61'));
        check('qBCMonoReten', 'vICMSMonoReten', sums.rq, sums.rv, plans.some((p) => p.cst === '15'));
        check('qBCMonoRet', 'vICMSMonoRet', sums.tq, sums.tv, plans.some((p) => p.cst === '61'));
        expect(cents(leaf(tot, 'vNF'))).toBe(sums.vProd + sums.rv);
        const facts = nfeFacts(xml);
        expect(model55Rejection(facts)).toBeNull();
        expect(totalRejection(facts)).toBeNull();
        expect(monoRejection(facts)).toBeNull();
        const file = join(dir, `nfe-${n++}.xml`);
        writeFileSync(file, xml);
        pl010.push(file);
        if (built.schemaPackage === 'PL_009') pl009.push(file);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect([...seen].sort()).toEqual(['02', '15', '53', '61']);
  }, 300_000);

  it('every document passes the XSD of its date (and PL_010 v1.40)', async () => {
    expect(pl010.length).toBe(RUNS);
    expect(await packageFailures(pl010, pl009)).toBe('');
  }, 300_000);
});
