import type { NfceModel } from '../../../fiscal/xml/nfe/model.js';
import { messageSizeError, WIDEST_IDE } from '../../goods/domain/message-size.js';
import { isAlphanumericCnpj } from '../../../kernel/tax-id.js';
import type { Issuer, SaleContext } from '../../goods/domain/issuer-context.js';
import { emitOf, respTecMissing, respTecOf } from '../../goods/domain/parties.js';
import { destOf } from './consumer-dest.js';
import type { ReformItemPlan } from '../../goods/domain/item-taxes.js';
import type { ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { checkReformRates } from '../../goods/domain/reform-rate-checks.js';
import { classifyReform } from '../../goods/domain/reform-class-checks.js';
import { reformGroupsLikely, withReformGroups } from '../../goods/domain/reform-schedule.js';
import { checkPisCofinsDate } from '../../goods/domain/pis-cofins-schedule.js';
import { paymentPlan, salePayments } from '../../goods/domain/payments.js';
import { carrierModel, MODALIDADES_FRETE } from '../../goods/domain/transport.js';
import type { Sale } from './sale.js';
import { layoutText } from '../../../fiscal/layout/text.js';
import { checkSale, type FieldError } from './validate-sale.js';
import { checkBatchDates } from '../../goods/domain/validate-medicine.js';

// docs/decisions.md#the-way-a-sale-travels, "domain nfce": request -> NFC-e model, in one pass. The service prepares a sale before
// any number is reserved and builds it afterwards once per number it is given (a batch that finds
// its series moved is built again with other numbers), so all that does not depend on the number
// is computed here, once.

/** The NFC-e model of a valid sale, but for what each number sets: the key, ide and hashCSRT. */
export interface PreparedNfce {
  issuer: Issuer;
  tpAmb: 1 | 2;
  /** 1 presential sale, 4 home delivery (ide/indPres). */
  indPres: 1 | 4;
  /**
   * Shared by every build of this sale and never changed by one: a build that adds to a group
   * (infRespTec's hashCSRT) copies the group first.
   */
  parts: Omit<NfceModel, 'accessKey' | 'ide'>;
  /** The CSRT whose hash goes in infRespTec (NT 2018.005: SHA-1 of the CSRT and the access key). */
  csrt?: { id: string; token: string };
  /** Each item's IBS/CBS: the groups are added when the note is dated (reform-schedule.ts). */
  reform: ReformItemPlan[];
  /** The account's taxRegime is reform_2026: the groups from 2026 (always from 2027). */
  taxReform: boolean;
  reformTables: ReformTables;
  /** The XSD package the document is meant for (PL_010 when reform groups or an alphanumeric CNPJ). */
  schemaPackage: 'PL_009' | 'PL_010';
}

export type PreparedSale = { ok: false; errors: FieldError[] } | { ok: true; nfce: PreparedNfce };

/**
 * Validates the sale and computes its items, totals, payments and parties once (checkSale hands
 * back the items it computed for the totals rules). `ok: false` carries the same field errors as
 * validateSale.
 */
export function prepareNfce(sale: Sale, ctx: SaleContext): PreparedSale {
  const checked = checkSale(sale, ctx.issuer, { tpAmb: ctx.tpAmb });
  const batchErrors: FieldError[] = [];
  checkBatchDates(batchErrors, Array.isArray(sale.items) ? sale.items : [], ctx.processingDay);
  const noRespTec = respTecMissing(ctx.issuer.uf, ctx.respTec);
  if (noRespTec) return { ok: false, errors: [noRespTec, ...(checked.ok ? [] : checked.errors), ...batchErrors] };
  if (!checked.ok) return { ok: false, errors: [...checked.errors, ...batchErrors] };
  if (batchErrors.length > 0) return { ok: false, errors: batchErrors };
  const { computed } = checked;
  // The CST and cClassTrib against the tables (the reduction is the class's), then the rates of the date.
  const reformErrors: FieldError[] = [];
  const reform = classifyReform(reformErrors, computed.reform, 'nfce', ctx.today, ctx.reformTables);
  checkReformRates(reformErrors, reform, ctx.issuer.crt, ctx.taxReform, ctx.today, ctx.reformTables);
  checkPisCofinsDate(reformErrors, sale.items, ctx.today, 65);
  if (reformErrors.length > 0) return { ok: false, errors: reformErrors };
  const parts: PreparedNfce['parts'] = {
    emit: emitOf(ctx.issuer),
    det: computed.det,
    total: computed.total,
    pag: paymentPlan(salePayments(sale), computed.total.vNF),
  };
  const dest = destOf(sale, ctx.tpAmb);
  if (dest) parts.dest = dest;
  if (sale.home_delivery && sale.transporte) parts.transp = { modFrete: MODALIDADES_FRETE[sale.transporte.modalidade], transporta: carrierModel(sale.transporte.transportadora) };
  if (sale.additional_info) parts.infAdic = { infCpl: layoutText(sale.additional_info) };
  if (ctx.respTec) parts.respTec = respTecOf(ctx.respTec);
  const nfce: PreparedNfce = { issuer: ctx.issuer, tpAmb: ctx.tpAmb, indPres: sale.home_delivery ? 4 : 1, parts, reform, taxReform: ctx.taxReform, reformTables: ctx.reformTables,
    schemaPackage: ctx.taxReform || needsPl010(parts) ? 'PL_010' : 'PL_009',
  };
  if (ctx.respTec?.csrt) nfce.csrt = ctx.respTec.csrt;
  // MOC B01 (214): measured with the widest ide a number can give.
  // Measured with the reform groups when the note may carry them (those of 2026: any year's are about as long).
  const measured = reformGroupsLikely(ctx.taxReform, ctx.today) ? withReformGroups(parts, reform, 3, '2026-01-01', ctx.reformTables) : parts;
  const tooBig = messageSizeError({ ...measured, accessKey: '0'.repeat(44), ide: { ...WIDEST_IDE, contingency: { ...WIDEST_IDE.contingency }, natOp: 'VENDA', tpEmis: 9, tpAmb: ctx.tpAmb, indPres: nfce.indPres } });
  if (tooBig) return { ok: false, errors: [tooBig] };
  return { ok: true, nfce };
}

/** PL_009 cannot carry a CNPJ with letters (its TCnpj is [0-9]{14}) nor the reform groups (taxReform, or a note dated 2027). */
function needsPl010(m: PreparedNfce['parts']): boolean {
  const cnpjs = [m.emit.CNPJ, m.dest?.CNPJ, m.respTec?.CNPJ, m.transp?.transporta.CNPJ, ...m.pag.detPag.map((p) => p.card?.CNPJ)];
  return cnpjs.some((c) => c !== undefined && isAlphanumericCnpj(c));
}
