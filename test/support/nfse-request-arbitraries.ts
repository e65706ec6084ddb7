import fc from 'fast-check';
import type { NfseContext, NfseDocumentContext } from '../../src/documents/nfse/domain/nfse-context.js';
import type { NfseParty, NfseRequest } from '../../src/documents/nfse/domain/nfse-request.js';
import { timeZoneOf } from '../../src/fiscal/layout/ibge.js';
import { nfseKeyCheckDigit } from '../../src/fiscal/xml/nfse/dps-id.js';
import { localDateTime } from '../../src/fiscal/layout/local-time.js';
import { CAPITALS, cpfArb, numericCnpjArb } from './nfce-arbitraries.js';
import { testSigningKey } from './nfce-fixtures.js';
import { deductionOf } from '../../src/documents/nfse/domain/figures.js';
import { isServiceExport } from '../../src/documents/nfse/domain/validate-nfse-foreign-trade.js';

// fast-check generators of valid NFS-e requests (POST /v1/nfse bodies) with the issuer's NFS-e data,
// for the fiscal-truth property: the request level, where nfse-arbitraries.ts generates DPS models.
// Valid = what checkNfse accepts by the Anexo I rules it cites; the property then asks the
// simulator whether it agrees.

export interface GeneratedNfseRequest {
  req: NfseRequest;
  ctx: NfseContext;
  doc: NfseDocumentContext;
}

const MUNICIPALITIES = Object.values(CAPITALS).map(([code]) => code);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const money = (max: number) => fc.integer({ min: 1, max }).map((c) => c / 100);
// LC 116 items without the tpOper demand of E0903 (25.05, 15.09, 17.12, 10.05) nor 99.01.01 (E0532),
// nor the obra (E0370: construction work) and atvEvento (E0390: item 12) groups the request does not offer.
const NATIONAL_CODES = ['010101', '010201', '070301', '140101', '170101', '171001', '080201', '040301'];

const addressArb = fc.record({ city: fc.constantFrom(...MUNICIPALITIES), cep: fc.stringMatching(/^[0-9]{8}$/), complement: fc.boolean() }).map((a) => ({
  street: 'Rua das Flores', number: '100', district: 'Centro', city_code: a.city, cep: a.cep, ...(a.complement ? { complement: 'Sala 2 & 3' } : {}),
}));

const partyArb = fc.record({
  kind: fc.constantFrom<'cpf' | 'cnpj' | 'foreign'>('cpf', 'cnpj', 'cnpj', 'foreign'), cpf: cpfArb, cnpj: numericCnpjArb, name: fc.constantFrom('Maria da Silva', 'Bar & Cia', "Ana Lúcia d'Ávila", 'Zé', 'A'.repeat(299) + 'Ç', '<Serviços> "Técnicos" Ltda'),
  address: opt(addressArb), email: fc.boolean(), phone: fc.boolean(), nif: fc.boolean(), im: opt(fc.constantFrom('1', '123456789012345', 'IM-77')),
}).map((p): NfseParty => {
  const out: NfseParty = { name: p.name };
  if (p.im) out.municipal_registration = p.im;
  if (p.kind === 'foreign') {
    if (p.nif) out.nif = 'NIF-' + p.cpf;
    else out.no_nif_reason = 'nao_exigido' as NfseParty['no_nif_reason'];
    out.address = { street: 'Main Street', number: '9', district: 'Downtown', country_code: 'US', postal_code: '10001', city: 'New York', state_region: 'NY' };
  } else {
    if (p.kind === 'cpf') out.cpf = p.cpf;
    else out.cnpj = p.cnpj;
    // Anexo I E0235: a taker identified by CNPJ gives its address.
    if (p.address || p.kind === 'cnpj') out.address = p.address ?? { street: 'Avenida Central', number: '1', district: 'Centro', city_code: MUNICIPALITIES[0]!, cep: '01001000' };
  }
  if (p.email) out.email = 'cliente@example.com';
  if (p.phone) out.phone = '21999998888';
  return out;
});

// Numeric CNPJs only: documents/nfse/services/nfse-issuer.ts refuses an alphanumeric one (DPS 1.01 TSCNPJ).
export function nfseRequestArb(): fc.Arbitrary<GeneratedNfseRequest> {
  return fc
    .record({
      byCpf: fc.constantFrom(false, false, false, true), cnpj: numericCnpjArb, cpf: cpfArb, op: fc.constantFrom<1 | 2 | 3>(1, 2, 3), snRegime: fc.constantFrom<1 | 2 | 3>(1, 2, 3),
      special: fc.constantFrom<0 | 1 | 2 | 3 | 4 | 5 | 6 | 9>(0, 0, 0, 1, 2, 3, 4, 5, 6, 9), city: fc.constantFrom(...MUNICIPALITIES), im: opt(fc.stringMatching(/^[0-9]{1,15}$/)),
      tpAmb: fc.constantFrom<1 | 2>(1, 2), taxReform: fc.boolean(), emittedAt: fc.date({ min: new Date('2026-01-02T00:00:00Z'), max: new Date('2027-12-31T23:59:59Z'), noInvalidDate: true }),
      competenceDaysBack: fc.integer({ min: 0, max: 60 }), serie: fc.integer({ min: 1, max: 49_999 }), nDPS: fc.integer({ min: 1, max: 999_999_999 }),
      code: fc.constantFrom(...NATIONAL_CODES), municipal: opt(fc.stringMatching(/^[0-9]{3}$/).filter((m) => m !== '000')), nbs: opt(fc.stringMatching(/^[0-9]{9}$/)),
      abroad: fc.constantFrom(false, false, true), taker: opt(partyArb), interm: opt(partyArb),
      amount: money(5_000_000), incond: opt(fc.integer({ min: 0, max: 30 })), cond: opt(fc.integer({ min: 0, max: 30 })), ded: opt(fc.integer({ min: 1, max: 40 })),
      retained: fc.constantFrom<'nao_retido' | 'tomador' | 'intermediario'>('nao_retido', 'nao_retido', 'tomador', 'intermediario'), rate: opt(fc.integer({ min: 180, max: 500 })),
      pisCofins: opt(fc.record({ cst: fc.constantFrom('00', '01', '02', '04', '06', '08', '09', '49', '99'), withheld: fc.constantFrom(0, 2, 3, 7), base: fc.boolean() })),
      withholdings: opt(fc.record({ cp: fc.boolean(), irrf: fc.boolean() })), reform: fc.boolean(), finalConsumer: opt(fc.boolean()),
      taxation: fc.constantFrom('tributavel', 'tributavel', 'tributavel', 'imunidade', 'exportacao', 'nao_incidencia'), immunity: fc.integer({ min: 0, max: 5 }),
      suspension: fc.constantFrom(false, false, false, true), byRate: fc.boolean(), longText: fc.constantFrom(false, false, false, true),
      tot: fc.constantFrom<'none' | 'amounts' | 'rates' | 'sn'>('none', 'amounts', 'rates', 'sn'), totShare: fc.integer({ min: 0, max: 40 }),
      subst: opt(fc.record({ code: fc.constantFrom<'01' | '02' | '03' | '04' | '05' | '99'>('01', '02', '03', '04', '05', '99'), reason: fc.boolean(), n: fc.stringMatching(/^[0-9]{13}$/) })),
    })
    .map((g) => {
      const op = g.op;
      const simplesRegime = op === 3 ? g.snRegime : undefined;
      // E0174 (MEI) and E0175 (ME/EPP paying ISSQN through the SN): no special regime.
      const specialRegime = op === 2 || (op === 3 && simplesRegime === 1) ? 0 : g.special;
      const ctx: NfseContext = {
        issuer: { taxId: g.byCpf ? g.cpf : g.cnpj, simplesNacional: op, specialRegime, cityCode: g.city, ...(simplesRegime ? { simplesRegime } : {}), ...(g.im ? { municipalRegistration: g.im } : {}) },
        tpAmb: g.tpAmb, taxReform: g.taxReform,
      };
      const today = localDateTime(g.emittedAt, timeZoneOf(g.city, '')).text.slice(0, 10);
      ctx.today = today;
      const competence = new Date(Date.parse(`${today}T00:00:00Z`) - g.competenceDaysBack * 86_400_000).toISOString().slice(0, 10);
      const reform = g.reform && g.taxReform;
      // PIS/COFINS due or withheld only on a competence up to 2026 (src/fiscal/reform/pis-cofins-end.ts): such a service is of 2026.
      const pisCofinsDue = g.pisCofins !== undefined && !['00', '08', '09'].includes(g.pisCofins.cst);
      const competenceOf = (c: string) => (reform && c < '2026-01-01' ? '2026-01-01' : pisCofinsDue && c >= '2027-01-01' ? '2026-12-31' : c);
      const req: NfseRequest = {
        issuer_id: 'iss_prop', external_ref: 'prop', competence_date: competenceOf(competence),
        service: {
          national_code: g.code, description: g.longText ? 'Manutenção <preventiva> & "corretiva"\n'.repeat(50).slice(0, 2000) : 'Desenvolvimento de sistemas & manutenção', place_of_provision: g.abroad ? { country_code: 'US' } : { city_code: g.city },
          ...(g.municipal ? { municipal_code: g.municipal } : {}), ...(g.nbs || reform ? { nbs: g.nbs ?? '115021000' } : {}),
        },
        values: { service_amount: g.amount, iss: { retained: 'nao_retido' } },
      };
      if (g.taker) req.tomador = g.taker;
      if (g.interm && !(g.taker && (g.taker.cnpj ?? g.taker.cpf) === (g.interm.cnpj ?? g.interm.cpf))) req.intermediario = g.interm;
      const national = (p: NfseParty | undefined) => p !== undefined && (p.cpf !== undefined || p.cnpj !== undefined) && p.address !== undefined;
      // E0204/E0237, E0264/E0293: withheld by a party identified in Brazil, with an address in Brazil.
      // A withheld ISSQN only for a taxable service (E0621 would ask a rate E0602 refuses for an ME/EPP of the SN).
      // Nor from a MEI provider (E0583).
      // Nor with a special regime (E0588).
      const taxable = specialRegime === 0 && g.taxation === 'tributavel' && op !== 2;
      if (taxable && g.retained === 'tomador' && national(req.tomador)) req.values.iss.retained = 'tomador';
      if (taxable && g.retained === 'intermediario' && national(req.intermediario)) req.values.iss.retained = 'intermediario';
      const cents = Math.round(g.amount * 100);
      const share = (p: number | undefined) => (p === undefined ? undefined : Math.floor((cents * p) / 100) / 100);
      const incond = share(g.incond);
      const cond = share(g.cond);
      if (incond) req.values.unconditional_discount = incond;
      if (cond) req.values.conditional_discount = cond;
      // E0172: with a special regime the service is taxable; E0532 aside (no 990101 here), any taxation otherwise.
      const taxation = specialRegime !== 0 ? 'tributavel' : g.taxation;
      if (taxation !== 'tributavel') req.values.iss.taxation = taxation as NonNullable<NfseRequest['values']['iss']['taxation']>;
      if (taxation === 'imunidade') req.values.iss.immunity_type = g.immunity;
      if (taxation === 'exportacao') req.values.iss.export_country = 'US';
      // Anexo I E0330: an export of services carries comExt (service.foreign_trade).
      if (isServiceExport(req)) {
        req.service.foreign_trade = { provision_mode: 'transfronteirico', relationship: 'sem_vinculo', currency: '220', foreign_amount: g.amount, provider_support: '01', taker_support: '01', temporary_goods: 'nao' };
      }
      // Anexo I E0318: an export by the provider (a party abroad, a service provided abroad) names its NBS item.
      const partyAbroad = req.tomador?.address?.country_code !== undefined || req.intermediario?.address?.country_code !== undefined;
      if ((partyAbroad || g.abroad) && req.service.nbs === undefined) req.service.nbs = '115021000';
      // E0585: a suspension only for a taxable service.
      if (taxation === 'tributavel' && g.suspension) req.values.iss.suspension = { type: 'decisao_judicial', process_number: '0'.repeat(20) + '1234567890' };
      // E0435, E0436, E0438: deductions only for a taxable service of a provider neither MEI nor in a special regime.
      // E0441/E0442: an ME/EPP of the SN deducts only for 06.01, 06.02, 07.02, 07.05.
      const snDeducts = !(op === 3 && simplesRegime === 1) || ['0601', '0602', '0702', '0705'].includes(g.code.slice(0, 4));
      if (g.ded && op !== 2 && specialRegime === 0 && taxation === 'tributavel' && snDeducts) {
        if (g.byRate) req.values.deduction_rate = g.ded / 4;
        else req.values.deductions = share(g.ded)!;
      }
      const withheld = req.values.iss.retained !== 'nao_retido';
      // E0595-E0621: a rate up to 5 for a taxable service of a provider neither MEI nor in a special regime; at least 1.8 (and required) for an ME/EPP of the SN with ISSQN withheld.
      // E0625/E0631: none for an ME/EPP of the SN when nothing is withheld.
      const rateAllowed = op !== 2 && specialRegime === 0 && taxation === 'tributavel' && !(op === 3 && simplesRegime === 1 && !withheld);
      const rateRequired = op === 3 && simplesRegime === 1 && withheld;
      if (rateAllowed && (g.rate !== undefined || rateRequired)) req.values.iss.rate = (g.rate ?? 200) / 100;
      // E0444 / E0447: no deduction that brings the ISSQN below 2 % of the base before it (7.02 aside).
      const rate = req.values.iss.rate;
      if (rate !== undefined && (req.values.deductions || req.values.deduction_rate) && !g.code.startsWith('0702')) {
        const before = cents - Math.round((incond ?? 0) * 100);
        const vDR = deductionOf({ vServ: cents, vDescIncond: Math.round((incond ?? 0) * 100), dedRed: req.values.deduction_rate ? { pDR: Math.round(req.values.deduction_rate * 100) } : { vDR: Math.round(req.values.deductions! * 100) } });
        if ((before - vDR) * rate < 2 * before) {
          delete req.values.deductions;
          delete req.values.deduction_rate;
        }
      }
      // E0682-E0698: a base, both rates (0 with CST 04 and 06) and the withholding type with a taxed CST;
      // E0720/E0724: CSLL withheld exactly when tpRetPisCofins is neither 0 nor 2. Small shares keep E0428 true.
      // E0675 / E0676: federal taxes only from a provider identified by CNPJ that is not a MEI.
      const pc = g.pisCofins;
      if ((pc || g.withholdings) && ctx.issuer.taxId.length === 14 && op !== 2) {
        const federal: NonNullable<NfseRequest['values']['federal']> = {};
        if (pc) {
          const zero = pc.cst === '04' || pc.cst === '06';
          federal.pis_cofins = ['00', '08', '09'].includes(pc.cst) ? { cst: pc.cst } : { cst: pc.cst, pis_rate: zero ? 0 : 0.65, cofins_rate: zero ? 0 : 3, withheld: pc.withheld, ...(pc.base ? { base: share(10)! || 0.01 } : {}) };
        }
        const csll = pc && !['00', '08', '09'].includes(pc.cst) && pc.withheld !== 0 && pc.withheld !== 2;
        const w = { ...(g.withholdings?.cp ? { cp: share(2) } : {}), ...(g.withholdings?.irrf ? { irrf: share(1) } : {}), ...(csll ? { csll: share(1) } : {}) };
        const positive = Object.fromEntries(Object.entries(w).filter(([, v]) => v !== undefined && v > 0));
        if (csll && !positive.csll) delete federal.pis_cofins;
        if (Object.keys(positive).length > 0 && (!csll || positive.csll)) federal.withholdings = positive;
        if (federal.pis_cofins || federal.withholdings) req.values.federal = federal;
      }
      // totTrib: indTotTrib (no estimate) only from a MEI (E0712, E0713), pTotTribSN only from an ME/EPP (E0710, E0713).
      const tot = g.tot === 'none' && op !== 2 ? 'amounts' : g.tot === 'sn' && op !== 3 ? 'rates' : g.tot;
      if (tot === 'sn') req.values.simples_nacional_rate = g.totShare / 4;
      if (tot === 'amounts') req.values.approximate_taxes = { federal: share(g.totShare)!, state: 0, municipal: share(g.totShare / 8)! };
      if (tot === 'rates') req.values.approximate_taxes = { federal_rate: g.totShare / 2, state_rate: 0, municipal_rate: 5 };
      if (reform) req.reform = { operation_code: '100301', cst: '000', class_code: '000001', ...(g.finalConsumer !== undefined ? { final_consumer: g.finalConsumer } : {}) };
      if (g.subst) {
        // The replaced NFS-e: this provider's, generated by Sefin (ambGer 2), its key's check digit right (documents/nfse/services looks it up).
        const taxId = ctx.issuer.taxId;
        const body = g.city + '2' + (taxId.length === 14 ? '2' : '1') + taxId.padStart(14, '0') + g.subst.n + today.slice(2, 4) + today.slice(5, 7) + '123456789';
        ctx.substitutedKey = body + nfseKeyCheckDigit(body);
        // E0060 / E0061: what a substitute keeps; here the replaced NFS-e's request is this one's.
        ctx.substituted = structuredClone({ competence_date: req.competence_date, service: req.service, ...(req.tomador ? { tomador: req.tomador } : {}), values: req.values });
        req.substitutes = { nfse_id: 'nfse_prop', reason_code: g.subst.code as never /* the schema's literal union types as never */, ...(g.subst.reason || g.subst.code === '99' ? { reason: 'Correção do valor do serviço prestado' } : {}) };
      }
      const doc: NfseDocumentContext = { serie: String(g.serie), nDPS: String(g.nDPS), emittedAt: g.emittedAt, signingKey: testSigningKey() };
      return { req, ctx, doc };
    });
}
