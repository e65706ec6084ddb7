import { fail, type Errors } from '../../../fiscal/layout/field-rules.js';
import type { DetModel, IbsCbsModel, IcmsTotModel, ReformTotModel } from '../../../fiscal/xml/nfe/model.js';
import { mulDivRound, percentOf } from '../../../kernel/decimal.js';
import type { Crt } from './issuer-context.js';
import type { ReformItemPlan } from './item-taxes.js';
import { reformGroupsDue } from './reform-schedule.js';
import { reformTotals } from './totals.js';

// A government purchase (NT 2025.002-RTC ide/gCompraGov, B31-B34; item gIBSCBS/gTribCompraGov, UB82a; LC 214/2025
// arts. 370, 472 and 473): docs/fiscal/tax-reform.md, "Government purchases".
//
// - NF-e only: an NFC-e with gCompraGov is refused (B31-10, cStat 1006).
// - ide/gCompraGov {tpEnteGov, pRedutor, tpOperGov}. The gateway writes tpOperGov 1 (supply; the v1.40 XSD:
//   "Fornecimento com pagamento posterior"); 2 to 4 need earlier documents (refDFeAnt, B34-10) it does not write.
// - Every sphere of every gIBSCBS carries gRed, even with a CST whose ind_gRed is 0 (UB26-20 and its twins; the
//   UB26-10 exception: pRedAliq 0 then), and pAliqEfet = rate x (1 - pRedAliq/100) x (1 - pRedutor/100), rounded
//   to 4 places (UB28-10, UB47-10, UB66-10); the value is vBC x pAliqEfet.
// - gTribCompraGov holds each sphere's rate and value "sem aplicação do Art. 473" (the XSD), and their sum must be
//   the item's vIBSUF + vIBSMun + vCBS within 0.04 (UB82a-20, 1142). The official calculator (calculadora RTC,
//   CalculoCbsIbsService.obterGrupoCompraGov) fills it with the effective rate and value of each sphere, and
//   moves them to the buying entity only from 2027 (TributacaoCompraGovernamentalDomain.getValoresEfetivos:
//   "antes de 2027, cada um fica com os seus proprios valores"); B32-10 (1008) likewise checks the other entities'
//   rates only from 2027.
// - pRedutor: the calculator's table REDUTOR_COMPRA_GOVERNAMENTAL holds 0 for 2026 (migration V0023, "Inclusão de
//   redutor compra governamental com valor Zero para 2026"). From 2027 the redutor and the art. 473 transfer
//   between entities are not implemented here: a government purchase dated 2027 is refused with a 422.

/** TEnteGov (PL_010 v1.40): the public buyer (direct administration, its autarchies and foundations). */
export const GOVERNMENT_ENTITIES: Readonly<Record<number, string>> = {
  1: 'União', 2: 'Estado', 3: 'Distrito Federal', 4: 'Município', 5: 'consórcio público', 6: 'Comitê Gestor do IBS',
};

/** tpOperGov 1: supply (NT 2025.002-RTC B34; v1.40 XSD "Fornecimento com pagamento posterior"). */
export const SUPPLY_OPERATION = 1;

/** pRedutor per period, percent, [from, until): the official calculator's REDUTOR_COMPRA_GOVERNAMENTAL rows the gateway applies. */
const REDUCER_PERIODS: readonly { from: string; until: string; pRedutor: number }[] = [{ from: '2026-01-01', until: '2027-01-01', pRedutor: 0 }];

/** pRedutor (scale 4) of a note dated `isoDate` (local, YYYY-MM-DD...), or null when the gateway does not know it. */
export function governmentReducerOn(isoDate: string): number | null {
  const day = isoDate.slice(0, 10);
  const p = REDUCER_PERIODS.find((r) => r.from <= day && day < r.until);
  return p ? Math.round(p.pRedutor * 10_000) : null;
}

export interface GovernmentPurchase {
  tpEnteGov: number;
}

/** The gateway's refusals of `government_purchase` (422 naming the field), on the day the note is prepared. */
export function checkGovernmentPurchase(errors: Errors, purchase: GovernmentPurchase | undefined, ctx: { crt: Crt; taxReform: boolean; today: string | undefined }, plans: readonly ReformItemPlan[] = []): void {
  if (!purchase) return;
  const field = 'government_purchase';
  // The calculator writes a deferred or suspended item of a purchase otherwise (gDif on the reduced rate; gTribRegular
  // with the purchase's rates and the main group zeroed): not implemented here.
  const mixed = plans.findIndex((p) => p.deferral !== undefined || p.regular !== undefined);
  if (mixed >= 0) {
    fail(errors, field, `items[${mixed}] is deferred or suspended (gDif / gTribRegular): a government purchase with such items is not implemented yet`);
    return;
  }
  if (GOVERNMENT_ENTITIES[purchase.tpEnteGov] === undefined) {
    fail(errors, `${field}.entity_type`, `must be 1 to 6 (TEnteGov: ${Object.entries(GOVERNMENT_ENTITIES).map(([k, v]) => `${k} ${v}`).join(', ')})`);
    return;
  }
  const today = ctx.today ?? new Date().toISOString().slice(0, 10);
  if (!reformGroupsDue(ctx.crt, ctx.taxReform, Number(today.slice(0, 4)))) {
    fail(errors, field, 'a government purchase carries the IBS/CBS groups (gRed and gTribCompraGov in each item, NT 2025.002-RTC UB26-20, UB82a-10): it needs the account taxRegime reform_2026 in 2026, and a Simples Nacional note dated 2026 carries none (LC 214/2025 art. 348 III c)');
    return;
  }
  if (governmentReducerOn(today) === null) {
    fail(errors, field, `the government purchase reducer (pRedutor, LC 214/2025 art. 370) and the transfer of the other entities' IBS/CBS to the buyer (art. 473; NT 2025.002-RTC B32-10, cStat 1008) from 2027 are not implemented: a government purchase dated ${today.slice(0, 4)} cannot be issued yet`);
  }
}

/** rate x (1 - red/100) x (1 - pRedutor/100), all scale 4, rounded to 4 places (UB28-10). */
const effective = (rate4: number, red4: number, redutor4: number): number =>
  Number(mulDivRound(BigInt(rate4) * BigInt(1_000_000 - red4), BigInt(1_000_000 - redutor4), 1_000_000_000_000n));

/** The item's IBSCBS of a government purchase: gRed in every sphere and gTribCompraGov (pRedutor scale 4). */
export function withGovernmentPurchase(m: IbsCbsModel, pRedutor: number): IbsCbsModel {
  const g = m.gIBSCBS;
  if (!g) return m;
  const red = g.gRed?.pRedAliq ?? 0;
  const redCbs = g.gRed?.pRedAliqCBS ?? red;
  const uf = effective(g.pIBSUF, red, pRedutor);
  const mun = effective(g.pIBSMun, red, pRedutor);
  const cbs = effective(g.pCBS, redCbs, pRedutor);
  const gRed = { pRedAliq: red, pAliqEfetUF: uf, pAliqEfetMun: mun, pAliqEfetCBS: cbs, ...(redCbs !== red ? { pRedAliqCBS: redCbs } : {}) };
  const vIBSUF = percentOf(g.vBC, uf);
  const vIBSMun = percentOf(g.vBC, mun);
  const vCBS = percentOf(g.vBC, cbs);
  return {
    ...m,
    gIBSCBS: {
      ...g, vIBSUF, vIBSMun, vCBS, gRed,
      gTribCompraGov: { pAliqIBSUF: uf, vTribIBSUF: vIBSUF, pAliqIBSMun: mun, vTribIBSMun: vIBSMun, pAliqCBS: cbs, vTribCBS: vCBS },
    },
  };
}

/** The note's items and IBSCBSTot with the government purchase applied (pRedutor scale 4); parts without reform groups, or null (no purchase), are returned as they are. */
export function withGovernmentPurchaseParts<T extends { det: DetModel[]; total: IcmsTotModel; reformTotal?: ReformTotModel }>(parts: T, pRedutor: number | null, year: number): T {
  if (!parts.reformTotal || pRedutor === null) return parts;
  const det = parts.det.map((d) => (d.ibscbs ? { ...d, ibscbs: withGovernmentPurchase(d.ibscbs, pRedutor) } : d));
  return { ...parts, det, reformTotal: reformTotals(det, parts.total.vNF, year) };
}
