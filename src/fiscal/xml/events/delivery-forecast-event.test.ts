import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { parsePfx } from '../../certificate/pfx.js';
import { NFE_NAMESPACE } from '../xml-text.js';
import {
  buildDeliveryForecastEvent, buildEnvEvento, DELIVERY_FORECAST_DESC, deliveryForecastProblems, type DeliveryForecastInput,
} from './index.js';

const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
// e112150 exists only in the reform package (NT 2025.002-RTC).
const PKG = 'PL_010_V1.30';
const detEvento = (xml: string) => /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(xml)![0].replace('<detEvento', `<detEvento xmlns="${NFE_NAMESPACE}"`);

const input: DeliveryForecastInput = {
  cOrgao: '35', cOrgaoAutor: '35', tpAmb: 2, author: { CNPJ: '93623057000128' }, chNFe: '35260605730928000145550010000048661583302923',
  dhEvento: '2026-06-10T11:59:12-03:00', verAplic: 'gateway-1.0', dPrevEntrega: '2026-06-30',
};

describe('Atualização da Data de Previsão de Entrega 112150', () => {
  it('writes descEvento as the one value the e112150 XSD enumerates', () => {
    const xsd = readFileSync(join(root, 'assets/fiscal/schemas', PKG, 'e112150_v1.00.xsd'), 'utf8');
    const block = /<xs:element name="descEvento">[\s\S]*?<\/xs:element>/.exec(xsd)![0];
    expect([...block.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1])).toEqual([DELIVERY_FORECAST_DESC]);
  });

  it('validates with xmllint (envEvento and e112150) and verifies with xmlsec1', async () => {
    const ev = buildDeliveryForecastEvent(input, key);
    expect(ev.id).toBe(`ID112150${input.chNFe}01`);
    expect(ev.xml).toContain('<tpEvento>112150</tpEvento>');
    expect(ev.xml).toContain('<tpAutor>1</tpAutor>');
    const env = buildEnvEvento(1, [ev]);
    expect(await xmllint(env, PKG, 'envEvento_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, 'e112150_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(env)).toBe('');
  });

  it('accepts cOrgao 92 (the code sped-nfe uses for SVRS) and the XSD accepts it too', async () => {
    const env = buildEnvEvento(1, [buildDeliveryForecastEvent({ ...input, cOrgao: '92' }, key)]);
    expect(env).toContain('<cOrgao>92</cOrgao>');
    expect(await xmllint(env, PKG, 'envEvento_v1.00.xsd')).toBe('');
    expect(await xmllint(env.replace('<cOrgao>92<', '<cOrgao>93<'), PKG, 'envEvento_v1.00.xsd')).not.toBe('');
  });

  it('the XSD refuses another author type and a date that does not exist; xmlsec1 a changed date', async () => {
    const env = buildEnvEvento(1, [buildDeliveryForecastEvent(input, key)]);
    expect(await xmllint(detEvento(env).replace('<tpAutor>1<', '<tpAutor>2<'), PKG, 'e112150_v1.00.xsd')).not.toBe('');
    expect(await xmllint(detEvento(env).replace('2026-06-30', '2026-02-30'), PKG, 'e112150_v1.00.xsd')).not.toBe('');
    expect(await xmlsecVerify(env.replace('2026-06-30', '2026-07-01'))).not.toBe('');
  });

  it('names the fields it refuses before building', () => {
    expect(deliveryForecastProblems({ ...input, dPrevEntrega: '2026-02-30' }).map((e) => e.field)).toEqual(['dPrevEntrega']);
    expect(deliveryForecastProblems({ ...input, dPrevEntrega: '30/06/2026' }).map((e) => e.field)).toEqual(['dPrevEntrega']);
    expect(deliveryForecastProblems({ ...input, cOrgao: '93', cOrgaoAutor: '92', verAplic: '' }).map((e) => e.field)).toEqual(['cOrgao', 'cOrgaoAutor', 'verAplic']);
    expect(() => buildDeliveryForecastEvent({ ...input, dPrevEntrega: '2026-13-01' }, key)).toThrow(/dPrevEntrega/);
  });
});
