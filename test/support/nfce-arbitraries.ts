import fc from 'fast-check';
import { computeItems } from '../../src/documents/goods/domain/compute-items.js';
import { spreadProportionally, formatCents } from '../../src/kernel/decimal.js';
import { NFCE_CSOSNS, NFCE_CSTS, OWN_ICMS_CODES, REDUCED_BASE_CODES, ST_CODES } from '../../src/documents/goods/domain/icms-codes.js';
import { NFCE_ALLOWED_CSOSNS, NFCE_ALLOWED_CSTS } from '../../src/documents/nfce/domain/nfce-icms-codes.js';
import type { Crt, Issuer } from '../../src/documents/goods/domain/issuer-context.js';
import type { NfceContext } from '../../src/documents/nfce/domain/build-nfce.js';
import { CARD_METHODS, PAYMENT_METHODS, type PaymentMethod } from '../../src/fiscal/layout/payment-codes.js';
import type { Sale, SaleItem, SalePayment } from '../../src/documents/nfce/domain/sale.js';
import { cnpjCheckDigits } from '../../src/kernel/tax-id.js';
import { itemValue } from '../../src/documents/goods/domain/totals.js';
import { testSigningKey } from './nfce-fixtures.js';
import { VALID_IE } from './state-registrations.js';
import { respTecRequired } from '../../src/fiscal/states/states.js';
import { fitReformRates } from './reform-rates-fit.js';
import { reformTablesInForce } from '../../src/fiscal/reform/reform-tables-in-force.js';

// fast-check generators of valid sales and issuer contexts for the NFC-e property test.

/** A municipality (capital) per UF used by the generated issuers and delivery addresses. */
export const CAPITALS: Record<string, [string, string]> = {
  SP: ['3550308', 'São Paulo'], RS: ['4314902', 'Porto Alegre'], AM: ['1302603', 'Manaus'], AC: ['1200401', 'Rio Branco'],
  BA: ['2927408', 'Salvador'], MG: ['3106200', 'Belo Horizonte'], PR: ['4106902', 'Curitiba'], PE: ['2611606', 'Recife'],
};

const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));

export const cpfArb = digits(9).filter((d) => !/^(\d)\1+$/.test(d)).map((nine) => {
  const ds = [...nine].map(Number);
  const dv = (arr: number[], w0: number) => { const r = arr.reduce((a, d, i) => a + d * (w0 - i), 0) % 11; return r < 2 ? 0 : 11 - r; };
  const d1 = dv(ds, 10);
  return nine + d1 + dv([...ds, d1], 11);
});

export const numericCnpjArb = digits(8).filter((d) => !/^(\d)\1+$/.test(d)).map((root) => root + '0001' + cnpjCheckDigits(root + '0001'));
export const alphaCnpjArb = fc.stringMatching(/^[0-9A-Z]{7}[A-Z]$/).map((root) => root + '0001' + cnpjCheckDigits(root + '0001'));

const gtinArb = digits(12).map((twelve) => {
  const total = [...twelve].reverse().reduce((a, d, i) => a + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return twelve + ((10 - (total % 10)) % 10);
});

const textArb = (maxPieces: number) =>
  fc.array(fc.constantFrom('Cafe', 'Pão', 'açúcar', 'Açaí', '&', '<b>', '"x"', "d'água", 'Ü', '100%', '–', '12', 'São João', 'x  y', '\tz'), { minLength: 1, maxLength: maxPieces }).map((p) => p.join(' '));

// Built once: fc.stringMatching compiles its regex into arbitraries (about 1 ms each), and the item
// generator used to be rebuilt inside caseArb's chain for every case (2 s of a 1000-case run).
// Codes of the NCM table in force (docs/fiscal/ncm.md): the gateway and the simulator refuse others (MOC I05-20).
const ncmArb = fc.constantFrom('04012010', '08119000', '09012100', '17019900', '19052090', '19059090', '22021000', '40111000', '40169990', '60063210', '64011000', '73181500', '84713012', '84716053', '84821090', '87032100', '87083090', '96081000');
const cestArb = digits(7);

const percentArb = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((n) => n / 100);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const itemArbs = new Map<string, fc.Arbitrary<SaleItem>>();
/**
 * The item generator of a regime (one per CRT and ceiling, built on first use: the same values, no
 * rebuild per case). `ceiling`: the largest vProd in cents, the quantity cut down to stay within it.
 */
export function itemArb(crt: Crt, ceiling = Number.POSITIVE_INFINITY): fc.Arbitrary<SaleItem> {
  let arb = itemArbs.get(`${crt}/${ceiling}`);
  if (!arb) itemArbs.set(`${crt}/${ceiling}`, (arb = buildItemArb(crt, ceiling)));
  return arb;
}

// MOC W16-30 (780): an NFC-e stays within R$ 200.000,00; its items are kept to R$ 50.000,00 each and
// R$ 100.000,00 together (ICMS-ST may add up to ~70% to vNF).
const NFCE_ITEM_CEILING = 5_000_000; // cents
const NFCE_ITEMS_CEILING = 10_000_000; // cents

/**
 * The items an NFC-e accepts (MOC N12-30, N12a-20, N12-34, N12a-34): no ST codes, no ST data with
 * 90/900; CFOP 5405 for CST 60 / CSOSN 500, a sale CFOP otherwise (N12-40/44, N12a-40/44).
 */
export function nfceItemArb(crt: Crt): fc.Arbitrary<SaleItem> {
  return itemArb(crt, NFCE_ITEM_CEILING)
    .filter((i) => (NFCE_ALLOWED_CSTS as readonly string[]).includes((i.cst_icms ?? i.csosn)!) || (NFCE_ALLOWED_CSOSNS as readonly string[]).includes((i.cst_icms ?? i.csosn)!))
    .map((i) => {
      const code = (i.cst_icms ?? i.csosn)!;
      const item = { ...i };
      if (code === '90' || code === '900') delete item.st;
      const withheld = code === '60' || code === '500';
      item.cfop = withheld ? '5405' : item.cfop === '5405' ? '5102' : item.cfop;
      return item;
    });
}

function buildItemArb(crt: Crt, ceiling: number): fc.Arbitrary<SaleItem> {
  // CST 61 is a fuel's (it needs fuel and icms_mono): the monophase properties and tests draw it (icms-mono*.test.ts).
  const codes = crt === 3 ? NFCE_CSTS.filter((c) => c !== '61') : [...NFCE_CSOSNS];
  return fc
    .record({
      code: fc.constantFrom(...codes),
      description: textArb(6),
      q4: fc.oneof(fc.integer({ min: 1, max: 100 }).map((n) => n * 10_000), fc.integer({ min: 1, max: 10_000_000 })),
      price: fc.oneof(fc.integer({ min: 1, max: 500_000 }).map((c) => c / 100), fc.integer({ min: 1, max: 1_000_000_000_000 }).map((p) => p / 1e10)),
      ncm: ncmArb,
      cfop: fc.constantFrom('5102', '5405', '5101', '5103'),
      unit: fc.constantFrom('UN', 'KG', 'LT', 'CX', 'PCT'),
      gtin: opt(fc.oneof(fc.constant('SEM GTIN'), gtinArb)),
      code_field: fc.constantFrom('cst_icms', 'csosn'),
      cest: opt(cestArb),
      discountShare: opt(fc.integer({ min: 0, max: 100 })),
      origin: opt(fc.integer({ min: 0, max: 8 })),
      pICMS: percentArb(30),
      withOwnOptional: fc.boolean(),
      withVbc: fc.boolean(),
      reduction: percentArb(80),
      fcp: opt(percentArb(4).filter((r) => r > 0)), // never 0 (MOC N17b-10)
      st: fc.record({ rate: percentArb(25), mva: opt(percentArb(150)), base_reduction: opt(percentArb(50)), fcp_rate: opt(percentArb(2).filter((r) => r > 0)), modality: opt(fc.integer({ min: 0, max: 6 })), withBase: fc.boolean() }),
      withStOptional: fc.boolean(),
      retained: opt(fc.record({ base: fc.integer({ min: 0, max: 100_000 }), rate: percentArb(25), amount: fc.integer({ min: 0, max: 20_000 }), sub: opt(fc.integer({ min: 0, max: 10_000 })) })),
      credit: percentArb(5),
      withCreditOptional: fc.boolean(),
      pis: opt(fc.record({ cst: fc.constantFrom('01', '02', '04', '06', '07', '49', '99'), rate: percentArb(10) })),
      reform: opt(fc.record({ ibs: opt(percentArb(1)), cbs: opt(percentArb(9)), is: fc.boolean() })),
      approx: opt(fc.integer({ min: 0, max: 10_000 })),
      info: opt(textArb(4)),
    })
    .filter((r) => itemValue(r.q4 / 10_000, r.price).vProd > 0)
    .map((r) => {
      const whole = itemValue(r.q4 / 10_000, r.price).vProd;
      const quantity = whole > ceiling ? Math.max(1, Math.floor((r.q4 * ceiling) / whole)) / 10_000 : r.q4 / 10_000;
      const vProd = itemValue(quantity, r.price).vProd;
      const item: SaleItem = { description: r.description, quantity, unit_price: r.price, ncm: r.ncm, cfop: r.cfop, unit: r.unit };
      if (crt !== 3 && r.code_field === 'csosn') item.csosn = r.code;
      else item.cst_icms = r.code;
      if (r.gtin) item.gtin = r.gtin;
      if (r.cest) item.cest = r.cest;
      if (r.origin !== undefined) item.origin = r.origin;
      if (r.discountShare !== undefined) item.discount = Math.floor((vProd * r.discountShare) / 100) / 100;
      const own = OWN_ICMS_CODES.has(r.code) || ((r.code === '90' || r.code === '900') && r.withOwnOptional);
      if (own) {
        item.pICMS = r.pICMS;
        if (r.withVbc) item.vBC = Math.floor(vProd / 2) / 100;
        if (REDUCED_BASE_CODES.has(r.code) || r.code === '90' || r.code === '900') item.icms_base_reduction = r.reduction;
        if (r.fcp !== undefined && r.code !== '900') item.fcp_rate = r.fcp;
      }
      // CSOSN 201/202/203: the own operation's rate, deducted from the ST, is required (docs/fiscal/icms-st.md).
      if (r.code === '201' || r.code === '202' || r.code === '203') item.pICMS = r.pICMS;
      if (ST_CODES.has(r.code) || ((r.code === '90' || r.code === '900') && r.withStOptional)) {
        item.st = { rate: r.st.rate };
        if (r.st.mva !== undefined) item.st.mva = r.st.mva;
        if (r.st.base_reduction !== undefined) item.st.base_reduction = r.st.base_reduction;
        if (r.st.fcp_rate !== undefined) item.st.fcp_rate = r.st.fcp_rate;
        if (r.st.modality !== undefined) item.st.modality = r.st.modality;
        if (r.st.withBase) item.st.base = Math.floor((vProd * 13) / 10) / 100;
      }
      if ((r.code === '60' || r.code === '500') && r.retained) {
        item.st_retained = { base: r.retained.base / 100, rate: r.retained.rate, amount: r.retained.amount / 100 };
        if (r.retained.sub !== undefined) item.st_retained.substitute_amount = r.retained.sub / 100;
      }
      if (r.code === '101' || r.code === '201' || (r.code === '900' && r.withCreditOptional)) item.simples_credit_rate = r.credit;
      if (r.pis) {
        const nt = /^0[4-9]$/.test(r.pis.cst);
        item.pis = nt ? { cst: r.pis.cst } : { cst: r.pis.cst, rate: r.pis.rate };
        item.cofins = nt ? { cst: r.pis.cst } : { cst: r.pis.cst, rate: r.pis.rate * 4 > 100 ? 100 : r.pis.rate * 4 };
      }
      if (r.reform) {
        item.reform = {};
        if (r.reform.ibs !== undefined) item.reform.ibs_state_rate = r.reform.ibs;
        if (r.reform.cbs !== undefined) item.reform.cbs_rate = r.reform.cbs;
        if (r.reform.is) item.reform.selective_tax = { cst: '000', class_code: '000001', rate: 1.5 };
      }
      if (r.approx !== undefined) item.approximate_taxes = r.approx / 100;
      if (r.info) item.additional_info = r.info;
      return item;
    });
}

export interface GeneratedCase {
  sale: Sale;
  ctx: NfceContext;
}

// MOC YA02-40 (899), YA02-50 (436): an NFC-e is paid neither sem_pagamento nor outros.
const METHODS = Object.keys(PAYMENT_METHODS).filter((m) => m !== 'sem_pagamento' && m !== 'outros') as PaymentMethod[];

function payments(vNF: number, plan: { methods: PaymentMethod[]; weights: number[]; change: number; acquirer: string }): SalePayment[] {
  if (vNF === 0) return [{ method: 'dinheiro', amount: 0 }];
  const shares = spreadProportionally(vNF, plan.weights.slice(0, plan.methods.length));
  const list = plan.methods
    .map((method, i): SalePayment => {
      const p: SalePayment = { method, amount: shares[i]! / 100 };
      if (CARD_METHODS.has(method) && i % 2 === 0) p.card_brand = 'visa';
      if ((method === 'credito' || method === 'debito') && i % 3 === 0) Object.assign(p, { integrated: true, card_brand: 'mastercard', acquirer_cnpj: plan.acquirer, card_authorization: 'AUT' + i });
      if (method === 'outros') p.description = 'Permuta de mercadoria';
      return p;
    })
    .filter((p) => p.amount > 0);
  const cash = list.find((p) => p.method === 'dinheiro');
  if (cash) cash.amount = Number(formatCents(Math.round(cash.amount * 100) + plan.change));
  return list;
}

export function caseArb(): fc.Arbitrary<GeneratedCase> {
  return fc
    .record({ crt: fc.constantFrom<Crt>(1, 2, 3, 4), alpha: fc.boolean(), uf: fc.constantFrom(...Object.keys(CAPITALS)), issuerCnpjN: numericCnpjArb, issuerCnpjA: alphaCnpjArb })
    .chain((base) =>
      fc.record({
        base: fc.constant(base),
        items: fc.array(nfceItemArb(base.crt), { minLength: 1, maxLength: 100 }),
        tpAmb: fc.constantFrom<1 | 2>(1, 2),
        taxReform: fc.boolean(),
        offline: fc.boolean(),
        nNF: fc.integer({ min: 1, max: 999_999_999 }),
        serie: fc.integer({ min: 0, max: 889 }),
        emittedAt: fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-31T23:59:59Z'), noInvalidDate: true }),
        respTec: fc.boolean(),
        consumer: opt(fc.record({ cpf: cpfArb, cnpj: fc.oneof(numericCnpjArb, alphaCnpjArb), useCnpj: fc.boolean(), name: opt(fc.constantFrom('Jose da Silva', 'Ana Lúcia d\'Ávila', 'Bar & Cia', 'Zé')), email: fc.boolean(), delivery: fc.boolean() })),
        saleDiscount: opt(fc.integer({ min: 0, max: 100 })),
        approx: opt(fc.integer({ min: 0, max: 100_000 })),
        info: opt(textArb(10)),
        plan: fc.record({ methods: fc.array(fc.constantFrom(...METHODS), { minLength: 1, maxLength: 4 }), weights: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 4, maxLength: 4 }), change: fc.integer({ min: 0, max: 10_000 }), acquirer: numericCnpjArb }),
      }),
    )
    .map((g) => {
      const [cityCode, cityName] = CAPITALS[g.base.uf]!;
      const issuer: Issuer = {
        cnpj: g.base.alpha ? g.base.issuerCnpjA : g.base.issuerCnpjN, ie: VALID_IE[g.base.uf]!, razao_social: 'Loja & Cia <Teste> Ltda', uf: g.base.uf, crt: g.base.crt,
        endereco: { logradouro: 'Rua Um', numero: 'S/N', bairro: 'Centro', codigo_municipio: cityCode, municipio: cityName, cep: '01001000' },
      };
      const items: SaleItem[] = [];
      let sum = 0;
      for (const it of g.items) {
        sum += itemValue(it.quantity, it.unit_price).vProd;
        if (items.length > 0 && sum > NFCE_ITEMS_CEILING) break;
        items.push(it);
      }
      fitReformRates(items, g.emittedAt, cityCode, g.base.uf);
      const sale: Sale = { issuer_id: 'iss_prop', external_ref: 'prop', items };
      if (g.saleDiscount !== undefined) {
        const gross = computeItems(sale, { crt: g.base.crt, tpAmb: 1 }).total.vProd - computeItems(sale, { crt: g.base.crt, tpAmb: 1 }).total.vDesc;
        sale.discount = Math.floor((gross * g.saleDiscount) / 100) / 100;
      }
      if (g.approx !== undefined) sale.approximate_taxes = g.approx / 100;
      if (g.info) sale.additional_info = g.info;
      if (g.consumer) {
        // QR v3 offline carries the recipient id as [0-9]{3,14} (PL_010 pattern): a CNPJ with letters cannot go there.
        const alphaBlocked = g.offline && /[A-Z]/.test(g.consumer.cnpj);
        sale.consumer = g.consumer.useCnpj && !alphaBlocked ? { cnpj: g.consumer.cnpj } : { cpf: g.consumer.cpf };
        if (g.consumer.name) sale.consumer.name = g.consumer.name;
        if (g.consumer.email) sale.consumer.email = 'cliente@example.com';
        if (g.consumer.delivery) {
          sale.home_delivery = true;
          sale.consumer.name ??= 'Maria da Silva';
          sale.consumer.address = { street: 'Rua Dois', number: '22', district: 'Bairro', city_code: cityCode, city: cityName, uf: g.base.uf, cep: '01001000' };
          // MOC X03-20 (786): a home delivery names its carrier; any modFrete goes (X02-10 bars freight only without delivery).
          sale.transporte = { modalidade: g.serie % 2 === 0 ? 'emitente' : 'proprio_emitente', transportadora: { cnpj: '10422724000187', name: 'Entregas Rapidas Ltda', ie: 'ISENTO', uf: g.base.uf } };
        }
      }
      const vNF = computeItems(sale, { crt: g.base.crt, tpAmb: 1 }).total.vNF;
      // Ajuste SINIEF 19/16: from R$ 10.000,00 the consumer is identified.
      if (vNF >= 1_000_000 && !sale.consumer) sale.consumer = { cpf: g.consumer?.cpf ?? '52998224725' };
      // MOC W16-60 (752): and its address is written.
      if (vNF >= 1_000_000) sale.consumer!.address ??= { street: 'Rua Dois', number: '22', district: 'Bairro', city_code: cityCode, city: cityName, uf: g.base.uf, cep: '01001000' };
      const list = payments(vNF, g.plan);
      if (list.length === 1) sale.payment = list[0]!;
      else sale.payments = list;
      const ctx: NfceContext = {
        issuer, tpAmb: g.tpAmb, serie: g.serie, nNF: g.nNF, emittedAt: g.emittedAt, processingDay: g.emittedAt.toISOString().slice(0, 10), taxReform: g.taxReform, reformTables: reformTablesInForce(), signingKey: testSigningKey(),
        csc: { id: '000001', token: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8' },
      };
      if (g.offline) Object.assign(ctx, { tpEmis: 9, contingency: { at: new Date(g.emittedAt.getTime() - 60_000), reason: 'Falha de comunicacao com a SEFAZ' } });
      // MOC ZD01-10: infRespTec is required in AM, MS, PE, PR, SC and TO (src/fiscal/states/states.ts).
      if (g.respTec || respTecRequired(g.base.uf)) ctx.respTec = { cnpj: '10422724000187', contato: 'Suporte Tecnico', email: 'suporte@example.com', fone: '11999998888', csrt: { id: '1', token: 'G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO' } };
      return { sale, ctx };
    });
}
