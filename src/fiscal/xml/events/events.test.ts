import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePfx } from '../../certificate/pfx.js';
import { signElement } from '../signature/sign.js';
import { verifyXmlSignature } from '../signature/verify.js';
import {
  buildCancellationEvent, buildEnvEvento, buildInutilization, buildSubstitutionCancellationEvent, EventInputError,
  type CancellationInput, type InutilizationInput,
} from './index.js';

const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const sample = (f: string) => readFileSync(join(root, 'test/fixtures/samples/events', f), 'utf8');
// Independent referees read the document from stdin; exit status 0 = valid.
const referee = (cmd: string, args: string[], xml: string) => spawnSync(cmd, [...args, '-'], { input: xml }).status === 0;
const xmllint = (xml: string, pkg: string, xsd: string) => referee('xmllint', ['--noout', '--schema', join(root, 'assets/fiscal/schemas', pkg, xsd)], xml);
const xmlsec = (xml: string) => referee('xmlsec1', ['--verify', '--insecure', '--id-attr:Id', 'infEvento', '--id-attr:Id', 'infInut'], xml);

/** The samples are SOAP bodies: nfeDadosMsg around the request, some with a final newline. */
function asSample(original: string, service: string, request: string): string {
  const trailing = /\s*$/.exec(original)![0];
  expect(['', '\n']).toContain(trailing);
  return `<nfeDadosMsg xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/${service}">${request}</nfeDadosMsg>${trailing}`;
}

const cancel: CancellationInput = {
  cOrgao: '35', tpAmb: 2, author: { CNPJ: '93623057000128' }, chNFe: '35150300822602000124550010009923461099234656',
  dhEvento: '2024-02-01T14:07:05-03:00', nSeqEvento: 1, nProt: '123456789101234', xJust: 'Preenchimento incorreto dos dados',
};
const inut: InutilizationInput = {
  tpAmb: 1, cUF: '35', ano: '22', CNPJ: '93623057000128', mod: 55, serie: 1, nNFIni: 1, nNFFin: 10, xJust: 'Testando Inutilização',
};

describe('cancellation 110111', () => {
  it('reproduces the sped-nfe request byte for byte', () => {
    const original = sample('nfeDadosMsg_envEvento_110111_cancelamento_testcert.xml');
    const env = buildEnvEvento(123, [buildCancellationEvent(cancel, key)]);
    expect(asSample(original, 'NFeRecepcaoEvento4', env)).toBe(original);
  });

  it('validates with xmllint (both packages) and verifies with xmlsec1 and our verifier', () => {
    const env = buildEnvEvento('42', [buildCancellationEvent({ ...cancel, tpAmb: 1, nSeqEvento: 2 }, key)]);
    for (const pkg of ['PL_009_V4', 'PL_010_V1.30']) expect(xmllint(env, pkg, 'envEventoCancNFe_v1.00.xsd')).toBe(true);
    expect(xmlsec(env)).toBe(true);
    // The referees can say no: a tpAmb outside the enumeration, a changed signed byte.
    expect(xmllint(env.replace('<tpAmb>1<', '<tpAmb>3<'), 'PL_009_V4', 'envEventoCancNFe_v1.00.xsd')).toBe(false);
    expect(xmlsec(env.replace('<tpAmb>1<', '<tpAmb>2<'))).toBe(false);
    expect(verifyXmlSignature(env)).toMatchObject({ valid: true, signedElementId: `ID110111${cancel.chNFe}02` });
  });
});

describe('cancellation by substitution 110112', () => {
  const original = sample('nfeDadosMsg_envEvento_110112_cancelamento_substituicao_testcert.xml');
  const subst = {
    ...cancel, chNFe: '35240305730928000145650010000001421071400478', cOrgaoAutor: '35', verAplic: '1',
    chNFeRef: '35240305730928000145650010000001439071400470',
  };

  it('writes the same bytes as the sample once its chNFeRef names another NFC-e', () => {
    // The fixture references itself (chNFeRef = chNFe), which the event forbids; substitute a different key.
    const unsigned = original.replace(/<Signature .*<\/Signature>/, '').replace(/<chNFeRef>\d+</, `<chNFeRef>${subst.chNFeRef}<`);
    const expected = signElement(unsigned, 'infEvento', key).xml;
    const env = buildEnvEvento(123, [buildSubstitutionCancellationEvent(subst, key)]);
    expect(asSample(original, 'NFeRecepcaoEvento4', env)).toBe(expected);
    expect(() => buildSubstitutionCancellationEvent({ ...subst, chNFeRef: subst.chNFe }, key)).toThrow(EventInputError);
  });

  it('validates with xmllint (both packages) and verifies with xmlsec1', () => {
    const env = buildEnvEvento(1, [buildSubstitutionCancellationEvent(subst, key)]);
    for (const pkg of ['PL_009_V4', 'PL_010_V1.30']) expect(xmllint(env, pkg, 'envEventoCancSubst_v1.00.xsd')).toBe(true);
    expect(xmlsec(env)).toBe(true);
  });
});

describe('inutilização', () => {
  it('reproduces the sped-nfe request byte for byte', () => {
    const original = sample('nfeDadosMsg_inutNFe_testcert.xml');
    const built = buildInutilization(inut, key);
    expect(built.id).toBe('ID35229362305700012855001000000001000000010');
    expect(asSample(original, 'NFeInutilizacao4', built.xml)).toBe(original);
  });

  it('validates with xmllint (both packages) and verifies with xmlsec1', () => {
    const built = buildInutilization({ ...inut, mod: 65, serie: 7, nNFIni: 15, nNFFin: 15, xJust: '  numero pulado   por falha\nno PDV ' }, key);
    expect(built.xml).toContain('<xJust>numero pulado por falha no PDV</xJust>');
    for (const pkg of ['PL_009_V4', 'PL_010_V1.30']) expect(xmllint(built.xml, pkg, 'inutNFe_v4.00.xsd')).toBe(true);
    expect(xmlsec(built.xml)).toBe(true);
  });
});

describe('input problems are reported per field', () => {
  const fields = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return (err as EventInputError).errors.map((e) => e.field);
    }
    return [];
  };
  it('cancellation', () => {
    expect(fields(() => buildCancellationEvent({ ...cancel, xJust: 'curta', nProt: '12', nSeqEvento: 21, dhEvento: '2024-02-01T14:07:05Z' }, key)))
      .toEqual(['dhEvento', 'nSeqEvento', 'nProt', 'xJust']);
  });
  it('inutilização', () => {
    expect(fields(() => buildInutilization({ ...inut, nNFIni: 10, nNFFin: 9, ano: '2022' }, key))).toEqual(['ano', 'nNFFin']);
  });
  it('envEvento limits', () => {
    const ev = buildCancellationEvent(cancel, key);
    expect(() => buildEnvEvento('1234567890123456', [ev])).toThrow(/idLote/);
    expect(() => buildEnvEvento(1, [])).toThrow(/1 to 20/);
  });
});
