import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFile, xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { parsePfx } from '../../certificate/pfx.js';
import { NFE_NAMESPACE } from '../xml-text.js';
import {
  buildDeliveryCancelEvent, buildDeliveryFailureEvent, buildDeliveryProofEvent, buildEnvEvento, DELIVERY_EVENT_DESC, deliveryFailureProblems,
  deliveryImageHash, deliveryProofProblems, gpsCoordinate, type DeliveryFailureInput, type DeliveryProofInput,
} from './index.js';

// docs/fiscal/delivery-events.md: 110130/110131 (NT 2021.001) and 110192/110193 (NT 2023.005), checked by xmllint and xmlsec1.
const root = resolve(import.meta.dirname, '../../../..');
const key = parsePfx(readFileSync(join(root, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const PKG = 'PL_009_V4';
const chNFe = '35260605730928000145550010000048661583302923';
const detEvento = (xml: string) => /<detEvento[^>]*>[\s\S]*<\/detEvento>/.exec(xml)![0].replace('<detEvento', `<detEvento xmlns="${NFE_NAMESPACE}"`);
const head = { cOrgaoAutor: '35', tpAmb: 2 as const, author: { CNPJ: '05730928000145' }, chNFe, dhEvento: '2026-06-10T18:00:00-03:00', verAplic: 'gateway-1.0' };
const image = Buffer.from('assinatura do recebedor').toString('base64');
const proof: DeliveryProofInput = {
  ...head, cOrgao: '91', dhEntrega: '2026-06-10T17:45:00-03:00', nDoc: '12345678909', xNome: 'Maria da Silva',
  latGPS: '-23.561684', longGPS: '-46.655981', hashComprovante: deliveryImageHash(chNFe, image), dhHashComprovante: '2026-06-10T17:46:00-03:00',
};
const failure: DeliveryFailureInput = {
  ...head, cOrgao: '92', dhTentativaEntrega: '2026-06-10T17:45:00-03:00', nTentativa: 2, tpMotivo: 4,
  xJustMotivo: 'Portaria do condominio fechada no horario', hashTentativaEntrega: deliveryImageHash(chNFe, image),
};

describe('delivery events of the NF-e (110130, 110131, 110192, 110193)', () => {
  it('hash = Base64(SHA-1(access key + Base64 of the image)), as openssl computes it', () => {
    const file = tempFile('concat.txt', chNFe + image);
    const expected = execFileSync('sh', ['-c', `openssl dgst -sha1 -binary "${file}" | base64`]).toString().trim();
    expect(deliveryImageHash(chNFe, image)).toBe(expected);
    expect(expected).toHaveLength(28);
  });

  it('each descEvento is the one value its XSD enumerates', () => {
    for (const [tp, desc] of Object.entries(DELIVERY_EVENT_DESC)) {
      const xsd = readFileSync(join(root, 'assets/fiscal/schemas', PKG, `e${tp}_v1.00.xsd`), 'utf8');
      const block = /<xs:element name="descEvento">[\s\S]*?<\/xs:element>/.exec(xsd)![0];
      expect([...block.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1])).toEqual([desc]);
    }
  });

  it('110130 passes envEventoEntregaNFe and e110130 (xmllint) and xmlsec1; a changed receiver breaks the signature', async () => {
    const ev = buildDeliveryProofEvent(proof, key);
    expect(ev.id).toBe(`ID110130${chNFe}01`);
    const env = buildEnvEvento(1, [ev]);
    expect(env).toContain('<cOrgao>91</cOrgao>');
    expect(await xmllint(env, PKG, 'envEventoEntregaNFe_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, 'e110130_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(env)).toBe('');
    expect(await xmlsecVerify(env.replace('Maria da Silva', 'Maria da Souza'))).not.toBe('');
    // Without the optional coordinates and hash time, still valid.
    const bare = buildEnvEvento(1, [buildDeliveryProofEvent({ ...proof, latGPS: undefined, longGPS: undefined, dhHashComprovante: undefined }, key)]);
    expect(await xmllint(bare, PKG, 'envEventoEntregaNFe_v1.00.xsd')).toBe('');
  });

  it('110192 passes envEventoInsucessoNFe and e110192 and xmlsec1; reasons 1-3 go without justification', async () => {
    const env = buildEnvEvento(1, [buildDeliveryFailureEvent(failure, key)]);
    expect(env).toContain('<cOrgao>92</cOrgao>');
    expect(env).not.toContain('<tpAutor>');
    expect(await xmllint(env, PKG, 'envEventoInsucessoNFe_v1.00.xsd')).toBe('');
    expect(await xmllint(detEvento(env), PKG, 'e110192_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(env)).toBe('');
    const refused = buildEnvEvento(1, [buildDeliveryFailureEvent({ ...failure, tpMotivo: 2, xJustMotivo: undefined, nTentativa: undefined }, key)]);
    expect(await xmllint(refused, PKG, 'envEventoInsucessoNFe_v1.00.xsd')).toBe('');
    // The XSD refuses a justification under 25 characters and a fifth reason.
    expect(await xmllint(detEvento(env).replace(failure.xJustMotivo!, 'curta demais'), PKG, 'e110192_v1.00.xsd')).not.toBe('');
    expect(await xmllint(detEvento(env).replace('<tpMotivo>4<', '<tpMotivo>5<'), PKG, 'e110192_v1.00.xsd')).not.toBe('');
  });

  it('110131 and 110193 pass their lot schemas and xmlsec1', async () => {
    const cancelProof = buildEnvEvento(1, [buildDeliveryCancelEvent({ ...head, cOrgao: '91', nProtEvento: '891260000000123' }, '110131', key)]);
    expect(cancelProof).toContain('<tpAutor>1</tpAutor><verAplic>gateway-1.0</verAplic><nProtEvento>891260000000123</nProtEvento>');
    expect(await xmllint(cancelProof, PKG, 'envEventoCancEntregaNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(cancelProof)).toBe('');
    const cancelFailure = buildEnvEvento(1, [buildDeliveryCancelEvent({ ...head, cOrgao: '92', nProtEvento: '392260000000456' }, '110193', key)]);
    expect(cancelFailure).not.toContain('<tpAutor>');
    expect(await xmllint(cancelFailure, PKG, 'envEventoCancInsucessoNFe_v1.00.xsd')).toBe('');
    expect(await xmlsecVerify(cancelFailure)).toBe('');
  });

  it('names the fields it refuses before building', () => {
    expect(deliveryProofProblems({ ...proof, cOrgao: '35', nDoc: '1', latGPS: '-95.000000' }).map((e) => e.field)).toEqual(['cOrgao', 'nDoc', 'latGPS']);
    expect(deliveryProofProblems({ ...proof, longGPS: undefined }).map((e) => e.field)).toEqual(['latGPS']);
    expect(deliveryFailureProblems({ ...failure, xJustMotivo: undefined }).map((e) => e.field)).toEqual(['xJustMotivo']);
    expect(deliveryFailureProblems({ ...failure, tpMotivo: 1 }).map((e) => e.field)).toEqual(['xJustMotivo']);
    expect(() => buildDeliveryProofEvent({ ...proof, hashComprovante: 'abc' }, key)).toThrow(/hashComprovante/);
    expect([gpsCoordinate(-23.5616841, 90), gpsCoordinate(-181, 180), gpsCoordinate(180, 180)]).toEqual(['-23.561684', null, '180.000000']);
  });
});
