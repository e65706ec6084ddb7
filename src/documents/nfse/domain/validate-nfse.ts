import { cstEntry, type ReformTables } from '../../../fiscal/reform/reform-tables.js';
import { nfseClassOn } from '../../../fiscal/xml/nfse/ibscbs-terms.js';
import { checkNumber, checkPattern, checkText, fail, OPTIONAL_MONEY, MONEY, type Errors, type FieldError } from '../../../fiscal/layout/field-rules.js';
import { municipality } from '../../../fiscal/layout/ibge.js';
import { toCents, toScaled } from '../../../kernel/decimal.js';
import { cleanTaxId } from '../../../kernel/tax-id.js';
import { deductionOf } from './figures.js';
import type { NfseContext } from './nfse-context.js';
import { ISS_RETENTION, ISS_TAXATION, type NfseRequest } from './nfse-request.js';
import { checkFederal, checkPisCofinsCompetence } from './validate-nfse-federal.js';
import { checkForeignTrade } from './validate-nfse-foreign-trade.js';
import { checkParty, type PartyKind } from './validate-nfse-parties.js';
import { checkTotTrib } from './validate-nfse-tot-trib.js';

export type { FieldError } from '../../../fiscal/layout/field-rules.js';

// TSDec2V2 (pAliqPis, pAliqCofins): up to 99.99 with two decimals.

// Anexo I E0370: LC 116 sub-items of construction work, whose DPS carries the obra group (not offered yet).
const OBRA_CODES = new Set(['070201', '070202', '070401', '070501', '070502', '070601', '070602', '070701', '070801', '071701', '071901']);

function checkService(errors: Errors, req: NfseRequest, ctx: NfseContext): void {
  const s = req.service;
  checkPattern(errors, 'service.national_code', s.national_code, /^[0-9]{6}$/, 'must be 6 digits (TSCodTribNac: LC 116 item, sub-item and detail, e.g. 010101)');
  // Anexo I E0370 / E0390: construction work needs the obra group, LC 116 item 12 (events) the atvEvento group; neither is offered yet.
  if (OBRA_CODES.has(s.national_code)) fail(errors, 'service.national_code', 'is a construction work code (LC 116 7.02, 7.04-7.08, 7.17, 7.19), whose DPS needs the obra group, not offered yet (Anexo I E0370)', 'E0370');
  if (s.national_code.startsWith('12')) fail(errors, 'service.national_code', 'is of LC 116 item 12 (cultural, sports and leisure events), whose DPS needs the atvEvento group, not offered yet (Anexo I E0390)', 'E0390');
  if (checkPattern(errors, 'service.municipal_code', s.municipal_code, /^[0-9]{3}$/, 'must be 3 digits (TSCodTribMun)', false) && s.municipal_code === '000') {
    fail(errors, 'service.municipal_code', 'must not be 000 (Anexo I E0315); leave it out when the municipality has no code of its own', 'E0315');
  }
  checkPattern(errors, 'service.nbs', s.nbs, /^[0-9]{9}$/, 'must be the 9-digit NBS code (TSCodNBS)', false);
  // Anexo I E0322: with IBSCBS the NBS code is mandatory.
  if (ctx.taxReform && req.reform && s.nbs === undefined) fail(errors, 'service.nbs', 'is required with the reform group (Anexo I E0322)', 'E0322');
  // Anexo I E0318: an export of services by the provider (a taker or intermediary abroad, a service provided abroad) names its NBS item.
  const abroad = (p: NfseRequest['tomador']) => p?.address?.country_code !== undefined;
  if (s.nbs === undefined && (abroad(req.tomador) || abroad(req.intermediario) || s.place_of_provision.country_code !== undefined)) {
    fail(errors, 'service.nbs', 'is required in an export of services: a taker or intermediary abroad, or a service provided abroad (Anexo I E0318)', 'E0318');
  }
  checkText(errors, 'service.description', s.description, 1, 2000); // TSDesc2000
  // Anexo I E0903: tpOper is required with IBSCBS for LC 116 items 25.05, 15.09, 17.12 and 10.05; the model has no tpOper yet.
  if (ctx.taxReform && req.reform && ['2505', '1509', '1712', '1005'].includes(s.national_code.slice(0, 4))) {
    fail(errors, 'reform', 'is not offered yet for LC 116 items 25.05, 15.09, 17.12 and 10.05 (they need tpOper, Anexo I E0903); leave reform out (IBS/CBS may be left out in 2026, FACTS 16.3)', 'E0903');
  }
  const l = s.place_of_provision;
  if ((l.city_code === undefined) === (l.country_code === undefined)) fail(errors, 'service.place_of_provision', 'must have exactly one of city_code or country_code');
  // Anexo I E0302: a municipality of the IBGE table.
  if (checkPattern(errors, 'service.place_of_provision.city_code', l.city_code, /^[0-9]{7}$/, 'must be the 7-digit IBGE municipality code', false) && !municipality(l.city_code!)) {
    fail(errors, 'service.place_of_provision.city_code', 'is not a municipality of the IBGE table (Anexo I E0302)', 'E0302');
  }
  // Anexo I E0304: an existing ISO2 country other than Brazil.
  if (l.country_code === 'BR') fail(errors, 'service.place_of_provision.country_code', 'must be a country other than BR (Anexo I E0304; use city_code in Brazil)', 'E0304');
  else checkPattern(errors, 'service.place_of_provision.country_code', l.country_code, /^[A-Z]{2}$/, 'must be an ISO alpha-2 country code other than BR (use city_code in Brazil)', false);
}

// Anexo I E0901: the operation indicators of Anexo C (ANEXO_C-INDOP_IBSCBS-SNNFSe v1.01, 2026-01-22).
const IND_OP_CODES = new Set([
  '020101', '020201', '020301', '030101', '030102', '030103', '030104', '040101', '050101', '050102', '050103', '050104', '050201',
  '060101', '070101', '070102', '080101', '100101', '100102', '100201', '100301', '100302', '100401', '100501', '100502', '100601',
]);

/** The reform group (IBSCBS): Anexo I E0901, E0932, E0959; with the reform tables E0958, E0965 (checkReformClass). */
function checkReform(errors: Errors, req: NfseRequest, tables: ReformTables | undefined): void {
  const r = req.reform;
  if (!r) return;
  if (typeof r.operation_code === 'string' && !IND_OP_CODES.has(r.operation_code)) {
    fail(errors, 'reform.operation_code', 'is not an operation indicator of Anexo C (IndOp table; e.g. 100301 other onerous services) (Anexo I E0901)', 'E0901');
  } else if (['020101', '020201', '020301'].includes(r.operation_code) && !OBRA_CODES.has(req.service.national_code)) {
    // E0932: an operation with real estate carries the imovel group, not offered yet.
    fail(errors, 'reform.operation_code', 'is an operation with real estate (020101, 020201, 020301), whose DPS needs the imovel group, not offered yet (Anexo I E0932)', 'E0932');
  }
  // E0959: cClassTrib belongs to its CST (its first 3 digits).
  if (typeof r.class_code === 'string' && typeof r.cst === 'string' && r.class_code.slice(0, 3) !== r.cst) {
    fail(errors, 'reform.class_code', `must begin with its CST ${r.cst}: the first 3 digits of cClassTrib are the CST it belongs to (Anexo I E0959)`, 'E0959');
  } else if (tables && typeof r.class_code === 'string' && /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(req.competence_date)) {
    checkReformClass(errors, r.class_code, req.competence_date, tables);
  }
}

/** E0958 / E0965 from the cClassTrib table (docs/fiscal/nfse-reform.md). */
function checkReformClass(errors: Errors, classCode: string, dCompet: string, tables: ReformTables): void {
  const c = nfseClassOn(tables, classCode, dCompet);
  // E0958: "cClassTrib para IBS/CBS incorreto para operação de prestação de serviços": a class of the NFS-e in force on the competence.
  if (!c) fail(errors, 'reform.class_code', `is not a classification of the NFS-e in force on ${dCompet} in the cClassTrib table (Anexo I E0958)`, 'E0958');
  // E0965: a class whose indicator asks for the regular-taxation group (gTribRegular), which the request does not offer.
  else if (c.indicators.ind_gTribRegular) fail(errors, 'reform.class_code', 'needs the regular-taxation group (gTribRegular), not offered yet (Anexo I E0965)', 'E0965');
  // E0972: a CST whose indicator asks for the deferral group (ind_gDif, CST 515 among the NFS-e's), not offered yet.
  else if (cstEntry(tables, c.cst)?.indicators.ind_gDif) fail(errors, 'reform.class_code', `is of CST ${c.cst}, which needs the deferral group (gDif), not offered yet (Anexo I E0972)`, 'E0972');
}

/** ISSQN rate: TSDec1V2 (two decimals) and Anexo I E0595, E0600, E0602, E0604, E0621. */
function checkRate(errors: Errors, req: NfseRequest, ctx: NfseContext, taxation: string): void {
  const { rate, retained } = req.values.iss;
  const { simplesNacional: op, simplesRegime, specialRegime } = ctx.issuer;
  const at = 'values.iss.rate';
  if (rate === undefined) {
    // E0621: ME/EPP paying ISSQN through the SN, ISSQN withheld -> rate required, at least 1.8% (conditions 3 and 4,
    // the incidence municipality's agreement and municipal benefits, are Sefin's; asking the rate is always safe for ME/EPP).
    if (op === 3 && simplesRegime === 1 && retained !== 'nao_retido') fail(errors, at, 'is required when a Simples Nacional ME/EPP provider has the ISSQN withheld (Anexo I E0621)');
    return;
  }
  if (!checkNumber(errors, at, rate, { places: 2, sign: 'positive', max: 9.99 })) return;
  if (taxation !== 'tributavel') return fail(errors, at, 'must be absent unless taxation is tributavel (Anexo I E0602)', 'E0602');
  if (op === 2) return fail(errors, at, 'must be absent for a MEI provider (Anexo I E0600)', 'E0600');
  if (specialRegime !== 0) return fail(errors, at, 'must be absent when the provider has a special tax regime (Anexo I E0604)', 'E0604');
  if (rate > 5) return fail(errors, at, 'must be at most 5 (Anexo I E0595)', 'E0595');
  // E0625 (municipality of incidence active in the national system) / E0631 (not active): an ME/EPP paying ISSQN through the SN
  // writes no rate when nothing is withheld, whatever the municipality (no municipal benefit is written).
  if (op === 3 && simplesRegime === 1 && retained === 'nao_retido') {
    return fail(errors, at, 'must be absent for a Simples Nacional ME/EPP provider paying ISSQN through the SN when it is not withheld (Anexo I E0625, E0631)', 'E0625');
  }
  if (op === 3 && simplesRegime === 1 && retained !== 'nao_retido' && rate < 1.8) fail(errors, at, 'must be at least 1.8 for a Simples Nacional ME/EPP provider with ISSQN withheld (Anexo I E0621)');
}

/** The issuer's registration data (opSimpNac, regApTribSN, regEspTrib, cLocEmi), reported on issuer_id. */
function checkIssuer(errors: Errors, ctx: NfseContext): void {
  const { simplesNacional: op, simplesRegime, specialRegime, cityCode, taxId, municipalRegistration } = ctx.issuer;
  const bad = (what: string, rule?: string) => fail(errors, 'issuer_id', `the issuer's NFS-e data: ${what}`, rule);
  if (!/^[0-9]{7}$/.test(cityCode)) bad('the municipality of emission (cLocEmi) must be a 7-digit IBGE code');
  if (!/^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$/.test(taxId)) bad('the tax id must be a CPF (11 digits) or a CNPJ (14 characters)');
  if (municipalRegistration !== undefined && (municipalRegistration.length < 1 || municipalRegistration.length > 15)) bad('the municipal registration (IM) must have 1 to 15 characters');
  if (ctx.issuer.phone !== undefined && !/^[0-9]{6,20}$/.test(ctx.issuer.phone)) bad('the phone must be 6 to 20 digits (TSTelefone)');
  if (ctx.issuer.email !== undefined && (ctx.issuer.email.length > 80 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(ctx.issuer.email))) bad('the e-mail must be an address of at most 80 characters (TSEmail, Anexo I E0148)', 'E0148');
  // Anexo I E0162 / E0166: regApTribSN only, and always, for an ME/EPP (opSimpNac 3).
  if (op !== 3 && simplesRegime !== undefined) bad('the Simples Nacional regime (regApTribSN) is only for an ME/EPP (Anexo I E0162)', 'E0162');
  if (op === 3 && simplesRegime === undefined) bad('an ME/EPP needs its Simples Nacional regime (regApTribSN) (Anexo I E0166)', 'E0166');
  // Anexo I E0174 (MEI) / E0175 (ME/EPP paying everything through the SN): special regime must be 0.
  if (op === 2 && specialRegime !== 0) bad('a MEI has no special tax regime (regEspTrib 0, Anexo I E0174)', 'E0174');
  if (op === 3 && simplesRegime === 1 && specialRegime !== 0) bad('an ME/EPP paying ISSQN through the Simples Nacional has no special tax regime (regEspTrib 0, Anexo I E0175)', 'E0175');
}

// LC 116/2003 art. 8-A: the 2 % minimum does not bind sub-items 7.02, 7.05 and 16.01.
const MINIMUM_EXEMPT = ['0702', '0705', '1601'];

/** Anexo I E0444 (pDR) / E0447 (vDR): a deduction may not bring the ISSQN (at the rate given) below 2 % of the base before it. */
function checkMinimumIss(errors: Errors, req: NfseRequest, field: string, before: number, vDR: number): void {
  const rate = req.values.iss.rate;
  if (rate === undefined || typeof rate !== 'number' || vDR <= 0 || MINIMUM_EXEMPT.includes(req.service.national_code.slice(0, 4))) return;
  if ((before - vDR) * rate < 2 * before) {
    const rule = field === 'values.deduction_rate' ? 'E0444' : 'E0447';
    fail(errors, field, `bring the ISSQN below 2 % of service_amount minus unconditional_discount at rate ${rate} (Anexo I ${rule}; only sub-items 7.02, 7.05 and 16.01 may go below)`, rule);
  }
}

const incondOf = (v: NfseRequest['values']): number => (typeof v.unconditional_discount === 'number' && Number.isFinite(v.unconditional_discount) ? toCents(v.unconditional_discount) : 0);

function checkValues(errors: Errors, req: NfseRequest, ctx: NfseContext, taker: PartyKind, interm: PartyKind): void {
  const v = req.values;
  const okServ = checkNumber(errors, 'values.service_amount', v.service_amount, MONEY);
  const vServ = okServ ? toCents(v.service_amount) : undefined;
  const amount = (field: string, value: number | undefined) => (checkNumber(errors, field, value, OPTIONAL_MONEY) && value !== undefined ? toCents(value) : 0);
  let vDR = amount('values.deductions', v.deductions);
  if (v.deduction_rate !== undefined) {
    // XSD TCInfoDedRed: a choice of pDR or vDR. Anexo I E0453: 0 < pDR <= 100.
    if (v.deductions !== undefined) fail(errors, 'values.deduction_rate', 'give either deductions or deduction_rate, not both');
    else if (!checkNumber(errors, 'values.deduction_rate', v.deduction_rate, { places: 2, sign: 'positive' })) vDR = 0;
    else if (v.deduction_rate > 100) fail(errors, 'values.deduction_rate', 'must be at most 100 (Anexo I E0453)', 'E0453');
    else if (vServ !== undefined) {
      vDR = deductionOf({ vServ, vDescIncond: incondOf(v), dedRed: { pDR: Number(toScaled(v.deduction_rate, 2)) } });
    }
  }
  const incond = amount('values.unconditional_discount', v.unconditional_discount);
  const cond = amount('values.conditional_discount', v.conditional_discount);
  if (vServ !== undefined) {
    // Anexo I E0431 / E0432: a discount is less than the service value.
    if (incond >= vServ && incond > 0) fail(errors, 'values.unconditional_discount', 'must be less than service_amount (Anexo I E0431)', 'E0431');
    if (cond >= vServ && cond > 0) fail(errors, 'values.conditional_discount', 'must be less than service_amount (Anexo I E0432)', 'E0432');
    // Anexo I E0476, E0427: deductions not above the service value; vServ >= vDescIncond + vDR.
    if (vDR > vServ) fail(errors, 'values.deductions', 'must not exceed service_amount (Anexo I E0427)', 'E0427');
    else if (incond + vDR > vServ) fail(errors, 'values.deductions', 'plus unconditional_discount must not exceed service_amount (Anexo I E0427)', 'E0427');
  }
  const iss = v.iss;
  const taxation = iss.taxation ?? 'tributavel';
  if (!Object.hasOwn(ISS_TAXATION, taxation)) fail(errors, 'values.iss.taxation', `must be one of ${Object.keys(ISS_TAXATION).join(', ')}`);
  if (!Object.hasOwn(ISS_RETENTION, iss.retained)) fail(errors, 'values.iss.retained', `must be one of ${Object.keys(ISS_RETENTION).join(', ')}`);
  const { simplesNacional: op, specialRegime } = ctx.issuer;
  const dedField = v.deduction_rate !== undefined ? 'values.deduction_rate' : 'values.deductions';
  if (vDR > 0) {
    // Anexo I E0435 (immunity, export, no incidence), E0436 (MEI), E0438 (special regime).
    if (taxation !== 'tributavel') fail(errors, dedField, 'are not allowed unless the service is taxable (Anexo I E0435)', 'E0435');
    else if (op === 2) fail(errors, dedField, 'are not allowed for a MEI provider (Anexo I E0436)', 'E0436');
    else if (specialRegime !== 0) fail(errors, dedField, 'are not allowed with a special tax regime (Anexo I E0438)', 'E0438');
    // E0441 (municipality of incidence active) / E0442 (not active): an ME/EPP paying ISSQN through the SN deducts only for 06.01, 06.02, 07.02, 07.05.
    else if (op === 3 && ctx.issuer.simplesRegime === 1 && !['0601', '0602', '0702', '0705'].includes(req.service.national_code.slice(0, 4))) {
      fail(errors, dedField, 'are not allowed for a Simples Nacional ME/EPP paying ISSQN through the SN, but for sub-items 06.01, 06.02, 07.02 and 07.05 (Anexo I E0441, E0442)', 'E0441');
    }
    else if (vServ !== undefined) checkMinimumIss(errors, req, dedField, vServ - incond, vDR);
  }
  if (iss.retained === 'tomador' || iss.retained === 'intermediario') {
    // Anexo I E0580: no ISSQN withheld for an immune, exported or non-incident service; E0583: nor for a MEI provider.
    if (taxation !== 'tributavel') fail(errors, 'values.iss.retained', `must be nao_retido: the service is ${taxation}, so no ISSQN is withheld (Anexo I E0580)`, 'E0580');
    else if (op === 2) fail(errors, 'values.iss.retained', 'must be nao_retido: no ISSQN is withheld from a MEI provider (Anexo I E0583)', 'E0583');
    // Anexo I E0588: nor from a provider with a special regime; E0596: nor for national code 22.01.01 (highway operation).
    else if (specialRegime !== 0) fail(errors, 'values.iss.retained', 'must be nao_retido: no ISSQN is withheld from a provider with a special tax regime (Anexo I E0588)', 'E0588');
    else if (req.service.national_code === '220101') fail(errors, 'values.iss.retained', 'must be nao_retido for national code 220101, highway operation (Anexo I E0596)', 'E0596');
  }
  // Anexo I E0172: a special regime only when the service is taxable.
  if (taxation !== 'tributavel' && specialRegime !== 0) fail(errors, 'values.iss.taxation', 'must be tributavel: the issuer has a special tax regime (Anexo I E0172)', 'E0172');
  if (taxation === 'imunidade') {
    if (iss.immunity_type === undefined || !Number.isInteger(iss.immunity_type) || iss.immunity_type < 0 || iss.immunity_type > 5) fail(errors, 'values.iss.immunity_type', 'is required with taxation imunidade: 0 to 5 (TSTipoImunidadeISSQN, Anexo I E0592)', 'E0592');
  } else if (iss.immunity_type !== undefined) fail(errors, 'values.iss.immunity_type', 'is only for taxation imunidade (Anexo I E0592)', 'E0592');
  if (iss.suspension) {
    // Anexo I E0585: a suspension only for a taxable service.
    if (taxation !== 'tributavel') fail(errors, 'values.iss.suspension', 'is only allowed with taxation tributavel (Anexo I E0585)', 'E0585');
    if (iss.suspension.type !== 'decisao_judicial' && iss.suspension.type !== 'processo_administrativo') fail(errors, 'values.iss.suspension.type', 'must be decisao_judicial or processo_administrativo');
    checkPattern(errors, 'values.iss.suspension.process_number', iss.suspension.process_number, /^[0-9]{30}$/, 'must be 30 digits (TSNumProcExigSuspensa)');
  }
  // E0590/E0591: cPaisResult is required or refused by the export scenario (Sefin's EXPORTACAO_EMISSÃO_NFS-e sheet, not held here).
  checkPattern(errors, 'values.iss.export_country', iss.export_country, /^(?!BR$)[A-Z]{2}$/, 'must be an ISO alpha-2 country code other than BR', false);
  // E0532: national code 99.01.01 (services without ISSQN and ICMS) is always nao_incidencia.
  if (req.service.national_code === '990101' && taxation !== 'nao_incidencia') fail(errors, 'values.iss.taxation', 'must be nao_incidencia for national code 990101 (Anexo I E0532)', 'E0532');
  checkRate(errors, req, ctx, taxation);
  // Anexo I E0204 / E0237: withheld by the taker -> taker with CPF/CNPJ and a national address.
  if (iss.retained === 'tomador' && (taker === 'foreign' || taker === undefined || !req.tomador?.address || req.tomador.address.country_code !== undefined)) {
    const identified = taker === 'cpf' || taker === 'cnpj';
    fail(errors, 'values.iss.retained', 'tomador needs a taker identified by cpf or cnpj with an address in Brazil (Anexo I E0204, E0237)', identified ? 'E0237' : 'E0204');
  }
  // Anexo I E0264 / E0293: withheld by the intermediary -> intermediary with CPF/CNPJ and a national address.
  if (iss.retained === 'intermediario' && (interm === 'foreign' || interm === undefined || !req.intermediario?.address || req.intermediario.address.country_code !== undefined)) {
    const identified = interm === 'cpf' || interm === 'cnpj';
    fail(errors, 'values.iss.retained', 'intermediario needs an intermediary identified by cpf or cnpj with an address in Brazil (Anexo I E0264, E0293)', identified ? 'E0293' : 'E0264');
  }
  checkFederal(errors, req, vServ, ctx.issuer);
  checkPisCofinsCompetence(errors, req);
  checkTotTrib(errors, req, ctx.issuer, vServ);
}

const taxIdOf = (p: { cnpj?: string; cpf?: string } | undefined) => {
  const id = p?.cnpj ?? p?.cpf;
  return id === undefined ? undefined : cleanTaxId(id);
};

/**
 * Anexo I E0060 (provider outside the Simples Nacional: competence, LC 116 sub-item, municipal code and place
 * of provision) and E0061 (MEI, ME/EPP: the taker when identified, competence and service value): what a
 * substitute keeps from the NFS-e it replaces.
 */
function checkSubstitution(errors: Errors, req: NfseRequest, ctx: NfseContext): void {
  const o = ctx.substituted;
  if (!req.substitutes || !o) return;
  const rule = ctx.issuer.simplesNacional === 1 ? 'E0060' : 'E0061';
  const keep = (field: string, what: string) => fail(errors, field, `must be the replaced NFS-e's ${what}: a substitute keeps it (Anexo I ${rule})`, rule);
  if (req.competence_date !== o.competence_date) keep('competence_date', `competence date ${o.competence_date}`);
  if (rule === 'E0060') {
    const s = req.service;
    if (s.national_code.slice(0, 4) !== o.service.national_code.slice(0, 4)) keep('service.national_code', `LC 116 sub-item ${o.service.national_code.slice(0, 4)}`);
    if (s.municipal_code !== o.service.municipal_code) keep('service.municipal_code', `municipal code ${o.service.municipal_code ?? '(none)'}`);
    const place = o.service.place_of_provision;
    if (s.place_of_provision.city_code !== place.city_code || s.place_of_provision.country_code !== place.country_code) keep('service.place_of_provision', 'place of provision');
    return;
  }
  const taker = taxIdOf(o.tomador);
  if (taker !== undefined && taxIdOf(req.tomador) !== taker) keep('tomador', `taker ${taker}`);
  const cents = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? toCents(v) : undefined);
  if (cents(req.values.service_amount) !== cents(o.values.service_amount)) keep('values.service_amount', `service amount ${o.values.service_amount}`);
}

/** A real YYYY-MM-DD date (Date.parse rolls 2026-02-30 over to March, so the text must survive a round trip). */
function isCalendarDate(text: string): boolean {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}

/** Every rule of Anexo I that can be checked without Sefin's registers, as errors naming the request field. */
export function checkNfse(req: NfseRequest, ctx: NfseContext): FieldError[] {
  const errors: Errors = [];
  const { issuer } = ctx;
  if (!isCalendarDate(req.competence_date)) {
    fail(errors, 'competence_date', 'must be a date YYYY-MM-DD');
  } else if (ctx.today && req.competence_date > ctx.today) {
    fail(errors, 'competence_date', `must not be after the emission date ${ctx.today} (Anexo I E0015)`, 'E0015');
  } else if (req.reform && req.competence_date < '2026-01-01') {
    fail(errors, 'reform', 'IBS/CBS is accepted only for a competence from 2026-01-01 (Anexo I E0850)', 'E0850');
  }
  checkIssuer(errors, ctx);
  checkText(errors, 'external_ref', req.external_ref, 1, 60, false);
  if (req.reform && !ctx.taxReform) fail(errors, 'reform', 'is only accepted when the account\'s tax regime is reform_2026');
  checkService(errors, req, ctx);
  if (ctx.taxReform) checkReform(errors, req, ctx.reformTables);
  const taker = req.tomador ? checkParty(errors, 'tomador', req.tomador, issuer.taxId) : undefined;
  const interm = req.intermediario ? checkParty(errors, 'intermediario', req.intermediario, issuer.taxId) : undefined;
  checkValues(errors, req, ctx, taker, interm);
  checkForeignTrade(errors, req);
  checkSubstitution(errors, req, ctx);
  if (req.substitutes) {
    const { reason_code: code, reason } = req.substitutes;
    // TSMotivo: 15-255 characters; Anexo I E0078: required with cMotivo 99.
    if (code === '99' && reason === undefined) fail(errors, 'substitutes.reason', 'is required with reason_code 99 (Anexo I E0078)', 'E0078');
    checkText(errors, 'substitutes.reason', reason, 15, 255, false);
  }
  return errors;
}
