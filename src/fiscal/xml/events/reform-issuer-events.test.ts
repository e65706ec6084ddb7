import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { parsePfx } from '../../certificate/pfx.js';
import { NFE_NAMESPACE } from '../xml-text.js';
import {
  buildEnvEvento, buildReformIssuerEvent, REFORM_ISSUER_EVENT_DESC, reformIssuerEventProblems, type ReformEventItem, type ReformIssuerEventInput,
} from './index.js';

const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const PKG = 'PL_010_V1.30';
const detEvento = (xml: string) => /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(xml)![0].replace('<detEvento', `<detEvento xmlns="${NFE_NAMESPACE}"`);
const head = {
  cOrgao: '35', cOrgaoAutor: '35', tpAmb: 2 as const, author: { CNPJ: '93623057000128' }, chNFe: '35260605730928000145550010000048661583302923',
  dhEvento: '2026-06-10T11:59:12-03:00', verAplic: 'gateway-1.0',
};
const item = (nItem: number, extra: Partial<ReformEventItem> = {}): ReformEventItem => ({ nItem, vIBS: 1.5, vCBS: 8.8, quantity: 2.125, unit: 'UN', ...extra });
const xsdOf = (tp: string) => `e${tp}_v1.00.xsd`;

const cases: Array<[string, ReformIssuerEventInput]> = [
  ['112110', { ...head, tpEvento: '112110' }],
  ['112120', { ...head, tpEvento: '112120', items: [item(1), item(3, { vIBS: 0, unit: 'KG' })] }],
  ['112130', { ...head, tpEvento: '112130', items: [item(2, { creditReversal: { vIBS: 0.1, vCBS: 0.9 } })] }],
  ['112140', { ...head, tpEvento: '112140', items: [item(1, { vCBS: 1234567890123.45 })] }],
];

describe('NT 2025.002-RTC issuer events 112110, 112120, 112130, 112140', () => {
  it('writes each descEvento as the one value its XSD enumerates', () => {
    for (const [tp] of cases) {
      const xsd = readFileSync(join(root, 'assets/fiscal/schemas', PKG, xsdOf(tp)), 'utf8');
      const block = /<xs:element name="descEvento">[\s\S]*?<\/xs:element>/.exec(xsd)![0];
      expect([...block.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1])).toEqual([REFORM_ISSUER_EVENT_DESC[tp]]);
    }
  });

  it('the 112120 XSD copied under its proper name is the shipped file byte for byte', () => {
    const dir = join(root, 'assets/fiscal/schemas', PKG);
    expect(readFileSync(join(dir, 'e112120_v1.00.xsd'))).toEqual(readFileSync(join(dir, 'e112120_v1.00 .xsd')));
  });

  it.each(cases)('%s validates with xmllint (envEvento and its own XSD) and verifies with xmlsec1', async (tp, input) => {
    const ev = buildReformIssuerEvent(input, key);
    expect(ev.id).toBe(`ID${tp}${input.chNFe}01`);
    const env = buildEnvEvento(1, [ev]);
    expect(await xmllint(env, PKG, 'envEvento_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, xsdOf(tp))).toBe('');
    expect(await xmlsecVerify(env)).toBe('');
  });

  it('writes amounts with 2 decimals, quantities with 4, nItem as the attribute, the 112130 credit inside gControleEstoque', () => {
    const xml = buildReformIssuerEvent(cases[2]![1], key).xml;
    expect(xml).toContain('<gPerecimento nItem="2"><vIBS>1.50</vIBS><vCBS>8.80</vCBS><gControleEstoque><qPerecimento>2.1250</qPerecimento><uPerecimento>UN</uPerecimento><vIBS>0.10</vIBS><vCBS>0.90</vCBS></gControleEstoque></gPerecimento>');
    expect(buildReformIssuerEvent(cases[0]![1], key).xml).toContain('<indQuitacao>1</indQuitacao>');
  });

  it('the XSDs refuse a repeated nItem, a third decimal, tpAutor 2, indQuitacao 0', async () => {
    const env = (i: number) => detEvento(buildEnvEvento(1, [buildReformIssuerEvent(cases[i]![1], key)]));
    expect(await xmllint(env(1).replace('nItem="3"', 'nItem="1"'), PKG, 'e112120_v1.00.xsd')).not.toBe('');
    expect(await xmllint(env(3).replace('<vIBS>1.50<', '<vIBS>1.505<'), PKG, 'e112140_v1.00.xsd')).not.toBe('');
    expect(await xmllint(env(2).replace('<tpAutor>1<', '<tpAutor>2<'), PKG, 'e112130_v1.00.xsd')).not.toBe('');
    expect(await xmllint(env(0).replace('<indQuitacao>1<', '<indQuitacao>0<'), PKG, 'e112110_v1.00.xsd')).not.toBe('');
  });

  it('names the fields it refuses before building', () => {
    const bad: ReformIssuerEventInput = {
      ...head, tpEvento: '112130',
      items: [item(1, { vIBS: 1.005, creditReversal: { vIBS: 0, vCBS: -1 } }), item(1, { quantity: 0.00001, unit: ' UN', creditReversal: { vIBS: 0, vCBS: 0 } }), item(2)],
    };
    expect(reformIssuerEventProblems(bad).map((e) => e.field)).toEqual([
      'items[0].vIBS', 'items[0].creditReversal.vCBS', 'items[1].nItem', 'items[1].quantity', 'items[1].unit', 'items[2].creditReversal',
    ]);
    expect(reformIssuerEventProblems({ ...head, tpEvento: '112140', items: [] }).map((e) => e.field)).toEqual(['items']);
    expect(reformIssuerEventProblems({ ...head, tpEvento: '112120', items: [item(991), item(5, { creditReversal: { vIBS: 0, vCBS: 0 } })] }).map((e) => e.field))
      .toEqual(['items[0].nItem', 'items[1].creditReversal']);
    expect(() => buildReformIssuerEvent({ ...head, tpEvento: '112140', items: [item(1, { vCBS: 1e13 })] }, key)).toThrow(/vCBS/);
  });
});
