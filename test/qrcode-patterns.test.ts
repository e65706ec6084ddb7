// The qrCode texts we write must satisfy the official TNFe/infNFeSupl/qrCode patterns of both packages.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildNfceQrCode, knownUfs, nfceUrls, type NfceQrCodeInput } from '../src/fiscal/qrcode/index.js';
import { validateNfe } from '../src/fiscal/xml/xsd/validate-xml.js';
import { escapeText } from '../src/fiscal/xml/xml-text.js';

const schemas = resolve(import.meta.dirname, '../assets/fiscal/schemas');
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });

/** XSD patterns are implicitly anchored; these use only syntax JS shares. */
function qrPatterns(pkgDir: string): RegExp[] {
  const xsd = readFileSync(resolve(schemas, pkgDir, 'leiauteNFe_v4.00.xsd'), 'utf8');
  const block = /<xs:element name="qrCode">[\s\S]*?<\/xs:element>/.exec(xsd)![0];
  return [...block.matchAll(/<xs:pattern value="([^"]+)"/g)].map((m) => new RegExp(`^(?:${m[1]!.replace(/&amp;/g, '&')})$`));
}

const onlineKey = '41170310422724000187650010000000061000005858';
const offlineKey = '29181033657677000156650010001654399001654399';
function variants(uf: string, tpAmb: 1 | 2): string[] {
  const base: Omit<NfceQrCodeInput, 'accessKey' | 'tpEmis' | 'version'> = {
    tpAmb, uf, csc: { id: '000123', token: 'ABCDEF0123456789ABCDEF0123456789ABCD' }, dhEmi: '2026-03-31T21:00:00-03:00',
    vNF: '1234.50', digestValue: 'm9ZrQTKMxv7A1Blnf/nmNGVX+N8=', signingKey: { privateKey },
  };
  return [
    buildNfceQrCode({ ...base, accessKey: onlineKey, tpEmis: 1, version: 2 }),
    buildNfceQrCode({ ...base, accessKey: offlineKey, tpEmis: 9, version: 2 }),
    buildNfceQrCode({ ...base, accessKey: onlineKey, tpEmis: 1, version: 3 }),
    buildNfceQrCode({ ...base, accessKey: offlineKey, tpEmis: 9, version: 3 }),
    buildNfceQrCode({ ...base, accessKey: offlineKey, tpEmis: 9, version: 3, dest: { kind: 'CPF', id: '90483926086' } }),
    buildNfceQrCode({ ...base, accessKey: offlineKey, tpEmis: 9, version: 3, dest: { kind: 'idEstrangeiro', id: 'AB-1234' } }),
  ];
}

describe('QR code texts against the XSD patterns', () => {
  for (const pkg of ['PL_009_V4', 'PL_010_V1.30']) {
    it(`${pkg}: every state, both environments, v2/v3 online/offline match a qrCode pattern`, () => {
      const patterns = qrPatterns(pkg);
      expect(patterns).toHaveLength(5);
      for (const uf of knownUfs()) {
        for (const tpAmb of [1, 2] as const) {
          for (const qr of variants(uf, tpAmb)) {
            expect(qr.length).toBeGreaterThanOrEqual(60);
            expect(qr.length).toBeLessThanOrEqual(1000);
            expect(patterns.some((p) => p.test(qr)), qr).toBe(true);
          }
        }
      }
    });
  }

  it('libxml2 accepts the BA NFC-e with our v2 and v3 offline infNFeSupl in both packages', () => {
    const sample = readFileSync(resolve(import.meta.dirname, 'fixtures/samples/nfce/nfce_v4.00_BA_homologacao_offline_tpEmis9_qrv2_assinada_sem_protocolo.xml'), 'utf8');
    const all = variants('BA', 2);
    for (const qr of [all[1]!, all[3]!, all[4]!]) {
      const supl = `<infNFeSupl><qrCode>${escapeText(qr)}</qrCode><urlChave>${nfceUrls('BA', 2).urlChave}</urlChave></infNFeSupl>`;
      const doc = sample.replace(/<infNFeSupl>.*<\/infNFeSupl>/, supl);
      expect(doc).toContain(qr.slice(-20));
      expect(validateNfe(doc, 'PL_009')).toEqual({ valid: true, errors: [] });
      expect(validateNfe(doc, 'PL_010')).toEqual({ valid: true, errors: [] });
    }
  });
});
