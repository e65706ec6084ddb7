import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../kernel/paths.js';
import { validateXml } from '../xsd/validate-xml.js';
import { buildDpsId, isValidNfseKey, nfseKeyCheckDigit, parseDpsId, parseNfseKey } from './dps-id.js';

const dir = join(PROJECT_ROOT, 'test/fixtures/samples/nfse');
const SAMPLE_NFSE = join(dir, 'nfse_v1.01_RJ_producaorestrita_autorizada_assinada.xml');

describe('DPS Id (docs/fiscal/nfse-national.md#dps)', () => {
  it('builds the Id of the real restricted-production DPS', () => {
    const id = buildDpsId({ cLocEmi: '3304557', inscriptionType: 2, taxId: '11905971000105', serie: '333', nDPS: '6' });
    expect(id).toBe('DPS330455721190597100010500333000000000000006');
    expect(id).toHaveLength(45);
    expect(parseDpsId(id)).toEqual({ cLocEmi: '3304557', inscriptionType: 2, taxId: '11905971000105', serie: '333', nDPS: '6' });
  });
  it('pads a CPF with 000 and round-trips CPF and alphanumeric CNPJ', () => {
    const cpf = { cLocEmi: '3550308', inscriptionType: 1 as const, taxId: '12345678909', serie: '1', nDPS: '123456789012345' };
    expect(buildDpsId(cpf)).toBe('DPS355030810001234567890900001123456789012345');
    expect(parseDpsId(buildDpsId(cpf))).toEqual(cpf);
    const alpha = { cLocEmi: '3550308', inscriptionType: 2 as const, taxId: '12ABC34501DE35', serie: '99999', nDPS: '7' };
    expect(parseDpsId(buildDpsId(alpha))).toEqual(alpha);
  });
  it('refuses values the XSD refuses', () => {
    const base = { cLocEmi: '3550308', inscriptionType: 2 as const, taxId: '11222333000181', serie: '1', nDPS: '1' };
    expect(() => buildDpsId({ ...base, nDPS: '01' })).toThrow(/nDPS/);
    expect(() => buildDpsId({ ...base, serie: '123456' })).toThrow(/serie/);
    expect(() => buildDpsId({ ...base, inscriptionType: 1 })).toThrow(/CPF/);
    expect(parseDpsId('DPS3550308100012345678909000010000000000000000')).toBeNull();
    expect(parseDpsId('DPS355030811234567890123400001000000000000001')).toBeNull(); // CPF type without 000
    expect(parseDpsId('DPS355030812ABC34501DE3500001000000000000001')).toBeNull(); // letters after type 1
  });
});

describe('NFS-e access key (docs/fiscal/nfse-national.md#access-key)', () => {
  const sampleKey = /Id="NFS([0-9]{50})"/.exec(readFileSync(SAMPLE_NFSE, 'utf8'))![1]!;
  it("recomputes the real sample's check digit", () => {
    expect(sampleKey).toBe('33045572211905971000105000000000014625124504258429');
    expect(nfseKeyCheckDigit(sampleKey.slice(0, 49))).toBe(9);
    expect(parseNfseKey(sampleKey)).toMatchObject({ cMun: '3304557', ambGer: '2', inscriptionType: 2, taxId: '11905971000105', aamm: '2512' });
    // the production key docs/fiscal/nfse-national.md#access-key quotes
    expect(isValidNfseKey('21113002200574753000100000000000146726037032711025')).toBe(true);
  });
  it('rejects every wrong check digit and malformed keys', () => {
    for (let d = 0; d <= 9; d++) if (String(d) !== sampleKey[49]) expect(isValidNfseKey(sampleKey.slice(0, 49) + d)).toBe(false);
    expect(isValidNfseKey(sampleKey.slice(1))).toBe(false);
    expect(() => nfseKeyCheckDigit('1')).toThrow();
  });
});

describe('NFSe_v1.01 schema package', () => {
  it('validates the samples with the house validator', () => {
    for (const f of ['dps_v1.01_RJ_producaorestrita_assinada_extraida_da_nfse.xml', 'dps_v1.01_handmade_minimal_unsigned.xml', 'dps_v1.01_IBSCBS_retencao_anonimizada.xml']) {
      expect(validateXml(readFileSync(join(dir, f), 'utf8'), { pkg: 'NFSe_v1.01', file: 'DPS_v1.01.xsd' })).toEqual({ valid: true, errors: [] });
    }
    expect(validateXml(readFileSync(SAMPLE_NFSE, 'utf8'), { pkg: 'NFSe_v1.01', file: 'NFSe_v1.01.xsd' }).valid).toBe(true);
    const bad = readFileSync(join(dir, 'dps_v1.01_handmade_minimal_unsigned.xml'), 'utf8').replace('<serie>1</serie>', '<serie>A</serie>');
    expect(validateXml(bad, { pkg: 'NFSe_v1.01', file: 'DPS_v1.01.xsd' }).valid).toBe(false);
  });
});
