import { layoutText } from '../../../fiscal/layout/text.js';
import type { DpsAddress, DpsModel, DpsPartyId, DpsPessoa, DpsValores } from '../../../fiscal/xml/nfse/model.js';
import { toCents, toScaled } from '../../../kernel/decimal.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { deductionOf, dpsFigures } from './figures.js';
import type { NfseContext } from './nfse-context.js';
import { ISS_RETENTION, ISS_TAXATION, NO_NIF_REASONS, type NfseParty, type NfseRequest } from './nfse-request.js';
import { checkNfse, type FieldError } from './validate-nfse.js';
import { pisCofinsAmount, pisCofinsTaxed } from './validate-nfse-federal.js';
import { comExtOf } from './validate-nfse-foreign-trade.js';
import { totTribOf } from './validate-nfse-tot-trib.js';

// request -> DPS model minus what the number decides (dhEmi, serie, nDPS, verAplic), in one pass.

export type PreparedDps = Omit<DpsModel, 'dhEmi' | 'serie' | 'nDPS' | 'verAplic'>;
export type PreparedNfseResult = { ok: false; errors: FieldError[] } | { ok: true; dps: PreparedDps };

const hundredths = (percent: number) => Number(toScaled(percent, 2));

function partyId(p: NfseParty): DpsPartyId {
  if (p.cnpj !== undefined) return { CNPJ: cleanTaxId(p.cnpj) };
  if (p.cpf !== undefined) return { CPF: cleanTaxId(p.cpf) };
  if (p.nif !== undefined) return { NIF: layoutText(p.nif) };
  return { cNaoNIF: NO_NIF_REASONS[p.no_nif_reason!] };
}

function pessoa(p: NfseParty): DpsPessoa {
  const out: DpsPessoa = { id: partyId(p), xNome: layoutText(p.name) };
  if (p.municipal_registration) out.IM = layoutText(p.municipal_registration);
  const a = p.address;
  if (a) {
    const place: DpsAddress['place'] = a.country_code
      ? { endExt: { cPais: a.country_code, cEndPost: layoutText(a.postal_code!), xCidade: layoutText(a.city!), xEstProvReg: layoutText(a.state_region!) } }
      : { endNac: { cMun: a.city_code!, CEP: a.cep! } };
    out.end = { place, xLgr: layoutText(a.street), nro: layoutText(a.number), xBairro: layoutText(a.district) };
    if (a.complement) out.end.xCpl = layoutText(a.complement);
  }
  if (p.phone) out.fone = p.phone;
  if (p.email) out.email = p.email;
  return out;
}

function valores(req: NfseRequest): DpsValores {
  const v = req.values;
  const vServ = toCents(v.service_amount);
  const tribISSQN = ISS_TAXATION[v.iss.taxation ?? 'tributavel'];
  const out: DpsValores = { vServ, tribMun: { tribISSQN, tpRetISSQN: ISS_RETENTION[v.iss.retained] }, totTrib: totTribOf(v) };
  if (v.unconditional_discount) out.vDescIncond = toCents(v.unconditional_discount);
  if (v.conditional_discount) out.vDescCond = toCents(v.conditional_discount);
  if (v.deductions) out.dedRed = { vDR: toCents(v.deductions) };
  if (v.deduction_rate) out.dedRed = { pDR: hundredths(v.deduction_rate) };
  if (v.iss.immunity_type !== undefined) out.tribMun.tpImunidade = v.iss.immunity_type;
  if (v.iss.export_country) out.tribMun.cPaisResult = v.iss.export_country;
  if (v.iss.suspension) out.tribMun.exigSusp = { tpSusp: v.iss.suspension.type === 'decisao_judicial' ? 1 : 2, nProcesso: v.iss.suspension.process_number };
  if (v.iss.rate !== undefined) out.tribMun.pAliq = hundredths(v.iss.rate);
  const f = v.federal;
  if (f && (f.pis_cofins || f.withholdings)) {
    out.tribFed = {};
    const pc = f.pis_cofins;
    if (pc) {
      const p: NonNullable<typeof out.tribFed.piscofins> = { CST: pc.cst };
      if (pisCofinsTaxed(pc.cst)) {
        // E0678: the base is written with every CST but 00, 08, 09; vPis/vCofins = base x rate (E0694, E0696).
        const base = pc.base !== undefined ? toCents(pc.base) : vServ - (out.vDescIncond ?? 0) - deductionOf(out);
        p.vBCPisCofins = base;
        p.pAliqPis = hundredths(pc.pis_rate!);
        p.pAliqCofins = hundredths(pc.cofins_rate!);
        p.vPis = pisCofinsAmount(base, pc.pis_rate!);
        p.vCofins = pisCofinsAmount(base, pc.cofins_rate!);
      }
      if (pc.withheld !== undefined) p.tpRetPisCofins = pc.withheld;
      out.tribFed.piscofins = p;
    }
    const w = f.withholdings;
    if (w?.cp) out.tribFed.vRetCP = toCents(w.cp);
    if (w?.irrf) out.tribFed.vRetIRRF = toCents(w.irrf);
    if (w?.csll) out.tribFed.vRetCSLL = toCents(w.csll);
  }
  return out;
}

/** Validates the request and builds the DPS model once, before any number is reserved. */
export function prepareNfse(req: NfseRequest, ctx: NfseContext): PreparedNfseResult {
  const errors = checkNfse(req, ctx);
  if (errors.length > 0) return { ok: false, errors };
  const { issuer } = ctx;
  const taxId = cleanTaxId(issuer.taxId);
  const prest: DpsModel['prest'] = {
    id: taxId.length === 11 ? { CPF: taxId } : { CNPJ: taxId },
    regTrib: { opSimpNac: issuer.simplesNacional, regEspTrib: issuer.specialRegime },
  };
  if (issuer.simplesRegime !== undefined) prest.regTrib.regApTribSN = issuer.simplesRegime;
  if (issuer.municipalRegistration) prest.IM = issuer.municipalRegistration;
  if (issuer.phone) prest.fone = issuer.phone;
  if (issuer.email) prest.email = issuer.email;
  const s = req.service;
  const serv: DpsModel['serv'] = {
    locPrest: s.place_of_provision.city_code ? { cLocPrestacao: s.place_of_provision.city_code } : { cPaisPrestacao: s.place_of_provision.country_code! },
    cTribNac: s.national_code,
    xDescServ: layoutText(s.description),
  };
  if (s.municipal_code) serv.cTribMun = s.municipal_code;
  if (s.nbs) serv.cNBS = s.nbs;
  if (s.foreign_trade) serv.comExt = comExtOf(s.foreign_trade);
  // E9996: tpEmit 1 only; E0121/E0128: no prest/xNome nor prest/end.
  const dps: PreparedDps = { tpAmb: ctx.tpAmb, dCompet: req.competence_date, tpEmit: 1, cLocEmi: issuer.cityCode, prest, serv, valores: valores(req) };
  // Anexo I E0428: vServ >= discounts + deductions + CP, IRRF, CSLL + PIS, COFINS and ISSQN when withheld (computed).
  const f = dpsFigures(dps, ctx.reformTables);
  const v = dps.valores;
  if ((v.vDescIncond ?? 0) + (v.vDescCond ?? 0) + f.vDR + f.vRetFed + f.vRetPisCofins + (f.vRetISSQN ?? 0) > v.vServ) {
    return { ok: false, errors: [{ field: 'values', message: 'discounts, deductions and the taxes withheld (CP, IRRF, CSLL, and PIS, COFINS, ISSQN when withheld) add up to more than service_amount (Anexo I E0428)', rule: 'E0428' }] };
  }
  if (req.substitutes && ctx.substitutedKey) {
    dps.subst = { chSubstda: ctx.substitutedKey, cMotivo: req.substitutes.reason_code };
    if (req.substitutes.reason) dps.subst.xMotivo = layoutText(req.substitutes.reason);
  }
  if (req.tomador) dps.toma = pessoa(req.tomador);
  if (req.intermediario) dps.interm = pessoa(req.intermediario);
  if (req.reform && ctx.taxReform) {
    const r = req.reform;
    dps.IBSCBS = { finNFSe: 0, cIndOp: r.operation_code, indDest: 0, CST: r.cst, cClassTrib: r.class_code };
    if (r.final_consumer !== undefined) dps.IBSCBS.indFinal = r.final_consumer ? 1 : 0;
  }
  return { ok: true, dps };
}
