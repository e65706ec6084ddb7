import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildNfceQrCode, knownUfs, nfceUrls, parseNfceQrCode, qrVersionFor, verifyNfceQrCode, type QrVerifyContext } from './index.js';

// Vectors computed independently (Python hashlib) from the docs/fiscal/qrcode.md#version-2 formulas.
const CSC = { id: '000001', token: 'G8063VRTNDMO886SFNK5LDUDEI24XJ22YIPO' };
const ONLINE_KEY = '41170310422724000187650010000000061000005858';
const BA_KEY = '29181033657677000156650010001654399001654399';
const BA_DIGEST = 'm9ZrQTKMxv7A1Blnf/nmNGVX+N8=';
const BA_BASE = 'http://hnfe.sefaz.ba.gov.br/servicos/nfce/modulos/geral/NFCEC_consulta_chave_acesso.aspx';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });

describe('nfceUrls / qrVersionFor', () => {
  it('knows all 27 states in both environments', () => {
    expect(knownUfs()).toHaveLength(27);
    for (const uf of knownUfs()) {
      for (const tpAmb of [1, 2] as const) {
        const u = nfceUrls(uf, tpAmb);
        expect(u.qrCodeBaseUrl).toMatch(/^https?:\/\//);
        expect(u.urlChave.length).toBeGreaterThanOrEqual(21); // XSD urlChave 21-85
        expect(u.urlChave.length).toBeLessThanOrEqual(85);
      }
    }
    expect(nfceUrls('SP', 1)).toEqual({
      qrCodeBaseUrl: 'https://www.nfce.fazenda.sp.gov.br/qrcode',
      urlChave: 'https://www.nfce.fazenda.sp.gov.br/NFCeConsultaPublica',
      qrVersion: 2,
    });
    expect(() => nfceUrls('XX', 1)).toThrow();
  });

  it('uses v3 only where published and after the NT 2025.001 start dates', () => {
    expect(qrVersionFor('SP', 2, new Date('2025-06-01T12:00:00-03:00'))).toBe(2);
    expect(qrVersionFor('SP', 2, new Date('2025-06-02T00:00:00-03:00'))).toBe(3);
    expect(qrVersionFor('SP', 1, new Date('2026-01-01T00:00:00-03:00'))).toBe(2);
  });
});

describe('buildNfceQrCode', () => {
  it('v2 online: key|2|tpAmb|idCSC without leading zeros|SHA-1(params + CSC)', () => {
    const qr = buildNfceQrCode({ accessKey: ONLINE_KEY, tpAmb: 1, tpEmis: 1, version: 2, uf: 'PR', csc: CSC, dhEmi: '2017-03-10T10:00:00-03:00', vNF: '10.00', digestValue: BA_DIGEST });
    expect(qr).toBe(`http://www.fazenda.pr.gov.br/nfce/qrcode?p=${ONLINE_KEY}|2|1|1|3D54C5CCA282E75919692C323C5AA4C8F2B98F09`);
  });

  it('v2 offline reproduces the BA sample up to its (unknown-CSC) hash, and the hand-computed hash', () => {
    const qr = buildNfceQrCode({ accessKey: BA_KEY, tpAmb: 2, tpEmis: 9, version: 2, uf: 'BA', csc: CSC, dhEmi: '2018-10-01T07:28:14-04:00', vNF: '150', digestValue: BA_DIGEST, baseUrl: BA_BASE });
    const sample = `${BA_BASE}?p=${BA_KEY}|2|2|01|150.00|6d395a7251544b4d7876374131426c6e662f6e6d4e4756582b4e383d|1|9C886E1A36ADC68CAFDF114F3424CD30E8371631`;
    expect(qr.slice(0, qr.lastIndexOf('|'))).toBe(sample.slice(0, sample.lastIndexOf('|')));
    expect(qr.slice(qr.lastIndexOf('|') + 1)).toBe('C9FF3C50D32C72B7A6878C05C1F08845D0005506');
  });

  it('v3 online has no CSC; v3 offline signs key|3|tpAmb|dd|vNF|tpDest|idDest', () => {
    expect(buildNfceQrCode({ accessKey: ONLINE_KEY, tpAmb: 2, tpEmis: 1, version: 3, uf: 'SP', dhEmi: '2026-01-05T10:00:00-03:00', vNF: '1.00', digestValue: BA_DIGEST }))
      .toBe(`https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode?p=${ONLINE_KEY}|3|2`);
    const qr = buildNfceQrCode({ accessKey: BA_KEY, tpAmb: 2, tpEmis: 9, version: 3, uf: 'BA', dhEmi: '2018-10-01T23:59:00-04:00', vNF: '150.00', digestValue: BA_DIGEST, dest: { kind: 'CPF', id: '90483926086' }, signingKey: { privateKey } });
    const p = parseNfceQrCode(qr);
    expect(p).toMatchObject({ version: 3, mode: 'offline', day: '01', vNF: '150.00', destType: '2', destId: '90483926086' });
    expect(() => buildNfceQrCode({ accessKey: BA_KEY, tpAmb: 2, tpEmis: 9, version: 3, uf: 'BA', dhEmi: '2018-10-01T23:59:00-04:00', vNF: '1', digestValue: BA_DIGEST })).toThrow(/key/);
    expect(() => buildNfceQrCode({ accessKey: BA_KEY, tpAmb: 2, tpEmis: 1, version: 2, uf: 'BA', dhEmi: '2018-10-01T23:59:00-04:00', vNF: '1', digestValue: BA_DIGEST })).toThrow(/CSC/);
  });
});

describe('verifyNfceQrCode', () => {
  const ctx: QrVerifyContext = {
    expectedBaseUrl: BA_BASE, accessKey: BA_KEY, tpAmb: 2, tpEmis: 9, dhEmi: '2018-10-01T07:28:14-04:00', vNF: '150.00', digestValue: BA_DIGEST,
    cscLookup: (id) => (id === '1' ? { token: CSC.token } : id === '2' ? { token: 'x', revoked: true } : undefined),
    publicKey,
  };
  const v2 = buildNfceQrCode({ ...ctx, tpEmis: 9, version: 2, uf: 'BA', csc: CSC, baseUrl: BA_BASE });
  const v3 = buildNfceQrCode({ ...ctx, tpEmis: 9, version: 3, uf: 'BA', baseUrl: BA_BASE, signingKey: { privateKey } });

  it('accepts what we build', () => {
    expect(verifyNfceQrCode(v2, ctx)).toBeNull();
    expect(verifyNfceQrCode(v3, ctx)).toBeNull();
    expect(verifyNfceQrCode(v2.replace('http://', 'https://'), ctx)).toBeNull();
  });

  it('maps each fault to its cStat', () => {
    const code = (qr: string, over: Partial<QrVerifyContext> = {}) => verifyNfceQrCode(qr, { ...ctx, ...over })?.cStat ?? null;
    expect(code(v2.replace('hnfe.sefaz.ba', 'evil.example'))).toBe(395);
    expect(code(`${BA_BASE}?p=|2|2`)).toBe(396);
    expect(code(v2, { accessKey: ONLINE_KEY })).toBe(397);
    expect(code(v2.replace(`${BA_KEY}|2|`, `${BA_KEY}|7|`))).toBe(398);
    expect(code(v3, { acceptedVersions: [2] })).toBe(398);
    expect(code(v3, { dest: undefined }, )).toBeNull();
    const withDest = buildNfceQrCode({ ...ctx, tpEmis: 9, version: 3, uf: 'BA', baseUrl: BA_BASE, signingKey: { privateKey }, dest: { kind: 'CNPJ', id: '06157250000116' } });
    expect(code(withDest)).toBe(399);
    expect(code(v2.replace(/\|1\|([0-9A-F]{40})$/, '|7|$1'))).toBe(462);
    expect(code(v2.replace(/\|1\|([0-9A-F]{40})$/, '|2|$1'))).toBe(463);
    // MOC ZX02-276/296: a v2 offline value that differs from the NFC-e is 397 (the parameter named).
    expect(verifyNfceQrCode(v2, { ...ctx, vNF: '150.01' })).toMatchObject({ cStat: 397, param: 'vNF' });
    expect(verifyNfceQrCode(v2, { ...ctx, digestValue: 'n9ZrQTKMxv7A1Blnf/nmNGVX+N8=' })).toMatchObject({ cStat: 397, param: 'digVal' });
    expect(code(v2, { tpAmb: 1 })).toBe(397);
    expect(code(v3, { dhEmi: '2018-10-02T07:28:14-04:00' })).toBe(464);
    expect(code(v2, { tpEmis: 1 })).toBe(464);
    expect(code(v2.replace(/[0-9A-F]{40}$/, 'A'.repeat(40)))).toBe(464);
  });

  it('v2 parameters one by one (MOC ZX02-232 ... ZX02-316): 396 not informed, 400 not hexadecimal', () => {
    const at = (qr: string) => verifyNfceQrCode(qr, ctx);
    const param = (i: number, value: string) => { const [head, p] = v2.split('?p='); const ps = p!.split('|'); ps[i] = value; return `${head}?p=${ps.join('|')}`; };
    expect(at(param(1, ''))).toMatchObject({ cStat: 396, param: 'nVersao' });
    expect(at(param(2, ''))).toMatchObject({ cStat: 396, param: 'tpAmb' });
    expect(at(param(3, ''))).toMatchObject({ cStat: 396, param: 'dhEmi' });
    expect(at(param(4, ''))).toMatchObject({ cStat: 396, param: 'vNF' });
    expect(at(param(5, ''))).toMatchObject({ cStat: 396, param: 'digVal' });
    expect(at(param(5, 'z'.repeat(56)))).toMatchObject({ cStat: 400, param: 'digVal' });
    expect(at(param(6, ''))).toMatchObject({ cStat: 396, param: 'cIdToken' });
    expect(at(param(7, ''))).toMatchObject({ cStat: 396, param: 'cHashQRCode' });
    expect(at(param(7, 'G'.repeat(40)))).toMatchObject({ cStat: 400, param: 'cHashQRCode' });
  });

  it('version 100 after 30/09/2018 is 903 (MOC ZX02-15)', () => {
    const v1 = `${BA_BASE}?chNFe=${BA_KEY}&nVersao=100&tpAmb=2&dhEmi=${'a'.repeat(50)}&vNF=150.00&vICMS=0.00&digVal=${'b'.repeat(56)}&cIdToken=000001&cHashQRCode=${'C'.repeat(40)}`;
    expect(verifyNfceQrCode(v1, ctx)?.cStat).toBe(903);
    expect(verifyNfceQrCode(v1, { ...ctx, dhEmi: '2018-09-30T23:00:00-03:00' })?.cStat).not.toBe(903);
  });

  it('refuses offline QR codes whose written values differ from the NFC-e even when the hash or signature is the right one (v2: 397, v3: 464)', () => {
    const code = (qr: string) => verifyNfceQrCode(qr, ctx)?.cStat ?? null;
    expect(code(v2.replace('|150.00|', '|151.00|'))).toBe(397);
    expect(code(v3.replace('|150.00|', '|151.00|'))).toBe(464);
    expect(code(v2.replace(/\|01\|150\.00\|/, '|02|150.00|'))).toBe(397);
    expect(code(v3.replace('|150.00|||', '|150.00|2|11144477735|'))).toBe(399);
  });
});
