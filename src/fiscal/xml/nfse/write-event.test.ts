import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../kernel/paths.js';
import { NFSE_ID_ELEMENTS, tempFile, xmllint, xmlsecVerify } from '../../../../test/support/xml-tools.js';
import { readNfseSample } from '../../../../test/support/nfse-samples.js';
import { parsePfx } from '../../certificate/pfx.js';
import { C14N_EXCLUSIVE_WITH_COMMENTS, DIGEST_SHA256, ENVELOPED_SIGNATURE, RSA_SHA256 } from '../signature/signature-profile.js';
import { XMLDSIG_NAMESPACE } from '../xml-text.js';
import { verifyNfseDocument } from './sign-dps.js';
import { signPedRegEvento } from './sign-event.js';
import { writePedRegEvento, type PedRegEventoModel } from './write-event.js';

const run = promisify(execFile);
const cert = parsePfx(readFileSync(join(PROJECT_ROOT, 'test/fixtures/certs/novo_test_certificate.pfx')), 'nfephp');
const KEY = '35503082211222333000181000000000000126031234567899';

/** The data of the hand-made valid request in samples/nfse (docs/fiscal/nfse-national.md#events). */
const SAMPLE: PedRegEventoModel = {
  tpAmb: 2,
  verAplic: 'gateway-1.0.0',
  dhEvento: '2026-03-10T11:00:00-03:00',
  author: { CNPJ: '11222333000181' },
  chNFSe: KEY,
  event: { tpEvento: '101101', cMotivo: '1', xMotivo: 'Erro na emissao: valor do servico incorreto' },
};
const withEvent = (event: Partial<PedRegEventoModel['event']>, rest: Partial<PedRegEventoModel> = {}): PedRegEventoModel => ({
  ...SAMPLE,
  ...rest,
  event: { ...SAMPLE.event, ...event } as PedRegEventoModel['event'],
});

describe('writePedRegEvento (pedRegEvento 1.01)', () => {
  it('writes the hand-made sample byte for byte; the Id is PRE + key + tpEvento, 59 characters', () => {
    const sample = readNfseSample('pedRegEvento_e101101_handmade_unsigned.xml').replace(/^<\?xml[^>]*>\s*/, '').trim();
    expect(writePedRegEvento(SAMPLE)).toBe(sample);
    const id = /Id="([^"]+)"/.exec(sample)![1]!;
    expect([id, id.length]).toEqual(['PRE' + KEY + '101101', 59]);
  });

  it('the 101103 group carries the XSD\'s accented xDesc and validates; a CPF author too', async () => {
    const xml = writePedRegEvento(withEvent({ tpEvento: '101103', cMotivo: '9' }, { author: { CPF: '12345678909' } }));
    expect(xml).toContain('<CPFAutor>12345678909</CPFAutor><chNFSe>' + KEY + '</chNFSe><e101103><xDesc>Solicitação de Análise Fiscal para Cancelamento de NFS-e</xDesc><cMotivo>9</cMotivo>');
    expect(await xmllint(xml, 'NFSe_v1.01', 'pedRegEvento_v1.01.xsd')).toBe('');
  });

  it('refuses, before writing, what the XSD or Sefin would refuse, naming the field', () => {
    expect(() => writePedRegEvento(withEvent({ xMotivo: 'Curto demais.' }))).toThrow('xMotivo must have 15 to 255 characters (has 13)');
    expect(() => writePedRegEvento(withEvent({ xMotivo: 'x'.repeat(256) }))).toThrow('xMotivo must have 15 to 255 characters (has 256)');
    expect(() => writePedRegEvento(withEvent({ xMotivo: ' Erro na emissao da nota' }))).toThrow('xMotivo must be Latin-1 text without leading or trailing blanks');
    expect(() => writePedRegEvento(withEvent({ xMotivo: 'Erro na emissão 😀 da nota' }))).toThrow('xMotivo must be Latin-1');
    expect(() => writePedRegEvento(withEvent({ cMotivo: '3' as '1' }))).toThrow('cMotivo must be 1, 2 or 9');
    expect(() => writePedRegEvento({ ...SAMPLE, chNFSe: KEY.slice(0, 49) + '0' })).toThrow('chNFSe must be a 50-digit NFS-e key with a valid check digit');
    expect(() => writePedRegEvento({ ...SAMPLE, dhEvento: '2026-03-10T14:00:00Z' })).toThrow(/^dhEvento/);
    expect(() => writePedRegEvento({ ...SAMPLE, author: { CNPJ: '1122233300018' } })).toThrow('CNPJAutor must be 14 digits');
  });
});

describe('signPedRegEvento', () => {
  for (const profile of ['rsa-sha1-c14n', 'rsa-sha256-exc-c14n'] as const) {
    it(`${profile}: XSD, xmlsec1 and our verifier accept it; a changed reason fails`, async () => {
      const signed = signPedRegEvento(SAMPLE, cert, profile);
      expect(signed.id).toBe('PRE' + KEY + '101101');
      expect(signed.xml).toMatch(/<\/infPedReg><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">.*<\/Signature><\/pedRegEvento>$/);
      expect(await xmllint(signed.xml, 'NFSe_v1.01', 'pedRegEvento_v1.01.xsd')).toBe('');
      expect(await xmlsecVerify(signed.xml, NFSE_ID_ELEMENTS)).toBe('');
      expect(verifyNfseDocument(signed.xml)).toMatchObject({ valid: true, signedElementIds: [signed.id], certificate: { cnpj: cert.cnpj } });
      expect(verifyNfseDocument(signed.xml.replace('<cMotivo>1<', '<cMotivo>2<'))).toMatchObject({ valid: false, reason: 'digest' });
    });
  }
});

describe("Sefin's registered event (evento/infEvento, signed by xmlsec1 the way Sefin signs: RSA-SHA256, exc-C14N WithComments)", () => {
  /** An evento around our signed request, signed by xmlsec1 from a template: a signer we did not write. */
  async function sefinEvent(requestXml: string): Promise<string> {
    const id = 'EVT' + KEY + '101101' + '001';
    const template =
      `<evento xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01"><infEvento Id="${id}"><verAplic>SefinNacional_1.6.0</verAplic><ambGer>2</ambGer>` +
      `<nSeqEvento>1</nSeqEvento><dhProc>2026-03-10T11:00:02-03:00</dhProc><nDFSe>123</nDFSe>${requestXml.replace(' xmlns="http://www.sped.fazenda.gov.br/nfse"', '')}</infEvento>` +
      `<Signature xmlns="${XMLDSIG_NAMESPACE}"><SignedInfo><CanonicalizationMethod Algorithm="${C14N_EXCLUSIVE_WITH_COMMENTS}"/><SignatureMethod Algorithm="${RSA_SHA256}"/>` +
      `<Reference URI="#${id}"><Transforms><Transform Algorithm="${ENVELOPED_SIGNATURE}"/><Transform Algorithm="${C14N_EXCLUSIVE_WITH_COMMENTS}"/></Transforms>` +
      `<DigestMethod Algorithm="${DIGEST_SHA256}"/><DigestValue></DigestValue></Reference></SignedInfo><SignatureValue></SignatureValue>` +
      `<KeyInfo><X509Data><X509Certificate></X509Certificate></X509Data></KeyInfo></Signature></evento>`;
    const keyFile = tempFile('sefin.pem', cert.privateKeyPem);
    const certFile = tempFile('sefin.crt', cert.certificatePem);
    const { stdout } = await run('xmlsec1', ['--sign', '--trusted-pem', certFile, '--privkey-pem', `${keyFile},${certFile}`, '--id-attr:Id', 'infEvento', '--node-xpath', "/*/*[local-name()='Signature']", tempFile('evento.xml', template)]);
    return stdout;
  }

  it('the event and the request inside it verify (ours and xmlsec1) and the event validates against evento_v1.01.xsd', async () => {
    const request = signPedRegEvento(SAMPLE, cert, 'rsa-sha256-exc-c14n');
    const evento = await sefinEvent(request.xml);
    expect(await xmllint(evento, 'NFSe_v1.01', 'evento_v1.01.xsd')).toBe('');
    expect(verifyNfseDocument(evento)).toMatchObject({ valid: true, signedElementIds: ['EVT' + KEY + '101101001', request.id] });
    expect(await xmlsecVerify(evento, NFSE_ID_ELEMENTS, "//*[local-name()='pedRegEvento']/*[local-name()='Signature']")).toBe('');
    // the taxpayer's request changed inside Sefin's event: both digests break, ours names the first
    expect(verifyNfseDocument(evento.replace('<cMotivo>1<', '<cMotivo>9<'))).toMatchObject({ valid: false, reason: 'digest' });
  });
});
