import { describe, expect, it } from 'vitest';
import type { IssuerForEmission, IssuerNfseSettings, RegimeTributario } from '../../../kernel/issuer.js';
import { prepareNfse } from '../domain/prepare-nfse.js';
import type { NfseRequest } from '../domain/nfse-request.js';
import { nfseIssuerOf } from './nfse-issuer.js';

const settings = (over: Partial<IssuerNfseSettings> = {}): IssuerNfseSettings => ({
  municipal_registration: null,
  simples_regime: null,
  special_regime: 0,
  dps_series: 1,
  signature_profile: 'rsa-sha1-c14n',
  ...over,
});

function row(regime: RegimeTributario, nfse: IssuerNfseSettings | null, over: Partial<IssuerForEmission> = {}): IssuerForEmission {
  const at = new Date('2026-03-01T00:00:00Z');
  return {
    id: 'iss_test', account_id: 'acc_test', cnpj: '11444777000161', razao_social: 'Servicos Exemplo Ltda', nome_fantasia: null, ie: '110042490114', uf: 'RJ',
    ambiente: 'homologacao', regime_tributario: regime, nfse, contingency: null,
    endereco: { logradouro: 'Rua Um', numero: '1', bairro: 'Centro', codigo_municipio: '3304557', cep: '20010000', telefone: '2133334444' },
    danfe: { primary_color: null, footer_text: null, logo_type: null, logo: null }, archived_at: null, created_at: at, updated_at: at,
    certificate: null, csc: null, account_tax_regime: 'legacy', basis: '1|0|0|legacy',
    ...over,
  };
}

const problemsOf = (r: IssuerForEmission) => {
  const out = nfseIssuerOf(r);
  if (out.ok) throw new Error(`expected problems, got ${JSON.stringify(out)}`);
  return out.problems;
};

const request: NfseRequest = {
  issuer_id: 'iss_test',
  competence_date: '2026-03-10',
  service: { national_code: '010101', description: 'Desenvolvimento de software', place_of_provision: { city_code: '3304557' } },
  tomador: { cpf: '529.982.247-25', name: 'Maria da Silva' },
  values: { service_amount: 1000, approximate_taxes: { federal_rate: 13.45, state_rate: 0, municipal_rate: 2 }, iss: { retained: 'nao_retido' } },
};

describe('nfseIssuerOf: the stored issuer as the DPS provider (prest)', () => {
  it('maps the CNPJ, the municipality of the address, its phone, the IM, the series and the profile', () => {
    const out = nfseIssuerOf(row('normal', settings({ municipal_registration: '998877', special_regime: 6, dps_series: 12, signature_profile: 'rsa-sha256-exc-c14n' })));
    expect(out).toEqual({
      ok: true,
      issuer: { taxId: '11444777000161', simplesNacional: 1, specialRegime: 6, cityCode: '3304557', municipalRegistration: '998877', phone: '2133334444' },
      series: 12,
      profile: 'rsa-sha256-exc-c14n',
    });
  });

  it('takes opSimpNac from regime_tributario (DPS XSD TCRegTrib: 1 not opting, 2 MEI, 3 ME/EPP) and regApTribSN only for an ME/EPP', () => {
    const op = (regime: RegimeTributario, s: IssuerNfseSettings) => {
      const out = nfseIssuerOf(row(regime, s));
      return out.ok ? [out.issuer.simplesNacional, out.issuer.simplesRegime] : out.problems;
    };
    expect(op('normal', settings())).toEqual([1, undefined]);
    expect(op('mei', settings())).toEqual([2, undefined]);
    expect(op('simples', settings({ simples_regime: 2 }))).toEqual([3, 2]);
    expect(op('simples_excesso', settings({ simples_regime: 3 }))).toEqual([3, 3]);
    // Left from an earlier Simples Nacional regime: never written for opSimpNac 1 or 2 (Anexo I E0162).
    expect(op('normal', settings({ simples_regime: 2 }))).toEqual([1, undefined]);
  });

  it('gives the domain an issuer it accepts, for every regime', () => {
    for (const [regime, s] of [['normal', settings()], ['mei', settings()], ['simples', settings({ simples_regime: 1 })], ['simples_excesso', settings({ simples_regime: 2, special_regime: 1 })]] as const) {
      const out = nfseIssuerOf(row(regime, s));
      if (!out.ok) throw new Error(JSON.stringify(out.problems));
      const prepared = prepareNfse(request, { issuer: out.issuer, tpAmb: 2, taxReform: false, today: '2026-03-10' });
      expect(prepared.ok ? prepared.dps.prest.regTrib : prepared.errors, regime).toMatchObject({ opSimpNac: out.issuer.simplesNacional });
    }
  });

  it('says how to configure an issuer without NFS-e settings, and names the address it lacks', () => {
    expect(problemsOf(row('normal', null))).toEqual([
      { field: 'nfse', message: expect.stringContaining('PATCH /v1/issuers/iss_test with nfse: {...}') },
    ]);
    expect(problemsOf(row('normal', settings(), { endereco: null }))).toEqual([
      { field: 'endereco.codigo_municipio', message: expect.stringContaining('PATCH /v1/issuers/iss_test with endereco') },
    ]);
  });

  it('refuses what Sefin would reject, on the nfse field to change', () => {
    expect(problemsOf(row('simples', settings()))).toEqual([
      { field: 'nfse.simples_regime', message: expect.stringMatching(/required for a Simples Nacional ME\/EPP.*E0166.*PATCH \/v1\/issuers\/iss_test with nfse/) },
    ]);
    expect(problemsOf(row('mei', settings({ special_regime: 5 })))).toEqual([{ field: 'nfse.special_regime', message: expect.stringMatching(/E0174/) }]);
    expect(problemsOf(row('simples', settings({ simples_regime: 1, special_regime: 3 })))).toEqual([{ field: 'nfse.special_regime', message: expect.stringMatching(/E0175/) }]);
    // docs/fiscal/nfse-national.md#alphanumeric-cnpj: the shipped DPS 1.01 schema takes a numeric CNPJ only.
    expect(problemsOf(row('normal', settings(), { cnpj: '12ABC34501DE35' }))).toEqual([{ field: 'cnpj', message: expect.stringMatching(/TSCNPJ/) }]);
    expect(problemsOf(row('normal', settings({ dps_series: 50_000 })))).toEqual([{ field: 'nfse.dps_series', message: expect.stringMatching(/E0010/) }]);
  });
});
