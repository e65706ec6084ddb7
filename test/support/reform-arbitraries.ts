import fc from 'fast-check';
import type { Issuer } from '../../src/documents/goods/domain/issuer-context.js';
import type { NfceContext } from '../../src/documents/nfce/domain/build-nfce.js';
import type { Sale } from '../../src/documents/nfce/domain/sale.js';
import type { NfeContext, NfeDocumentContext } from '../../src/documents/nfe/domain/nfe-context.js';
import type { NfeItem, NfeRequest } from '../../src/documents/nfe/domain/nfe-request.js';
import type { ClassEntry, ReformDocument, ReformTables } from '../../src/fiscal/reform/reform-tables.js';
import { reformTablesInForce } from '../../src/fiscal/reform/reform-tables-in-force.js';
import { recipient } from './adjustment-notes.js';
import { NUMERIC_ISSUER, testContext, testSigningKey } from './nfce-fixtures.js';
import { exportRequest } from './nfe-fixtures.js';

// Random sales of the tax reform for the reform property test (test/reform-property.test.ts): dates in 2026 and
// 2027, regime normal (reform_2026 or legacy account) and Simples Nacional, NFC-e and NF-e (in-state to a shop or
// a consumer, or an export), items whose CST / cClassTrib are drawn from the classification table in force on
// the date among those the gateway writes (regular 000, reduced 200 with gRed, immunity 410 without a group:
// docs/fiscal/tax-reform.md, "Classification"), with discounts, freight, insurance and other charges.

/** The CSTs the gateway writes whole: regular taxation, reduced rate (gRed), immunity / non-incidence. */
const SUPPORTED_CSTS = new Set(['000', '200', '410']);

/** Classes in force on `day` for the document that need no group the gateway does not write (reform-class-checks.ts). */
export function supportedClasses(t: ReformTables, day: string, document: ReformDocument): ClassEntry[] {
  return t.classes.filter((c) =>
    SUPPORTED_CSTS.has(c.cst) && c.documents.includes(document) && c.validFrom <= day && (c.validUntil === undefined || day < c.validUntil) &&
    !Object.values(c.indicators).some(Boolean));
}

export type ReformSaleKind = 'nfce' | 'nfe-shop' | 'nfe-consumer' | 'nfe-export';
export type ReformRegime = 'normal-reform' | 'normal-legacy' | 'simples';

/** A drawn sale; its contexts are built by `contextsOf` (kept out of the value so a counterexample prints short). */
export type ReformSale = { regime: ReformRegime; day: string; emittedAt: Date; tpAmb: 1 | 2 } & (
  | { kind: 'nfce'; sale: Sale }
  | { kind: Exclude<ReformSaleKind, 'nfce'>; req: NfeRequest }
);

function issuerOf(s: Pick<ReformSale, 'regime'>): Issuer {
  return { ...NUMERIC_ISSUER, crt: s.regime === 'simples' ? 1 : 3 };
}

/** The NFC-e context of a drawn sale (the reform_2026 account only for 'normal-reform'). */
export function nfceContextOf(s: ReformSale): NfceContext {
  return testContext(issuerOf(s), { taxReform: s.regime === 'normal-reform', emittedAt: s.emittedAt, tpAmb: s.tpAmb });
}

/** The NF-e contexts of a drawn sale: prepared on its local day, numbered and dated at emittedAt. */
export function nfeContextsOf(s: ReformSale): { ctx: NfeContext; doc: NfeDocumentContext } {
  return {
    ctx: { issuer: issuerOf(s), tpAmb: s.tpAmb, taxReform: s.regime === 'normal-reform', today: s.day, reformTables: reformTablesInForce() },
    doc: { serie: 1, nNF: 1234, emittedAt: s.emittedAt, signingKey: testSigningKey(), cNF: '40521937' },
  };
}

const NCMS = ['09012100', '04012010', '19059090', '22021000', '87131000', '94013100', '30049099', '85015210'];
const cents = (min: number, max: number) => fc.integer({ min, max });

const itemArb = fc.record({
  quantity: fc.integer({ min: 1, max: 6 }),
  price: cents(50, 250_000),
  /** Share of the item's value given as its own discount, in percent (0: none). */
  discountShare: fc.constantFrom(0, 0, 5, 10, 33, 50),
  ncm: fc.constantFrom(...NCMS),
  icms: fc.constantFrom<'00' | '40'>('00', '00', '40'),
  pICMS: fc.constantFrom(7, 12, 18, 20.5),
  /** Which class of the table (index into the classes in force), or the gateway's default. */
  pick: fc.option(fc.nat(), { nil: undefined, freq: 3 }),
});

const saleArb = fc.record({
  kind: fc.constantFrom<ReformSaleKind>('nfce', 'nfce', 'nfe-shop', 'nfe-consumer', 'nfe-export'),
  regime: fc.constantFrom<ReformRegime>('normal-reform', 'normal-reform', 'normal-legacy', 'simples', 'simples'),
  // 2026-01-05 (the NT's first day for CRT 3) to 2027-12-31, at noon in São Paulo.
  dayOffset: fc.integer({ min: 0, max: 725 }),
  tpAmb: fc.constantFrom<1 | 2>(1, 2),
  items: fc.array(itemArb, { minLength: 1, maxLength: 4 }),
  // Note-level charges in cents (NF-e): discount as a share of the goods, freight, insurance, other.
  noteDiscountShare: fc.constantFrom(0, 0, 3, 10),
  freight: fc.option(cents(1, 50_000), { nil: undefined }),
  insurance: fc.option(cents(1, 20_000), { nil: undefined }),
  other: fc.option(cents(1, 10_000), { nil: undefined }),
  // 2027: the CBS rate the law leaves to a Senate resolution (art. 347) is sent; any plausible figure.
  cbsRate: fc.integer({ min: 700, max: 950 }).map((n) => n / 100),
});

const FIRST_DAY = Date.parse('2026-01-05T15:00:00Z');
const reais = (c: number) => c / 100;

export function reformSaleArb(): fc.Arbitrary<ReformSale> {
  const tables = reformTablesInForce();
  return saleArb.map((g): ReformSale => {
    const emittedAt = new Date(FIRST_DAY + g.dayOffset * 86_400_000);
    const day = emittedAt.toISOString().slice(0, 10);
    const year = Number(day.slice(0, 4));
    const simples = g.regime === 'simples';
    const model: ReformDocument = g.kind === 'nfce' ? 'nfce' : 'nfe';
    const classes = supportedClasses(tables, day, model);
    const items = g.items.map((it, i) => {
      const cls = it.pick === undefined ? undefined : classes[it.pick % classes.length];
      const withRate = cls === undefined || cls.cst !== '410';
      const reform = {
        ...(cls ? { cst: cls.cst, class_code: cls.code } : {}),
        ...(year >= 2027 && withRate ? { cbs_rate: g.cbsRate } : {}),
      };
      // An NFC-e stays under R$ 10,000.00 (from there the consumer must be named: MOC W16-40, 750).
      const price = g.kind === 'nfce' ? 50 + (it.price % 40_000) : it.price;
      const value = it.quantity * price;
      const discount = Math.floor((value * it.discountShare) / 100);
      return {
        description: `Produto ${i + 1}`, quantity: it.quantity, unit_price: reais(price), ncm: it.ncm, cfop: '5102', unit: 'UN',
        ...(discount > 0 ? { discount: reais(discount) } : {}),
        ...(simples ? { cst_icms: '102' } : { cst_icms: it.icms, ...(it.icms === '00' ? { pICMS: it.pICMS } : {}) }),
        ...(Object.keys(reform).length > 0 ? { reform } : {}),
        value, itemDiscount: discount,
      };
    });
    const goods = items.reduce((a, i) => a + i.value, 0);
    const itemDiscounts = items.reduce((a, i) => a + i.itemDiscount, 0);
    const noteDiscount = Math.floor((goods * g.noteDiscountShare) / 100);
    const strip = (i: (typeof items)[number]): NfeItem => {
      const { value: _v, itemDiscount: _d, ...rest } = i;
      return rest;
    };
    if (g.kind === 'nfce') {
      const vNF = goods - itemDiscounts - noteDiscount;
      const sale: Sale = {
        issuer_id: 'iss_test', external_ref: 'reforma-prop', items: items.map(strip),
        ...(noteDiscount > 0 ? { discount: reais(noteDiscount) } : {}),
        payment: { method: 'pix', amount: reais(vNF) },
      };
      return { kind: 'nfce', regime: g.regime, day, emittedAt, tpAmb: g.tpAmb, sale };
    }
    const head = { day, emittedAt, tpAmb: g.tpAmb };
    if (g.kind === 'nfe-export') {
      // CST 410 / 410004 by default (CFOP 7xxx); ICMS 41 is a regime normal code, so the exporter is CRT 3.
      const price = g.items[0]!.price;
      const req = exportRequest(reais(price), { shipment_uf: 'SP', shipment_place: 'Porto de Santos' });
      return { kind: g.kind, regime: g.regime === 'simples' ? 'normal-reform' : g.regime, ...head, req };
    }
    const extra = (g.freight ?? 0) + (g.insurance ?? 0) + (g.other ?? 0);
    const vNF = goods - itemDiscounts - noteDiscount + extra;
    const consumer: NfeRequest['destinatario'] = {
      cpf: '52998224725', name: 'Maria da Silva', indicador_ie: 'nao_contribuinte',
      address: { street: 'Rua B', number: '2', district: 'Centro', city_code: '3550308', city: 'Sao Paulo', uf: 'SP', cep: '01001000' },
    };
    const req: NfeRequest = {
      issuer_id: 'iss_test', external_ref: 'reforma-prop', natureza_operacao: 'VENDA DE MERCADORIA',
      presenca: g.kind === 'nfe-shop' ? 'nao_se_aplica' : 'presencial',
      destinatario: g.kind === 'nfe-shop' ? recipient : consumer,
      items: items.map(strip),
      ...(noteDiscount > 0 ? { discount: reais(noteDiscount) } : {}),
      ...(g.freight ? { freight: reais(g.freight) } : {}),
      ...(g.insurance ? { insurance: reais(g.insurance) } : {}),
      ...(g.other ? { other_expenses: reais(g.other) } : {}),
      ...(g.freight ? { transporte: { modalidade: 'emitente' as const, transportadora: { cnpj: '10422724000187', name: 'Transportes Rapidos', uf: 'SP' } } } : {}),
      payment: { method: 'boleto', amount: reais(vNF) },
    };
    return { kind: g.kind, regime: g.regime, ...head, req };
  });
}
