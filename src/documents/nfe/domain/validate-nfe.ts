import { formatCents, percentOf, toCents } from '../../../kernel/decimal.js';
import { directVehicleSale } from './vehicle.js';
import { cleanTaxId, isValidCnpj } from '../../../kernel/tax-id.js';
import { checkNumber, checkText, fail, OPTIONAL_MONEY, type Errors, type FieldError } from '../../../fiscal/layout/field-rules.js';
import { changeCapacity } from '../../goods/domain/payments.js';
import type { SalePayment } from '../../goods/domain/sale-item.js';
import { validatePayment } from '../../goods/domain/validate-payment.js';
import { computeNfe, deductedRelief, type ComputedNfe } from './compute-nfe.js';
import type { NfeContext } from './nfe-context.js';
import { FINALIDADES, INDICADORES_IE, PRESENCAS, type NfeRequest } from './nfe-request.js';
import { interstateRate, type DifalFacts } from './operation.js';
import { checkAutXml, checkCobranca, checkDestinatario, checkTransporte } from './validate-nfe-parties.js';
import { checkReferences } from './validate-nfe-references.js';
import { adjustmentItem, adjustmentKind, checkAdjustmentNote } from './validate-nfe-adjustment.js';
import { checkExport } from './validate-nfe-export.js';
import { checkTransportScope } from './validate-nfe-transport-scope.js';
import { validateNfeItem } from './validate-nfe-item.js';
import { checkCbenefRequired } from './validate-cbenef.js';

export type { FieldError } from '../../../fiscal/layout/field-rules.js';

/** What the request decides about ide, derived once by checkNfe. */
export interface NfeFacts {
  idDest: 1 | 2 | 3;
  tpNF: 0 | 1;
  finNFe: 1 | 2 | 3 | 4 | 5 | 6;
  indFinal: 0 | 1;
  indPres: 0 | 1 | 2 | 3 | 5 | 9;
  indIEDest: 1 | 2 | 9;
}

export type NfeCheck = { ok: false; errors: FieldError[] } | { ok: true; facts: NfeFacts; computed: ComputedNfe };

export function nfePayments(req: NfeRequest): SalePayment[] {
  return req.payments ?? (req.payment ? [req.payment] : []);
}

/** pag (YA): required; sem_pagamento alone with 0 (904), and the only one for ajuste/devolucao (871); change only in cash (866/869). */
function checkPayments(errors: Errors, req: NfeRequest, vNF: number | undefined, finNFe: number): void {
  if (req.payment && req.payments) return fail(errors, 'payments', 'send either payment or payments, not both');
  const list = nfePayments(req);
  const base = req.payments ? 'payments' : 'payment';
  if (list.length === 0) return fail(errors, 'payment', 'is required: how the note is paid (use method sem_pagamento with amount 0 when nothing is paid)');
  const before = errors.length;
  list.forEach((p, i) => validatePayment(errors, req.payments ? `payments[${i}]` : 'payment', p));
  const none = list.some((p) => p.method === 'sem_pagamento');
  if (none && list.length > 1) fail(errors, base, 'sem_pagamento must be the only payment');
  if ((finNFe === 3 || finNFe === 4) && !none) fail(errors, base, `must be sem_pagamento alone for a ${finNFe === 3 ? 'ajuste' : 'devolucao'} NF-e (MOC YA02-04, 871)`, 'YA02-04');
  if (errors.length > before || vNF === undefined || none) return;
  const paid = list.reduce((acc, p) => acc + toCents(p.amount), 0);
  if (paid < vNF) fail(errors, base, `${base === 'payments' ? 'add up to' : 'is'} R$ ${formatCents(paid)} but the total is R$ ${formatCents(vNF)}`);
  else if (paid - vNF > changeCapacity(list)) fail(errors, base, `exceed the total R$ ${formatCents(vNF)} by R$ ${formatCents(paid - vNF)}; only cash (dinheiro) can be overpaid and given back as change`);
}

function enumValue<T extends Record<string, number>>(errors: Errors, field: string, table: T, value: unknown): T[keyof T] | undefined {
  if (typeof value === 'string' && Object.hasOwn(table, value)) return table[value as keyof T];
  fail(errors, field, `must be one of ${Object.keys(table).join(', ')}`);
  return undefined;
}

/**
 * Everything the authority would reject that can be known locally, as errors naming the request
 * field; the items and totals are computed once, as soon as the fields they need are valid.
 */
export function checkNfe(req: NfeRequest, ctx: NfeContext): NfeCheck {
  const errors: Errors = [];
  const { issuer } = ctx;
  checkText(errors, 'issuer_id', req.issuer_id, 1, 100);
  checkText(errors, 'external_ref', req.external_ref, 1, 255);
  checkText(errors, 'natureza_operacao', req.natureza_operacao, 1, 60);
  checkText(errors, 'additional_info', req.additional_info, 1, 5000, false);
  checkText(errors, 'fisco_info', req.fisco_info, 1, 2000, false);
  const finNFe = req.finalidade === undefined ? 1 : enumValue(errors, 'finalidade', FINALIDADES, req.finalidade);
  const indPres = enumValue(errors, 'presenca', PRESENCAS, req.presenca);
  for (const f of ['discount', 'freight', 'insurance', 'other_expenses', 'approximate_taxes'] as const) checkNumber(errors, f, req[f], OPTIONAL_MONEY);
  checkReferences(errors, req, cleanTaxId(issuer.cnpj), ctx.today);
  checkAdjustmentNote(errors, req, ctx, cleanTaxId(issuer.cnpj));
  // A credit or debit note's items carry no ICMS/PIS/COFINS (B25-80): checked and computed as untaxed, written without them.
  const adjustment = adjustmentKind(req) !== undefined;
  const idDest = checkDestinatario(errors, req, issuer.uf);
  const dest = req.destinatario;
  const indIEDest = dest && Object.hasOwn(INDICADORES_IE, dest.indicador_ie) ? INDICADORES_IE[dest.indicador_ie] : undefined;
  const indFinal: 0 | 1 = (req.consumidor_final ?? indIEDest === 9) ? 1 : 0;
  const sent = Array.isArray(req.items) ? req.items : [];
  const items = adjustment ? sent.map((it) => adjustmentItem(it, issuer.crt)) : sent;
  if (items.length === 0) fail(errors, 'items', 'must have at least one item');
  if (items.length > 990) fail(errors, 'items', 'must have at most 990 items (XSD det maxOccurs)');
  // tpNF comes from the first valid CFOP; DIFAL facts are known once the recipient is.
  const firstScope = items.map((it) => (typeof it.cfop === 'string' && /^[1-35-7]/.test(it.cfop) ? Number(it.cfop[0]) : undefined)).find((d) => d !== undefined);
  const tpNF: 0 | 1 = firstScope !== undefined && firstScope < 5 ? 0 : 1;
  const difal: DifalFacts | undefined = idDest && indIEDest && finNFe ? { idDest, indFinal, indIEDest, tpNF, finNFe, crt: issuer.crt } : undefined;
  const destUf = dest?.address?.uf ?? 'EX';
  // MOC N12-70 exception 3 and N16-20 exception 2 read the note's vehicle items (veicProd).
  const vehicles = items.filter((it) => it !== null && typeof it === 'object' && it.vehicle !== undefined);
  const vehicleFacts = vehicles.length > 0 ? { vehicleSale: true, directVehicleSale: directVehicleSale(vehicles) } : {};
  const recipient = difal ? { op: difal, destCnpj: typeof dest?.cnpj === 'string', ...(idDest === 2 ? { nationalRate: interstateRate(0, issuer.uf, destUf) } : {}), ...vehicleFacts } : undefined;
  const values = items.map((item, i) => {
    const r = validateNfeItem(errors, i, item, issuer.crt, { ...(idDest ? { idDest } : {}), ...(difal ? { difal } : {}), ...(recipient ? { recipient } : {}), interRate: (it) => (idDest === 2 ? interstateRate(it.origin ?? 0, issuer.uf, destUf) : undefined) });
    if (!adjustment) checkCbenefRequired(errors, `items[${i}]`, item, issuer.uf, ctx.today ?? '9999-12-31');
    if (r.tpNF !== undefined && r.tpNF !== tpNF) fail(errors, `items[${i}].cfop`, `is ${r.tpNF === 0 ? 'an inbound' : 'an outbound'} CFOP but items[0] is ${tpNF === 0 ? 'inbound' : 'outbound'}: one NF-e goes one way (MOC I08-10/20, 518/519)`);
    return r.vProd;
  });
  // MOC E16a-40 (696): an outbound note to a non-taxpayer in Brazil is a sale to a final consumer.
  if (indIEDest === 9 && indFinal === 0 && tpNF === 1 && idDest !== undefined && idDest !== 3) {
    fail(errors, 'consumidor_final', 'must be true (or left out) for a nao_contribuinte recipient in an outbound operation (MOC E16a-40, 696)', 'E16a-40');
  }
  // NT 2020.006 (MOC B25c-10/20): indIntermed goes with indPres 2, 3, 9 only, 1 with infIntermed (YB01-10/20).
  const m = req.intermediador;
  if (m) {
    if (indPres !== undefined && ![2, 3, 9].includes(indPres)) fail(errors, 'intermediador', 'is only used when presenca is internet, telefone or outros (MOC B25c-20, 435)');
    if (typeof m.cnpj !== 'string' || !isValidCnpj(m.cnpj)) fail(errors, 'intermediador.cnpj', 'is not a valid CNPJ (MOC YB02-10, 440)', 'YB02-10');
    checkText(errors, 'intermediador.id_cadastro', m.id_cadastro, 2, 60);
  }
  checkTransporte(errors, req);
  checkTransportScope(errors, req, idDest);
  checkExport(errors, req, idDest, tpNF);
  checkAutXml(errors, req);
  let computed: ComputedNfe | undefined;
  if (errors.length === 0) {
    const gross = values.reduce((a: number, v) => a + v!, 0) - items.reduce((a, it) => a + (it.discount ? toCents(it.discount) : 0), 0);
    if (req.discount !== undefined && toCents(req.discount) > gross) fail(errors, 'discount', 'is larger than the value of the items after their own discounts');
    else computed = computeNfe(adjustment ? { ...req, items } : req, { crt: issuer.crt, issuerUf: issuer.uf, destUf, finalConsumer: indFinal === 1 });
    if (computed && indIEDest === 2 && idDest === 2 && exemptTaxpayerRefused(destUf, computed.det)) {
      fail(errors, 'destinatario.indicador_ie', `is isento, but ${destUf} does not admit an exempt taxpayer in an interstate operation without ICMS-ST or exempt items (MOC E16a-30, 805): give contribuinte with its IE, or nao_contribuinte`, 'E16a-30');
      computed = undefined;
    }
    // MOC N23d-10 (860): vFCPST is the FCP-ST on its base less the item's own vFCP; it cannot be negative.
    computed?.det.forEach((d, i) => {
      const f = d.icms.st?.fcp;
      const own = d.icms.own?.fcp?.vFCP ?? 0;
      if (f && percentOf(f.vBCFCPST, f.pFCPST) - own < -1) {
        fail(errors, `items[${i}].st.fcp_rate`, `is too low: the FCP on the ST base (R$ ${formatCents(percentOf(f.vBCFCPST, f.pFCPST))}) is less than the item's own FCP (R$ ${formatCents(own)}), and vFCPST is their difference (MOC N23d-10, 860)`, 'N23d-10');
      }
    });
    if (errors.length > 0) computed = undefined;
    if (adjustment) computed?.det.forEach((d) => (d.reformOnly = true));
    // vNF is TDec_1302 (never negative): the relief subtracted (W16-10) cannot exceed what the note adds up to.
    if (computed && computed.total.vNF < 0) {
      fail(errors, 'items', `the ICMS relieved and deducted (icms_relief, R$ ${formatCents(deductedRelief(computed.det))}) exceeds the note's value; the total would be R$ ${formatCents(computed.total.vNF)}`);
      computed = undefined;
    }
  }
  const vNF = computed?.total.vNF;
  checkPayments(errors, req, vNF, finNFe ?? 1);
  checkCobranca(errors, req, vNF, ctx.today);
  if (errors.length > 0 || !computed) return { ok: false, errors };
  return { ok: true, computed, facts: { idDest: idDest!, tpNF, finNFe: finNFe!, indFinal, indPres: indPres!, indIEDest: indIEDest! } };
}

/** The field errors of checkNfe alone (an empty list: prepareNfe accepts the request). */
export function validateNfeRequest(req: NfeRequest, ctx: NfeContext): FieldError[] {
  const checked = checkNfe(req, ctx);
  return checked.ok ? [] : checked.errors;
}

/** MOC E16a-30 (805): the states that do not admit an exempt taxpayer (indIEDest 2) in an interstate operation. */
const NO_EXEMPT_TAXPAYER = new Set(['AM', 'BA', 'CE', 'GO', 'MG', 'MS', 'MT', 'PA', 'PE', 'RN', 'SE', 'SP']);
const EXEMPT_ICMS_CODES = new Set(['40', '41', '103', '300', '400']);

/** E16a-30 and its exceptions: ICMS-ST charged (vICMSST > 0) or retained earlier in an item, or an exempt, immune or untaxed item. */
function exemptTaxpayerRefused(destUf: string, det: ComputedNfe['det']): boolean {
  if (!NO_EXEMPT_TAXPAYER.has(destUf)) return false;
  return !det.some((d) => (d.icms.st?.vICMSST ?? 0) > 0 || d.icms.retained !== undefined || EXEMPT_ICMS_CODES.has(d.icms.code));
}
