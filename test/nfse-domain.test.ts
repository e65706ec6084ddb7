import { describe, expect, it } from 'vitest';
import { buildPreparedDps } from '../src/documents/nfse/domain/build-nfse.js';
import type { NfseContext } from '../src/documents/nfse/domain/nfse-context.js';
import type { NfseRequest } from '../src/documents/nfse/domain/nfse-request.js';
import { prepareNfse } from '../src/documents/nfse/domain/prepare-nfse.js';
import { parseDpsId } from '../src/fiscal/xml/nfse/dps-id.js';
import { verifyNfseDocument } from '../src/fiscal/xml/nfse/sign-dps.js';
import { testSigningKey } from './support/nfce-fixtures.js';
import { NFSE_ID_ELEMENTS, xmllint, xmlsecVerify } from './support/xml-tools.js';

// Requests of several shapes -> prepareNfse -> buildPreparedDps -> checked by tools we did not write:
// xmllint with the national XSD (NFSe_v1.01/DPS_v1.01.xsd) and xmlsec1 --verify; plus our verifier.

const ADDRESS = { street: 'Rua do Ouvidor', number: '50', complement: 'Sala 2', district: 'Centro', city_code: '3304557', cep: '20040030' };
// Anexo I E0330: an export of services carries comExt (docs/fiscal/exports-and-delivery.md).
const FOREIGN_TRADE = { provision_mode: 'transfronteirico', relationship: 'sem_vinculo', currency: '220', foreign_amount: 150, provider_support: '01', taker_support: '01', temporary_goods: 'nao' } as const;
const ABROAD = { street: 'Main Street', number: '1', district: 'Downtown', country_code: 'US', postal_code: '10001', city: 'New York', state_region: 'NY' };

const ctx = (taxReform = false, issuer: Partial<NfseContext['issuer']> = {}): NfseContext => ({
  issuer: { taxId: '11444777000161', municipalRegistration: '12345', simplesNacional: 1, specialRegime: 0, cityCode: '3304557', email: 'fiscal@example.com', phone: '2133334444', ...issuer },
  tpAmb: 2,
  taxReform,
  today: '2026-03-10',
});

const base: NfseRequest = {
  issuer_id: 'iss_1',
  competence_date: '2026-03-09',
  service: { national_code: '010101', municipal_code: '001', description: 'Desenvolvimento & manutenção de sistemas <web>', place_of_provision: { city_code: '3304557' } },
  values: { service_amount: 1500, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido' } },
};

const SHAPES: Array<[string, NfseRequest, NfseContext]> = [
  ['no taker', base, ctx()],
  ['CPF taker', { ...base, tomador: { cpf: '529.982.247-25', name: 'Maria da Silva', email: 'maria@example.com', phone: '21999998888' } }, ctx()],
  [
    'CNPJ taker, ISS withheld by the taker, federal withholdings and PIS/COFINS',
    {
      ...base,
      // 06.01: an ME/EPP of the SN deducts only for 06.01, 06.02, 07.02, 07.05 (Anexo I E0441/E0442), and a
      // construction code (07.02, 07.05) needs the obra group the gateway does not offer yet (E0370).
      service: { ...base.service, national_code: '060101' },
      tomador: { cnpj: '11.222.333/0001-81', name: 'Cliente & Filhos Ltda', municipal_registration: '998877', address: ADDRESS },
      values: {
        service_amount: 10000, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, unconditional_discount: 100, conditional_discount: 50, deductions: 900,
        iss: { retained: 'tomador', rate: 2.5 },
        federal: { pis_cofins: { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 1 }, withholdings: { csll: 100, irrf: 150, cp: 1100 } },
      },
    },
    ctx(false, { simplesNacional: 3, simplesRegime: 1 }),
  ],
  ['foreign taker with NIF, service exported', { ...base, tomador: { nif: 'US-123456789', name: 'ACME Inc.', address: ABROAD }, service: { ...base.service, nbs: '115022000', place_of_provision: { country_code: 'US' }, foreign_trade: FOREIGN_TRADE }, values: { service_amount: 800, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido', taxation: 'exportacao', export_country: 'US' } } }, ctx()],
  ['foreign taker without NIF', { ...base, service: { ...base.service, nbs: '115022000', foreign_trade: { ...FOREIGN_TRADE, temporary_goods: 'declaracao_exportacao', export_registration: '240123456001', share_with_mdic: true } }, tomador: { no_nif_reason: 'nao_exigido', name: 'Jane Doe', address: ABROAD } }, ctx()],
  [
    // Outside the Simples Nacional: a MEI has no ISSQN withheld (Anexo I E0583, below).
    'intermediary withholding the ISS, provider without rate',
    { ...base, tomador: { cpf: '52998224725', name: 'Maria' }, intermediario: { cnpj: '11222333000181', name: 'Plataforma SA', address: ADDRESS }, values: { service_amount: 300, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'intermediario' } } },
    ctx(false, { municipalRegistration: undefined }),
  ],
  ['reform on (IBSCBS)', { ...base, service: { ...base.service, nbs: '115022000' }, tomador: { cpf: '52998224725', name: 'Maria' }, reform: { operation_code: '100301', cst: '000', class_code: '000001', final_consumer: true } }, ctx(true)],
  [
    'deduction as a rate (pDR) with PIS/COFINS on the reduced base',
    { ...base, tomador: { cpf: '52998224725', name: 'Maria' }, values: { service_amount: 2000, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, unconditional_discount: 200, deduction_rate: 12.5, iss: { retained: 'nao_retido' }, federal: { pis_cofins: { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 2 } } } },
    ctx(),
  ],
  ['ISS with suspended enforceability', { ...base, values: { service_amount: 500, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido', suspension: { type: 'processo_administrativo', process_number: '000000000000000000001234567890' } } } }, ctx()],
  ['reform regime without the group', { ...base, service: { ...base.service, nbs: '115022000' } }, ctx(true)],
];

describe('NFS-e domain: prepared and built DPS pass the national XSD and xmlsec1', () => {
  const key = testSigningKey();
  for (const [name, request, context] of SHAPES) {
    for (const profile of ['rsa-sha1-c14n', 'rsa-sha256-exc-c14n'] as const) {
      it(`${name} (${profile})`, async () => {
        const prepared = prepareNfse(request, context);
        if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
        const built = buildPreparedDps(prepared.dps, { serie: '1', nDPS: '42', emittedAt: new Date('2026-03-10T13:00:00Z'), signingKey: key, profile });
        expect(built.dhEmi).toBe('2026-03-10T10:00:00-03:00');
        expect(parseDpsId(built.dpsId)).toMatchObject({ cLocEmi: '3304557', inscriptionType: 2, taxId: '11444777000161', serie: '1', nDPS: '42' });
        expect(await xmllint(built.xml, 'NFSe_v1.01', 'DPS_v1.01.xsd')).toBe('');
        expect(await xmlsecVerify(built.xml, NFSE_ID_ELEMENTS)).toBe('');
        expect(verifyNfseDocument(built.xml).valid).toBe(true);
        expect(built.xml.includes('<IBSCBS>')).toBe(request.reform !== undefined);
        expect(built.xml.includes('<exigSusp><tpSusp>2</tpSusp>')).toBe(request.values.iss.suspension !== undefined);
      });
    }
  }

  it('computes the figures (vBC, ISS, withheld, vLiq) from the model, never from the request', () => {
    const [, request, context] = SHAPES[2]!;
    const prepared = prepareNfse(request, context);
    if (!prepared.ok) throw new Error('invalid');
    const built = buildPreparedDps(prepared.dps, { serie: '1', nDPS: '1', emittedAt: new Date('2026-03-10T13:00:00Z'), signingKey: key });
    // vBC = 10000 - 100 - 900 = 9000; ISS 2.5% = 225; PIS 0.65% and COFINS 3% of 9000 = 58.50 + 270.00, withheld
    // (tpRetPisCofins 1); vLiq = 10000 - 50 - 100 - 225 - 328.50 - (100 + 150 + 1100) = 7946.50.
    expect(built.figures).toEqual({ vServ: 1_000_000, vDR: 90_000, vBC: 900_000, vISSQN: 22_500, vRetISSQN: 22_500, vRetPisCofins: 32_850, vRetFed: 135_000, vLiq: 794_650 });
  });

  it('a deduction rate becomes pDR; vDR, the ISSQN base and the PIS/COFINS base are computed from it', () => {
    const [, request, context] = SHAPES.find(([name]) => name.startsWith('deduction as a rate'))!;
    const prepared = prepareNfse(request, context);
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
    // (2000 - 200) x 12.5% = 225; base 2000 - 200 - 225 = 1575; PIS 0.65% = 10.24 (10.2375 rounded), COFINS 3% = 47.25.
    expect(prepared.dps.valores.dedRed).toEqual({ pDR: 1250 });
    expect(prepared.dps.valores.tribFed?.piscofins).toMatchObject({ vBCPisCofins: 157_500, vPis: 1024, vCofins: 4725 });
    const built = buildPreparedDps(prepared.dps, { serie: '1', nDPS: '1', emittedAt: new Date('2026-03-10T13:00:00Z'), signingKey: key });
    expect(built.figures).toMatchObject({ vDR: 22_500, vBC: 157_500, vLiq: 180_000 });
  });

  it('leaves vRetISSQN and vLiq out when the ISSQN is withheld at a rate left to Sefin', () => {
    const [, request, context] = SHAPES.find(([name]) => name.startsWith('intermediary withholding'))!;
    const prepared = prepareNfse(request, context);
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.errors));
    const built = buildPreparedDps(prepared.dps, { serie: '1', nDPS: '1', emittedAt: new Date('2026-03-10T13:00:00Z'), signingKey: key });
    expect(built.figures).toEqual({ vServ: 30_000, vDR: 0, vBC: 30_000, vRetPisCofins: 0, vRetFed: 0 });
  });

  it('refuses ISSQN withheld from a MEI provider, naming the rule (Anexo I E0583)', () => {
    const [, request] = SHAPES.find(([name]) => name.startsWith('intermediary withholding'))!;
    const prepared = prepareNfse(request, ctx(false, { simplesNacional: 2, municipalRegistration: undefined }));
    expect(prepared.ok).toBe(false);
    expect(!prepared.ok && prepared.errors).toContainEqual(expect.objectContaining({ field: 'values.iss.retained', rule: 'E0583' }));
  });

  it('refuses a series outside the own-software range 1-49999 (E0010)', () => {
    const prepared = prepareNfse(base, ctx());
    if (!prepared.ok) throw new Error('invalid');
    const at = { nDPS: '1', emittedAt: new Date('2026-03-10T13:00:00Z'), signingKey: key };
    expect(() => buildPreparedDps(prepared.dps, { ...at, serie: '50000' })).toThrow(/E0010/);
    expect(() => buildPreparedDps(prepared.dps, { ...at, serie: '0' })).toThrow(/E0010/);
    expect(buildPreparedDps(prepared.dps, { ...at, serie: '49999' }).dpsId).toMatch(/^DPS3304557211444777000161499990{14}1$/);
  });

  it('refuses to build a DPS whose competence falls after the emission (E0015)', () => {
    const prepared = prepareNfse({ ...base, competence_date: '2026-03-10' }, ctx());
    if (!prepared.ok) throw new Error('invalid');
    expect(() => buildPreparedDps(prepared.dps, { serie: '1', nDPS: '1', emittedAt: new Date('2026-03-10T01:00:00Z'), signingKey: key })).toThrow(/E0015/);
  });
});
