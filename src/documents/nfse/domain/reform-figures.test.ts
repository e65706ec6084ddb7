import { describe, expect, it } from 'vitest';
import { NFSE_REFORM_TABLES } from '../../../../test/support/reform-tables-nfse.js';
import { dpsFigures } from './figures.js';
import type { NfseContext } from './nfse-context.js';
import type { NfseRequest } from './nfse-request.js';
import { prepareNfse } from './prepare-nfse.js';

// The IBS/CBS figures the gateway expects Sefin to write into the NFS-e, computed by hand from the XSD's
// formulas (TCRTCValoresIBSCBS/vBC, TCRTCTotalCIBS) and LC 214/2025 arts. 343, 346 (docs/fiscal/nfse-reform.md).

const ctx: NfseContext = {
  issuer: { taxId: '11444777000161', simplesNacional: 1, specialRegime: 0, cityCode: '3304557', municipalRegistration: '12345' },
  tpAmb: 2,
  taxReform: true,
  today: '2026-03-10',
};

/** A R$ 1,000.00 service of 2026 with ISSQN 5 % (not withheld) and PIS 0.65 % / COFINS 3 % due (CST 01, not withheld). */
const request = (over: Partial<NfseRequest> = {}): NfseRequest => ({
  issuer_id: 'iss_1',
  competence_date: '2026-03-10',
  service: { national_code: '010101', description: 'Desenvolvimento de software', place_of_provision: { city_code: '3304557' }, nbs: '115021000' },
  tomador: { cpf: '529.982.247-25', name: 'Maria da Silva' },
  values: {
    service_amount: 1000,
    approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 },
    iss: { retained: 'nao_retido', rate: 5 },
    federal: { pis_cofins: { cst: '01', pis_rate: 0.65, cofins_rate: 3, withheld: 2 } },
  },
  reform: { operation_code: '100301', cst: '000', class_code: '000001' },
  ...over,
});

function figures(req: NfseRequest) {
  const p = prepareNfse(req, ctx);
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return dpsFigures(p.dps);
}

describe('the IBS/CBS figures of an NFS-e with the reform group', () => {
  it('R$ 1,000.00 in 2026: vBC 913.50, IBS UF 0.91, IBS Mun 0.00, CBS 8.22, vTotNF = vLiq 1,000.00', () => {
    // XSD vBC (until 2026) = vServ - descIncond - vCalcReeRepRes - vISSQN - vPIS - vCOFINS = 1000 - 0 - 0 - 50 - 6.50 - 30 = 913.50.
    // vIBSUF = 913.50 x 0.10 % = 0.9135 -> 0.91 (art. 343); vIBSMun = 0 (art. 343: no municipal part in 2026);
    // vCBS = 913.50 x 0.90 % = 8.2215 -> 8.22 (art. 346); vTotNF = vLiq in 2026 (nothing withheld: 1,000.00).
    expect(figures(request())).toMatchObject({ vISSQN: 5_000, vLiq: 100_000, vBCIBSCBS: 91_350, vIBSUF: 91, vIBSMun: 0, vIBSTot: 91, vCBS: 822, vTotNF: 100_000 });
  });

  it('an unconditional discount leaves the base; ISSQN withheld counts as ISSQN and lowers vLiq, hence vTotNF', () => {
    // vServ 1000, discount 100 -> ISSQN base 900, ISSQN 5 % = 45.00 (withheld); PIS/COFINS base 900: 5.85 + 27.00.
    // vBC = 1000 - 100 - 45 - 5.85 - 27 = 822.15; IBS UF 0.82215 -> 0.82; CBS 7.39935 -> 7.40; vLiq = 1000 - 100 - 45 = 855.00.
    const req = request({ tomador: { cpf: '52998224725', name: 'Maria', address: { street: 'Rua A', number: '1', district: 'Centro', city_code: '3304557', cep: '20010000' } } });
    req.values = { ...req.values, unconditional_discount: 100, iss: { retained: 'tomador', rate: 5 } };
    expect(figures(req)).toMatchObject({ vBCIBSCBS: 82_215, vIBSUF: 82, vCBS: 740, vLiq: 85_500, vTotNF: 85_500 });
  });

  it('none without the group, with a CST whose reduction is not wired, or with the ISSQN rate left to Sefin', () => {
    expect(figures(request({ reform: undefined }))).not.toHaveProperty('vBCIBSCBS');
    expect(figures(request({ reform: { operation_code: '100301', cst: '200', class_code: '200028' } }))).not.toHaveProperty('vBCIBSCBS');
    const noRate = request();
    noRate.values = { ...noRate.values, iss: { retained: 'nao_retido' } };
    expect(figures(noRate)).not.toHaveProperty('vBCIBSCBS');
  });
});

describe('with the reform tables (rows of the official cClassTrib table)', () => {
  const withTables: NfseContext = { ...ctx, reformTables: NFSE_REFORM_TABLES };

  it('a reduced class (200052, 30 %): R$ 1,000.00 -> vBC 913.50, IBS UF 0.64, CBS 5.76', () => {
    // 913.50 (as above) x 0.07 % (0.10 x 0.70) = 0.63945 -> 0.64; x 0.63 % (0.90 x 0.70) = 5.75505 -> 5.76.
    const p = prepareNfse(request({ reform: { operation_code: '100301', cst: '200', class_code: '200052' } }), withTables);
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    expect(dpsFigures(p.dps, NFSE_REFORM_TABLES)).toMatchObject({ vBCIBSCBS: 91_350, vIBSUF: 64, vIBSMun: 0, vCBS: 576, vTotNF: 100_000 });
  });

  it('422 naming reform.class_code for a class that is not of the NFS-e (Anexo I E0958)', () => {
    const p = prepareNfse(request({ reform: { operation_code: '100301', cst: '200', class_code: '200003' } }), withTables);
    expect(p).toMatchObject({ ok: false, errors: [{ field: 'reform.class_code', rule: 'E0958' }] });
  });

  it('422 naming reform.class_code for a deferral class (515001: CST 515 asks for gDif, which the request does not offer; Anexo I E0972)', () => {
    const p = prepareNfse(request({ reform: { operation_code: '100301', cst: '515', class_code: '515001' } }), withTables);
    expect(p).toMatchObject({ ok: false, errors: [{ field: 'reform.class_code', rule: 'E0972' }] });
  });
});
