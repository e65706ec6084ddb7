// Proof that the canonicalization choice does not matter for what we sign: for infNFe (and infEvento/
// infInut) exclusive C14N and the inclusive C14N 1.0 fixed by the SEFAZ schema give the same bytes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { C14nCanonicalization, ExclusiveCanonicalization, findAncestorNs } from 'xml-crypto';
import { parsePfx } from '../src/fiscal/certificate/pfx.js';
import { canonicalElement } from '../src/fiscal/xml/signature/canonical-element.js';
import { verifyXmlSignature } from '../src/fiscal/xml/signature/verify.js';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import { tenItemSale, tenItemContext } from '../bench/sign.js';

const samples = resolve(import.meta.dirname, 'fixtures/samples');

function bothForms(xml: string, name: string): { inclusive: string; exclusive: string } {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const node = doc.getElementsByTagName(name)[0] as Element;
  const xpath = `//*[local-name(.)='${name}']`;
  type C14nNode = Parameters<C14nCanonicalization['process']>[0];
  const inclusive = new C14nCanonicalization().process(node as unknown as C14nNode, { ancestorNamespaces: findAncestorNs(doc as never, xpath) });
  const exclusive = new ExclusiveCanonicalization().process(node as unknown as C14nNode, {});
  return { inclusive, exclusive };
}

const digestOf = (text: string) => createHash('sha1').update(text, 'utf8').digest('base64');

describe('exclusive vs inclusive canonical form of the signed element', () => {
  // docs/guides/api.md says "exclusive canonicalization", the XSD fixes the inclusive URI: for infNFe both yield these same bytes.
  it('BA NFC-e sample: identical bytes, whose SHA-1 is the DigestValue SEFAZ accepted', () => {
    const xml = readFileSync(resolve(samples, 'nfce/nfce_v4.00_BA_homologacao_offline_tpEmis9_qrv2_assinada_sem_protocolo.xml'), 'utf8');
    const { inclusive, exclusive } = bothForms(xml, 'infNFe');
    expect(inclusive).toMatch(/^<infNFe xmlns="http:\/\/www\.portalfiscal\.inf\.br\/nfe" Id="NFe/);
    expect(exclusive).toBe(inclusive);
    expect(xml).toContain(`<DigestValue>${digestOf(inclusive)}</DigestValue>`);
  });

  it('event and inutilização samples: identical bytes', () => {
    for (const [file, name] of [['events/nfeDadosMsg_envEvento_110112_cancelamento_substituicao_testcert.xml', 'infEvento'], ['events/nfeDadosMsg_inutNFe_testcert.xml', 'infInut']] as const) {
      const xml = readFileSync(resolve(samples, file), 'utf8');
      const { inclusive, exclusive } = bothForms(xml, name);
      expect(exclusive).toBe(inclusive);
      expect(xml).toContain(`<DigestValue>${digestOf(inclusive)}</DigestValue>`);
    }
  });

  it("the builder's 10-item NFC-e: both forms equal the bytes we signed", () => {
    const key = parsePfx(readFileSync(resolve(import.meta.dirname, 'fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
    const built = buildNfce(tenItemSale(), tenItemContext(key, { nNF: 7 }));
    const { inclusive, exclusive } = bothForms(built.xml, 'infNFe');
    expect(exclusive).toBe(inclusive);
    expect(canonicalElement(built.xml, 'infNFe').canonical).toBe(inclusive);
    expect(digestOf(inclusive)).toBe(built.digestValue);
    expect(verifyXmlSignature(built.xml)).toMatchObject({ valid: true, signedElementId: canonicalElement(built.xml, 'infNFe').id });
  });
});
