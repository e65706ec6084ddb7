import fc from 'fast-check';
import { fitReformRates } from './reform-rates-fit.js';
import { computeNfe } from '../../src/documents/nfe/domain/compute-nfe.js';
import type { NfeContext, NfeDocumentContext } from '../../src/documents/nfe/domain/nfe-context.js';
import type { NfeItem, NfeRequest } from '../../src/documents/nfe/domain/nfe-request.js';
import { difalAllowed, difalRequired, interstateRate, type DifalFacts } from '../../src/documents/nfe/domain/operation.js';
import type { Crt, Issuer } from '../../src/documents/goods/domain/issuer-context.js';
import type { SalePayment } from '../../src/documents/nfce/domain/sale.js';
import { accessKeyCheckDigit } from '../../src/fiscal/layout/access-key.js';
import { PAYMENT_METHODS, type PaymentMethod } from '../../src/fiscal/layout/payment-codes.js';
import { itemValue } from '../../src/documents/goods/domain/totals.js';
import { formatCents, spreadProportionally } from '../../src/kernel/decimal.js';
import { cestMissing, exemptRecipientCstRefused, interstateCeiling, nonTaxpayerCsosnRefused, nonTaxpayerCstRefused } from '../../src/documents/nfe/domain/validate-icms-recipient.js';
import { alphaCnpjArb, CAPITALS, cpfArb, itemArb, numericCnpjArb } from './nfce-arbitraries.js';
import { testSigningKey } from './nfce-fixtures.js';
import { VALID_IE } from './state-registrations.js';
import { respTecRequired } from '../../src/fiscal/states/states.js';
import { timeZoneOf } from '../../src/fiscal/layout/ibge.js';
import { localDateTime } from '../../src/fiscal/layout/local-time.js';
import { reformTablesInForce } from '../../src/fiscal/reform/reform-tables-in-force.js';

// fast-check generators of valid NF-e requests and contexts for the model 55 property test: the
// NFC-e items (every CST/CSOSN) turned into NF-e items (CFOP of the operation's scope, CST 50/51,
// IPI, DIFAL where the MOC requires or allows it, ICMSPart and ICMSST in interstate notes), recipients in the state, in another state and
// abroad, freight, installments, transport, references, downloaders and payments.

const UFS = Object.keys(CAPITALS);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** Mostly numeric: every alphanumeric CNPJ written moves the note to PL_010. */
const cnpjArb = fc.oneof({ arbitrary: numericCnpjArb, weight: 6 }, { arbitrary: alphaCnpjArb, weight: 1 });
const percentArb = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((n) => n / 100);

export interface GeneratedNfe {
  req: NfeRequest;
  ctx: NfeContext;
  doc: NfeDocumentContext;
  kind: 'internal' | 'interstate' | 'abroad';
}

const extrasArb = fc.record({
  ipi: opt(fc.oneof(fc.record({ cst: fc.constantFrom('00', '49', '50', '99'), rate: percentArb(30), enq: opt(fc.constantFrom('999', '001', '12')) }), fc.record({ cst: fc.constantFrom('01', '02', '03', '04', '05', '51', '52', '53', '54', '55'), enq: fc.nat(98) }))),
  nfeCode: fc.constantFrom<'keep' | '50' | '51'>('keep', 'keep', 'keep', '50', '51'),
  pICMS: percentArb(25),
  deferral: opt(percentArb(100)),
  difalOptional: fc.boolean(),
  destRateAbove: percentArb(10),
  difalFcp: opt(percentArb(2)),
  cfopTail: fc.constantFrom('102', '101', '403'),
  inbound: fc.constantFrom(false, false, false, false, true),
  relief: opt(fc.record({ amount: fc.integer({ min: 1, max: 50_000 }), pick: fc.nat(), deducted: opt(fc.boolean()) })),
  // ICMSPart twice as often: to a non-taxpayer it is refused (N12-70, no veicProd), so only taxpayers and IE-exempt final consumers keep it.
  interstateGroup: fc.constantFrom<'none' | 'partilha' | 'repasse'>('none', 'none', 'partilha', 'partilha', 'repasse'),
  partilha: fc.record({ cst: fc.constantFrom('10', '90'), pBCOp: percentArb(100), stRate: percentArb(25), reduction: opt(percentArb(90)), ufSt: fc.constantFrom('dest', 'other', 'EX') }),
  repasse: fc.record({
    cst: fc.constantFrom('41', '60'), base: fc.integer({ min: 0, max: 1_000_000 }), rate: percentArb(30), amount: fc.integer({ min: 0, max: 100_000 }), substitute: opt(fc.integer({ min: 1, max: 100_000 })),
    destBase: fc.integer({ min: 0, max: 1_000_000 }), destAmount: fc.integer({ min: 0, max: 100_000 }), fcp: opt(fc.record({ base: fc.integer({ min: 0, max: 1_000_000 }), rate: fc.integer({ min: 1, max: 200 }).map((n) => n / 100) })),
  }),
});

const RELIEF: Record<string, number[]> = { '20': [3, 9, 12], '70': [3, 9, 12], '90': [3, 9, 12], '30': [6, 9], '40': [1, 9, 90], '41': [3, 16], '50': [8, 10, 11] };

/** MOC O09-10 (388): exemption (02/52), immunity (04/54) and suspension (05/55) take a cEnq of their range; the others the default. */
function ipiNtEnquadramento(cst: string, pick: number): { enquadramento?: string } {
  const first = { '02': 301, '52': 301, '04': 1, '54': 1, '05': 101, '55': 101 }[cst];
  return first === undefined ? {} : { enquadramento: String(first + (pick % 8)).padStart(3, '0') };
}

type Extras = typeof extrasArb extends fc.Arbitrary<infer T> ? T : never;

function toNfeItem(base: NfeItem, x: Extras, crt: Crt): NfeItem {
  const item: NfeItem = { ...base };
  if (crt === 3 && x.nfeCode !== 'keep') {
    for (const k of ['st', 'st_retained', 'fcp_rate', 'vBC', 'icms_base_reduction', 'pICMS'] as const) delete item[k];
    item.cst_icms = x.nfeCode;
    if (x.nfeCode === '51') {
      item.pICMS = x.pICMS;
      if (x.deferral !== undefined) item.deferral_rate = x.deferral;
    }
  }
  const code = item.cst_icms ?? item.csosn!;
  // The relief never exceeds the item value after its discount (the validator refuses more).
  const net = itemValue(item.quantity, item.unit_price).vProd - Math.round((item.discount ?? 0) * 100);
  if (x.relief && crt === 3 && RELIEF[code] && net > 0) {
    item.icms_relief = { amount: (1 + (x.relief.amount % net)) / 100, reason: RELIEF[code][x.relief.pick % RELIEF[code].length]! };
    if (x.relief.deducted !== undefined) item.icms_relief.deducted = x.relief.deducted;
  }
  if (x.ipi) item.ipi = 'rate' in x.ipi ? { cst: x.ipi.cst, rate: x.ipi.rate, ...(x.ipi.enq ? { enquadramento: x.ipi.enq } : {}) } : { cst: x.ipi.cst, ...ipiNtEnquadramento(x.ipi.cst, x.ipi.enq) };
  return item;
}

/**
 * Model 55's interstate groups on a regime-normal item: ICMSPart (CST 10/90 with own ICMS and ST,
 * interstate sale to a final consumer, MOC N10a) or ICMSST (CST 41/60 with the ST retained earlier,
 * interstate, MOC N10b). Returns whether the item took one.
 */
function withInterstateGroup(item: NfeItem, x: Extras, facts: DifalFacts, destUf: string, issuerUf: string): boolean {
  if (facts.crt !== 3 || facts.idDest !== 2 || x.interstateGroup === 'none') return false;
  if (x.interstateGroup === 'partilha' && (facts.indFinal !== 1 || facts.tpNF !== 1)) return false;
  for (const k of ['st', 'st_retained', 'fcp_rate', 'vBC', 'icms_base_reduction', 'pICMS', 'icms_relief', 'deferral_rate'] as const) delete item[k];
  if (x.interstateGroup === 'partilha') {
    const p = x.partilha;
    item.cst_icms = p.cst;
    item.pICMS = x.pICMS;
    item.st = { rate: p.stRate };
    if (p.cst === '90' && p.reduction !== undefined) item.icms_base_reduction = p.reduction;
    item.icms_partilha = { operation_base_share: p.pBCOp, uf_st: p.ufSt === 'EX' ? 'EX' : p.ufSt === 'dest' ? destUf : issuerUf };
  } else {
    const r = x.repasse;
    item.cst_icms = r.cst;
    item.st_retained = { base: r.base / 100, rate: r.rate, amount: r.amount / 100, ...(r.substitute ? { substitute_amount: r.substitute / 100 } : {}) };
    item.st_repasse = { destination_base: r.destBase / 100, destination_amount: r.destAmount / 100 };
    // MOC N27b-10 (881): the rate is never 0; N27d-10 (860): the amount is base * rate.
    if (r.fcp) item.st_repasse.retained_fcp = { base: r.fcp.base / 100, rate: r.fcp.rate, amount: Math.round((r.fcp.base * r.fcp.rate) / 100) / 100 };
  }
  return true;
}

const NO_EXEMPT_TAXPAYER_UFS = new Set(['AM', 'BA', 'CE', 'GO', 'MG', 'MS', 'MT', 'PA', 'PE', 'RN', 'SE', 'SP']);
const NO_ICMS_FIELDS = ['st', 'st_retained', 'st_repasse', 'icms_partilha', 'fcp_rate', 'vBC', 'icms_base_reduction', 'pICMS', 'icms_relief', 'deferral_rate', 'simples_credit_rate'] as const;

/**
 * The item made to fit the operation's N rules: a code the recipient may receive (MOC N12-70,
 * N12-80, N12a-70: 41 or 102 instead), the interstate rate (N16-20), no own FCP in an interstate sale to a
 * non-taxpayer (N17c-20), a CEST under ST (N23-10), an FCP-ST not below the own FCP (N23d-10).
 */
function fitOperation(item: NfeItem, f: DifalFacts, destCnpj: boolean, nationalRate: number | undefined): void {
  const code = item.cst_icms ?? item.csosn!;
  if (nonTaxpayerCstRefused(f, code, item.cfop) || exemptRecipientCstRefused(f, code, item.cfop, destCnpj) || nonTaxpayerCsosnRefused(f, code, item.cfop)) {
    for (const k of NO_ICMS_FIELDS) delete item[k];
    if (code.length === 2) item.cst_icms = '41';
    else {
      delete item.cst_icms;
      item.csosn = '102';
    }
  }
  const ceiling = interstateCeiling(f, item, nationalRate);
  if (ceiling !== undefined && item.pICMS !== undefined && Math.round(item.pICMS * 10_000) > ceiling) item.pICMS = ceiling / 10_000;
  if (f.idDest === 2 && f.indFinal === 1 && f.indIEDest === 9) delete item.fcp_rate;
  if (cestMissing(item)) item.cest = '1700100';
  if (item.fcp_rate !== undefined && item.st?.fcp_rate !== undefined) {
    // vFCPST = vBCFCPST x pFCPST - vFCP: the same rate on a base no smaller than the own one.
    if (item.st.base !== undefined || item.st.base_reduction !== undefined || item.vBC !== undefined) delete item.st.fcp_rate;
    else item.st.fcp_rate = Math.max(item.st.fcp_rate, item.fcp_rate);
  }
}

const METHODS = Object.keys(PAYMENT_METHODS).filter((m) => m !== 'sem_pagamento' && m !== 'outros') as PaymentMethod[];

/** A key of a note of `cnpj` (model 55), check digit right. */
export function keyOf(cnpj: string, n: number): string {
  const body = '35' + '2512' + cnpj + '55' + '001' + String(n).padStart(9, '0') + '1' + '1234567' + String(n % 10);
  return body + accessKeyCheckDigit(body);
}

export function nfeCaseArb(): fc.Arbitrary<GeneratedNfe> {
  return fc
    .record({ crt: fc.constantFrom<Crt>(1, 2, 3, 4), alpha: fc.constantFrom(false, false, true), uf: fc.constantFrom(...UFS), cnpjN: numericCnpjArb, cnpjA: alphaCnpjArb })
    .chain((base) =>
      fc.record({
        base: fc.constant(base),
        kind: fc.constantFrom<GeneratedNfe['kind']>('internal', 'interstate', 'interstate', 'abroad'),
        otherUf: fc.constantFrom(...UFS.filter((u) => u !== base.uf)),
        ie: fc.constantFrom<NfeRequest['destinatario']['indicador_ie']>('contribuinte', 'contribuinte', 'isento', 'isento', 'nao_contribuinte', 'nao_contribuinte'),
        destCnpj: cnpjArb,
        destCpf: cpfArb,
        useCnpj: fc.boolean(),
        // Mostly a final consumer: ICMSPart (an interstate sale to a final consumer) then reaches taxpayers and IE-exempt buyers often enough.
        finalFlag: fc.constantFrom(true, true, false),
        items: fc.array(fc.tuple(itemArb(base.crt), extrasArb), { minLength: 1, maxLength: 30 }),
        finalidade: fc.constantFrom<'normal' | 'complementar' | 'ajuste' | 'devolucao'>('normal', 'normal', 'normal', 'complementar', 'ajuste', 'devolucao'),
        presenca: fc.constantFrom<NfeRequest['presenca']>('nao_se_aplica', 'presencial', 'internet', 'telefone', 'presencial_fora', 'outros'),
        charges: fc.record({ freight: opt(fc.integer({ min: 1, max: 50_000 })), insurance: opt(fc.integer({ min: 1, max: 5_000 })), other: opt(fc.integer({ min: 1, max: 5_000 })) }),
        transport: opt(fc.record({ modalidade: fc.constantFrom('emitente', 'destinatario', 'terceiros', 'proprio_emitente', 'proprio_destinatario') as fc.Arbitrary<'emitente'>, carrier: fc.boolean(), carrierCnpj: cnpjArb, vehicle: fc.boolean(), volumes: fc.integer({ min: 0, max: 3 }) })),
        installments: opt(fc.record({ count: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(120)), withInvoice: fc.boolean(), discountShare: fc.integer({ min: 0, max: 20 }) })),
        autXml: fc.oneof(fc.constant([] as string[]), fc.array(fc.oneof({ arbitrary: numericCnpjArb, weight: 12 }, { arbitrary: alphaCnpjArb, weight: 1 }, { arbitrary: cpfArb, weight: 6 }), { maxLength: 10 })),
        methods: fc.array(fc.constantFrom(...METHODS), { minLength: 1, maxLength: 3 }),
        change: fc.integer({ min: 0, max: 5_000 }),
        noPayment: fc.constantFrom(false, false, false, true),
        marketplace: fc.boolean(),
        svc: fc.constantFrom(false, false, false, true),
        tpAmb: fc.constantFrom<1 | 2>(1, 2),
        taxReform: fc.boolean(),
        info: fc.record({ cpl: opt(fc.constantFrom('Pedido 77 & cia', 'Entrega <urgente>')), fisco: opt(fc.constantFrom('DIFAL recolhido por GNRE')) }),
        nNF: fc.integer({ min: 1, max: 999_999_999 }),
        serie: fc.integer({ min: 0, max: 889 }),
        emittedAt: fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-31T23:59:59Z'), noInvalidDate: true }),
      }),
    )
    .map((g) => {
      const [cityCode, cityName] = CAPITALS[g.base.uf]!;
      const crt = g.base.crt;
      const issuer: Issuer = {
        cnpj: g.base.alpha ? g.base.cnpjA : g.base.cnpjN, ie: VALID_IE[g.base.uf]!, razao_social: 'Industria & Comercio <Teste> Ltda', uf: g.base.uf, crt,
        endereco: { logradouro: 'Rua Um', numero: '100', bairro: 'Centro', codigo_municipio: cityCode, municipio: cityName, cep: '01001000' },
      };
      const abroad = g.kind === 'abroad';
      // MOC E16a-30 (805): these states do not admit an exempt taxpayer (isento) in an interstate operation (the gateway
      // refuses it, save ICMS-ST or exempt items): an isento recipient of another state is drawn elsewhere.
      const exemptRefused = g.ie === 'isento' && g.kind === 'interstate' && NO_EXEMPT_TAXPAYER_UFS.has(g.otherUf);
      const destUf = g.kind === 'internal' ? g.base.uf : exemptRefused ? (g.base.uf === 'PR' ? 'RS' : 'PR') : g.otherUf;
      const ind = abroad ? 'nao_contribuinte' : g.ie;
      const destinatario: NfeRequest['destinatario'] = abroad
        ? { id_estrangeiro: g.useCnpj ? '' : 'PASS12345', name: 'Buyer Inc', indicador_ie: ind, address: { street: 'Main Street', number: '9', district: 'Downtown', city: 'Miami', country_code: '2496', country: 'Estados Unidos' } }
        : {
            ...(g.useCnpj || ind === 'contribuinte' ? { cnpj: g.destCnpj } : { cpf: g.destCpf }), name: 'Cliente da Silva', indicador_ie: ind,
            address: { street: 'Rua Dois', number: '22', district: 'Bairro', city_code: CAPITALS[destUf]![0], city: CAPITALS[destUf]![1], uf: destUf, cep: '20010000' },
          };
      if (ind === 'contribuinte') destinatario.ie = VALID_IE[destUf]!;
      const idDest = abroad ? 3 : g.kind === 'internal' ? 1 : 2;
      // One direction per note; abroad only outbound (imports need DI and II, not generated).
      const inbound = !abroad && g.finalidade !== 'devolucao' && g.items[0]![1].inbound;
      const indFinal: 0 | 1 = ind === 'nao_contribuinte' && !inbound && !abroad ? 1 : g.finalFlag ? 1 : 0;
      const finNFe = ({ normal: 1, complementar: 2, ajuste: 3, devolucao: 4 } as const)[g.finalidade];
      const facts: DifalFacts = { idDest, indFinal, indIEDest: ind === 'contribuinte' ? 1 : ind === 'isento' ? 2 : 9, tpNF: inbound ? 0 : 1, finNFe, crt };
      const items = g.items.map(([it, x]) => {
        const item = toNfeItem(it as NfeItem, x, crt);
        const first = inbound ? idDest : idDest + 4;
        item.cfop = first + (g.finalidade === 'devolucao' ? '202' : abroad && x.cfopTail === '403' ? '102' : x.cfopTail);
        withInterstateGroup(item, x, facts, destUf, issuer.uf);
        fitOperation(item, facts, destinatario.cnpj !== undefined, idDest === 2 ? interstateRate(0, issuer.uf, destUf) : undefined);
        // An export is immune from IBS/CBS (LC 214/2025 art. 8): CST 410 / cClassTrib 410004 carry no
        // rate, so a request giving rates with it is refused (docs/fiscal/tax-reform.md).
        if (abroad && item.reform) {
          delete item.reform.ibs_state_rate;
          delete item.reform.ibs_municipal_rate;
          delete item.reform.cbs_rate;
        }
        const code = item.cst_icms ?? item.csosn!;
        // NA01-20 exception 1 and the note of NA01: an ICMSPart item carries no ICMSUFDest.
        if (!item.icms_partilha && (difalRequired(facts, code, item.cfop) || (difalAllowed(facts) && x.difalOptional))) {
          const inter = interstateRate(item.origin ?? 0, issuer.uf, destUf) / 10_000;
          item.difal = { destination_rate: Math.round((inter + x.destRateAbove) * 100) / 100 };
          if (x.difalFcp !== undefined) item.difal.fcp_rate = x.difalFcp;
        }
        return item;
      });
      fitReformRates(items, g.emittedAt, issuer.endereco.codigo_municipio, issuer.uf);
      const req: NfeRequest = {
        issuer_id: 'iss_prop', external_ref: 'prop', natureza_operacao: g.finalidade === 'devolucao' ? 'DEVOLUCAO DE COMPRA' : 'VENDA DE MERCADORIA',
        finalidade: g.finalidade, presenca: g.presenca, destinatario, consumidor_final: indFinal === 1, items,
      };
      // MOC B25b-40 (864): a presential sale outside the establishment references the note that took the goods out.
      if (g.finalidade !== 'normal' || g.presenca === 'presencial_fora') req.referenced_documents = [keyOf(issuer.cnpj, g.nNF % 1000 + 1)];
      // MOC ZA01-10 (355): an outbound note abroad carries exporta; the dispatch place is optional (ZA04).
      if (abroad) req.export = { shipment_uf: issuer.uf, shipment_place: 'PORTO DE SANTOS', ...(g.nNF % 2 === 0 ? { dispatch_place: 'RECINTO ALFANDEGADO 1' } : {}) };
      if (g.charges.freight) req.freight = g.charges.freight / 100;
      if (g.charges.insurance) req.insurance = g.charges.insurance / 100;
      if (g.charges.other) req.other_expenses = g.charges.other / 100;
      if (g.marketplace && ['internet', 'telefone', 'outros'].includes(g.presenca)) req.intermediador = { cnpj: g.destCnpj, id_cadastro: 'loja-oficial-123' };
      if (g.info.cpl) req.additional_info = g.info.cpl;
      if (g.info.fisco) req.fisco_info = g.info.fisco;
      if (g.autXml.length) req.aut_xml = g.autXml;
      if (g.transport) {
        const t = g.transport;
        req.transporte = { modalidade: t.modalidade };
        if (t.carrier) req.transporte.transportadora = { cnpj: t.carrierCnpj, name: 'Transportes Rapidos', ie: 'ISENTO', address: 'Rodovia 1', city: 'Curitiba', uf: 'PR' };
        // MOC X02-20 (868): no vehicle in an interstate operation.
        if (t.vehicle && idDest !== 2) req.transporte.veiculo = { placa: 'ABC1D23', uf: 'PR', rntc: '12345678' };
        if (t.volumes) req.transporte.volumes = Array.from({ length: t.volumes }, (_, i) => ({ quantity: i + 1, species: 'CAIXA', brand: 'ACME', numbering: String(i + 1), net_weight: 1.5 * (i + 1), gross_weight: 1.75 * (i + 1) }));
      }
      const vNF = computeNfe(req, { crt, issuerUf: issuer.uf, destUf: abroad ? 'EX' : destUf, finalConsumer: indFinal === 1 }).total.vNF;
      if (finNFe === 3 || finNFe === 4 || g.noPayment || vNF === 0) req.payment = { method: 'sem_pagamento', amount: 0 };
      else {
        const shares = spreadProportionally(vNF, g.methods.map((_, i) => i + 1));
        const list: SalePayment[] = g.methods.map((method, i) => ({ method, amount: shares[i]! / 100 })).filter((p) => p.amount > 0);
        const cash = list.find((p) => p.method === 'dinheiro');
        if (cash) cash.amount = Number(formatCents(Math.round(cash.amount * 100) + g.change));
        if (list.length === 1) req.payment = list[0]!;
        else req.payments = list;
      }
      const inst = g.installments;
      if (inst && vNF >= inst.count) {
        const discount = Math.floor((vNF * inst.discountShare) / 100);
        const vLiq = inst.withInvoice ? vNF - discount : vNF;
        const parts = spreadProportionally(vLiq, Array.from({ length: inst.count }, () => 1));
        if (parts.every((p) => p > 0)) {
          req.cobranca = { duplicatas: parts.map((p, i) => ({ vencimento: `2028-${String((i % 12) + 1).padStart(2, '0')}-${String(Math.floor(i / 12) + 10).padStart(2, '0')}`, valor: p / 100 })) };
          req.cobranca.duplicatas!.sort((a, b) => a.vencimento.localeCompare(b.vencimento));
          if (inst.withInvoice) req.cobranca.fatura = { valor_original: vNF / 100, desconto: discount / 100, ...(inst.count > 5 ? { numero: 'FAT-' + g.nNF } : {}) };
        }
      }
      // MOC Y09-20 (900): the issuer's local date of emission, as the service gives it (documents/nfe/services/issue-nfe.ts).
      const ctx: NfeContext = { issuer, tpAmb: g.tpAmb, taxReform: g.taxReform, reformTables: reformTablesInForce(), today: localDateTime(g.emittedAt, timeZoneOf(issuer.endereco.codigo_municipio, issuer.uf)).text.slice(0, 10), processingDay: g.emittedAt.toISOString().slice(0, 10) };
      // MOC ZD01-10: infRespTec is required in AM, MS, PE, PR, SC and TO (src/fiscal/states/states.ts).
      if (respTecRequired(issuer.uf)) ctx.respTec = { cnpj: '10422724000187', contato: 'Suporte Tecnico', email: 'suporte@example.com', fone: '11999998888' };
      const doc: NfeDocumentContext = { serie: g.serie, nNF: g.nNF, emittedAt: g.emittedAt, signingKey: testSigningKey() };
      if (g.svc) doc.contingency = { at: new Date(g.emittedAt.getTime() - 3_600_000), reason: 'SEFAZ autorizadora fora do ar' };
      return { req, ctx, doc, kind: g.kind };
    });
}
