import type { NfeIdeModel, NfeModel } from '../../../fiscal/xml/nfe/model-55.js';
import { messageSizeError, WIDEST_IDE } from '../../goods/domain/message-size.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { checkClearanceDates } from './validate-foreign-trade.js';
import { cleanTaxId, isAlphanumericCnpj } from '../../../kernel/tax-id.js';
import { toCents } from '../../../kernel/decimal.js';
import type { Issuer } from '../../goods/domain/issuer-context.js';
import { emitOf, respTecMissing, respTecOf } from '../../goods/domain/parties.js';
import { paymentPlan } from '../../goods/domain/payments.js';
import type { ReformItemPlan } from '../../goods/domain/item-taxes.js';
import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { checkReformRates } from '../../goods/domain/reform-rate-checks.js';
import { classifyReform } from '../../goods/domain/reform-class-checks.js';
import { reformGroupsLikely, withReformGroups } from '../../goods/domain/reform-schedule.js';
import { checkPisCofinsDate } from '../../goods/domain/pis-cofins-schedule.js';
import { checkGovernmentPurchase, SUPPLY_OPERATION, withGovernmentPurchaseParts, type GovernmentPurchase } from '../../goods/domain/reform-government-purchase.js';
import type { NfeContext } from './nfe-context.js';
import { autXmlOf, exportaOf, nfeDestOf, transpOf } from './nfe-parties.js';
import type { NfeRequest } from './nfe-request.js';
import { checkNfe, nfePayments, type FieldError } from './validate-nfe.js';
import { checkBatchDates } from '../../goods/domain/validate-medicine.js';

// request -> NF-e model, in one pass, before any number is reserved; buildPreparedNfe adds what
// each number decides (cNF, key, ide numbers, nFat default, hashCSRT).

/** The ide choices a request decides (the rest of ide is per number). */
export type NfeIdeChoices = Pick<NfeIdeModel, 'natOp' | 'tpNF' | 'idDest' | 'finNFe' | 'tpNFDebito' | 'tpNFCredito' | 'indFinal' | 'indPres' | 'indIntermed' | 'NFref'>;

export interface PreparedNfe {
  issuer: Issuer;
  tpAmb: 1 | 2;
  ide: NfeIdeChoices;
  /** Shared by every build and never changed by one (a build copies a group before adding to it). */
  parts: Omit<NfeModel, 'accessKey' | 'ide' | 'cobr'>;
  /** Billing without nFat when the request left it to the note number. */
  billing?: { nFat?: string; vOrig: number; vDesc: number; vLiq: number; dup: Array<{ nDup: string; dVenc: string; vDup: number }> };
  csrt?: { id: string; token: string };
  /** Each item's IBS/CBS: the groups are added when the note is dated (reform-schedule.ts). */
  reform: ReformItemPlan[];
  /** The account's taxRegime is reform_2026: the groups from 2026 (always from 2027). */
  taxReform: boolean;
  reformTables: ReformTables;
  /** PL_010 when reform groups or an alphanumeric CNPJ are written; PL_009 otherwise. */
  schemaPackage: 'PL_009' | 'PL_010';
  /** gCompraGov: the public buyer; pRedutor is the note's date's (reform-government-purchase.ts). */
  governmentPurchase?: GovernmentPurchase;
}

export type PreparedNfeResult = { ok: false; errors: FieldError[] } | { ok: true; nfe: PreparedNfe };

function billingOf(req: NfeRequest, vNF: number): PreparedNfe['billing'] {
  const c = req.cobranca;
  if (!c) return undefined;
  const vOrig = c.fatura ? toCents(c.fatura.valor_original) : vNF;
  const vDesc = c.fatura?.desconto !== undefined ? toCents(c.fatura.desconto) : 0;
  // MOC Y08-10 (852): installments numbered with 3 digits, sequential: 001, 002, ...
  const dup = (c.duplicatas ?? []).map((d, i) => ({ nDup: String(i + 1).padStart(3, '0'), dVenc: d.vencimento, vDup: toCents(d.valor) }));
  const billing: NonNullable<PreparedNfe['billing']> = { vOrig, vDesc, vLiq: vOrig - vDesc, dup };
  if (c.fatura?.numero) billing.nFat = layoutText(c.fatura.numero);
  return billing;
}

/** Validates the request and computes its items, totals, parties, freight, billing and payments once. */
export function prepareNfe(req: NfeRequest, ctx: NfeContext): PreparedNfeResult {
  const checked = checkNfe(req, ctx);
  const batchErrors: FieldError[] = [];
  checkBatchDates(batchErrors, Array.isArray(req.items) ? req.items : [], ctx.processingDay);
  checkClearanceDates(batchErrors, Array.isArray(req.items) ? req.items : [], ctx.processingDay);
  const noRespTec = respTecMissing(ctx.issuer.uf, ctx.respTec);
  if (noRespTec) return { ok: false, errors: [noRespTec, ...(checked.ok ? [] : checked.errors), ...batchErrors] };
  if (!checked.ok) return { ok: false, errors: [...checked.errors, ...batchErrors] };
  if (batchErrors.length > 0) return { ok: false, errors: batchErrors };
  const { computed, facts } = checked;
  // The CST and cClassTrib against the tables (the reduction is the class's), then the rates of the date.
  const reformErrors: FieldError[] = [];
  const reform = classifyReform(reformErrors, computed.reform, 'nfe', ctx.today, ctx.reformTables);
  checkReformRates(reformErrors, reform, ctx.issuer.crt, ctx.taxReform, ctx.today, ctx.reformTables);
  const purchase = req.government_purchase ? { tpEnteGov: req.government_purchase.entity_type } : undefined;
  checkGovernmentPurchase(reformErrors, purchase, { crt: ctx.issuer.crt, taxReform: ctx.taxReform, today: ctx.today }, reform);
  checkPisCofinsDate(reformErrors, req.items, ctx.today, 55);
  if (reformErrors.length > 0) return { ok: false, errors: reformErrors };
  const parts: PreparedNfe['parts'] = {
    emit: emitOf(ctx.issuer),
    dest: nfeDestOf(req, ctx.tpAmb),
    autXML: autXmlOf(req),
    det: computed.det,
    total: computed.total,
    transp: transpOf(req),
    pag: paymentPlan(nfePayments(req), computed.total.vNF),
  };
  if (req.additional_info || req.fisco_info) {
    parts.infAdic = {};
    if (req.fisco_info) parts.infAdic.infAdFisco = layoutText(req.fisco_info);
    if (req.additional_info) parts.infAdic.infCpl = layoutText(req.additional_info);
  }
  if (ctx.respTec) parts.respTec = respTecOf(ctx.respTec);
  if (req.export) parts.exporta = exportaOf(req.export);
  const ide: NfeIdeChoices = {
    natOp: layoutText(req.natureza_operacao), tpNF: facts.tpNF, idDest: facts.idDest, finNFe: facts.finNFe, indFinal: facts.indFinal, indPres: facts.indPres,
    NFref: [...(req.referenced_documents ?? [])],
  };
  // NT 2025.002-RTC B25.1 / B25.2: the type of a debit (finNFe 6) or credit (finNFe 5) note.
  if (facts.finNFe === 6 && req.debit_type) ide.tpNFDebito = req.debit_type;
  if (facts.finNFe === 5 && req.credit_type) ide.tpNFCredito = req.credit_type;
  // NT 2020.006 (MOC B25c-10/20, 434/435): indIntermed with indPres 2, 3 or 9 only; 0 = own channel.
  if ([2, 3, 9].includes(facts.indPres)) ide.indIntermed = req.intermediador ? 1 : 0;
  if (req.intermediador) parts.infIntermed = { CNPJ: cleanTaxId(req.intermediador.cnpj), idCadIntTran: layoutText(req.intermediador.id_cadastro) };
  const nfe: PreparedNfe = {
    issuer: ctx.issuer, tpAmb: ctx.tpAmb, ide, parts, reform, taxReform: ctx.taxReform, reformTables: ctx.reformTables,
    schemaPackage: ctx.taxReform || needsPl010(parts) || ide.NFref.some((k) => /[A-Z]/.test(k)) ? 'PL_010' : 'PL_009',
  };
  if (purchase) nfe.governmentPurchase = purchase;
  const billing = billingOf(req, computed.total.vNF);
  if (billing) nfe.billing = billing;
  if (ctx.respTec?.csrt) nfe.csrt = ctx.respTec.csrt;
  const tooBig = messageSizeError(widestModel(nfe, reformGroupsLikely(ctx.taxReform, ctx.today)));
  if (tooBig) return { ok: false, errors: [tooBig] };
  return { ok: true, nfe };
}

/** The note as built with the widest ide a number can give (MOC B01, 214: measured before numbering). */
function widestModel(p: PreparedNfe, withReform: boolean): NfeModel {
  const model: NfeModel = {
    // With the reform groups when the note may carry them (those of 2026: any year's are about as long).
    ...(withReform ? withGovernmentPurchaseParts(withReformGroups(p.parts, p.reform, 3, '2026-01-01', p.reformTables), p.governmentPurchase ? 0 : null, 2026) : p.parts), accessKey: '0'.repeat(44),
    ide: { ...p.ide, ...WIDEST_IDE, contingency: { ...WIDEST_IDE.contingency }, mod: 55, tpImp: 1, tpEmis: 6, tpAmb: p.tpAmb },
  };
  if (p.governmentPurchase) model.ide.gCompraGov = { tpEnteGov: p.governmentPurchase.tpEnteGov, pRedutor: 0, tpOperGov: SUPPLY_OPERATION };
  const b = p.billing;
  if (b) model.cobr = { fat: { nFat: b.nFat ?? String(WIDEST_IDE.nNF), vOrig: b.vOrig, vDesc: b.vDesc, vLiq: b.vLiq }, dup: b.dup };
  return model;
}

/** PL_009 cannot carry a CNPJ with letters (its TCnpj is [0-9]{14}) nor the reform groups (taxReform, or a note dated 2027). */
function needsPl010(m: PreparedNfe['parts']): boolean {
  const cnpjs = [m.emit.CNPJ, m.dest.CNPJ, m.infIntermed?.CNPJ, m.respTec?.CNPJ, m.transp.transporta?.CNPJ, ...m.autXML.map((a) => a.CNPJ), ...m.pag.detPag.map((p) => p.card?.CNPJ)];
  return cnpjs.some((c) => c !== undefined && isAlphanumericCnpj(c));
}
