import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { parsePfx } from '../../certificate/pfx.js';
import { NFE_NAMESPACE } from '../xml-text.js';
import { buildEnvEvento, buildEventCancellation, CANCELLABLE_EVENT_TYPES, EVENT_CANCELLATION_DESC, eventCancellationProblems } from './index.js';

const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const PKG = 'PL_010_V1.30';
const detEvento = (xml: string) => /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(xml)![0].replace('<detEvento', `<detEvento xmlns="${NFE_NAMESPACE}"`);
const input = {
  cOrgao: '35', cOrgaoAutor: '35', tpAmb: 2 as const, author: { CNPJ: '93623057000128' }, chNFe: '35260605730928000145550010000048661583302923',
  dhEvento: '2026-06-10T11:59:12-03:00', verAplic: 'gateway-1.0', nSeqEvento: 3, tpEventoAut: '112130', nProtEvento: '135260000000123',
};

// NT 2025.002-RTC 8.14 (110001 Cancelamento de Evento) against e110001_v1.00.xsd.
describe('110001 Cancelamento de Evento', () => {
  it('descEvento and tpEventoAut are the values e110001_v1.00.xsd enumerates', () => {
    const xsd = readFileSync(join(root, 'assets/fiscal/schemas', PKG, 'e110001_v1.00.xsd'), 'utf8');
    const values = (name: string) => [...(new RegExp(`<xs:element name="${name}">[\\s\\S]*?</xs:element>`).exec(xsd)![0]).matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]);
    expect(values('descEvento')).toEqual([EVENT_CANCELLATION_DESC]);
    expect(new Set(values('tpEventoAut'))).toEqual(CANCELLABLE_EVENT_TYPES);
  });

  it('carries the cancelled event sequence in its Id (NT P07, P15), validates with xmllint and verifies with xmlsec1', async () => {
    const ev = buildEventCancellation(input, key);
    expect(ev.id).toBe(`ID110001${input.chNFe}03`);
    expect(ev.xml).toContain('<detEvento versao="1.00"><descEvento>Cancelamento de Evento</descEvento><cOrgaoAutor>35</cOrgaoAutor><verAplic>gateway-1.0</verAplic><tpEventoAut>112130</tpEventoAut><nProtEvento>135260000000123</nProtEvento></detEvento>');
    const env = buildEnvEvento(1, [ev]);
    expect(await xmllint(env, PKG, 'envEvento_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, 'e110001_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(env)).toBe('');
    // NT P23-10: 110001 itself cannot be cancelled (the schema refuses it).
    expect(await xmllint(detEvento(env).replace('<tpEventoAut>112130<', '<tpEventoAut>110001<'), PKG, 'e110001_v1.00.xsd')).not.toBe('');
  });

  it('names the fields it refuses before building', () => {
    expect(eventCancellationProblems({ ...input, tpEventoAut: '110001', nProtEvento: '123', cOrgaoAutor: '99' }).map((e) => e.field))
      .toEqual(['cOrgaoAutor', 'tpEventoAut', 'nProtEvento']);
    expect(() => buildEventCancellation({ ...input, tpEventoAut: '110111' }, key)).toThrow(/tpEventoAut/);
  });
});
