import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalElement } from '../signature/canonical-element.js';
import { infNfeTexts } from './inf-nfe.js';
import type { NfceModel } from './model.js';
import { signInfNfe, signNfce } from './sign-nfe.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const key = { privateKey, certificateBase64: 'MIIBfake' };
const CSC = { id: '000001', token: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8' };
// The key body (43 digits, tpEmis at index 34); its check digit is left 0: nothing here checks it.
const KEY = '3525071042272400018765001000001234140521937';

/** A one-item NFC-e model, values as the domain computes them (cents, scaled bigints). */
function model(over: { dhEmi?: string; tpEmis?: 1 | 9; tpAmb?: 1 | 2 } = {}): NfceModel {
  const tpEmis = over.tpEmis ?? 1;
  const accessKey = KEY.slice(0, 34) + tpEmis + KEY.slice(35) + '0';
  const icms = { code: '40', orig: 0 };
  return {
    accessKey,
    ide: { cUF: '35', cNF: '40521937', natOp: 'VENDA', serie: 1, nNF: 1234, dhEmi: over.dhEmi ?? '2026-07-15T12:04:05-03:00', cMunFG: '3550308', tpEmis, cDV: 0, tpAmb: over.tpAmb ?? 2, indPres: 1, verProc: 'test' },
    emit: { CNPJ: '10422724000187', xNome: 'Padaria', ender: { xLgr: 'Rua', nro: '1', xBairro: 'Centro', cMun: '3550308', xMun: 'Sao Paulo', UF: 'SP', CEP: '01001000' }, IE: '111222333444', CRT: 3 },
    dest: { CPF: '52998224725' },
    det: [{ nItem: 1, cProd: '1', cEAN: 'SEM GTIN', xProd: 'Cafe', NCM: '09012100', CFOP: '5102', uCom: 'UN', qCom: 10_000n, vUnCom: 10_000_000_000n, vProd: 100, vDesc: 0, icms, pis: { CST: '07' }, cofins: { CST: '07' } }],
    total: { vBC: 0, vICMS: 0, vICMSDeson: 0, vFCP: 0, vBCST: 0, vST: 0, vFCPST: 0, vFCPSTRet: 0, vProd: 100, vFrete: 0, vSeg: 0, vDesc: 0, vII: 0, vIPI: 0, vIPIDevol: 0, vPIS: 0, vCOFINS: 0, vOutro: 0, vNF: 100, vTotTrib: 0 },
    pag: { detPag: [{ tPag: '01', vPag: 100 }], vTroco: 0 },
  };
}

describe('signInfNfe', () => {
  it('signs the canonical infNFe the writer produced, without parsing it again', () => {
    const m = model();
    const signed = signInfNfe(m, key);
    const { canonical, embedded } = infNfeTexts(m);
    expect(signed.embedded).toBe(embedded);
    expect(signed.digestValue).toBe(createHash('sha1').update(canonical).digest('base64'));
    expect(signed.signatureXml).toContain(`<Reference URI="#NFe${m.accessKey}">`);
  });
});

describe('signNfce', () => {
  it('writes NFe = infNFe + infNFeSupl + Signature, Signature last (docs/fiscal/signature.md)', () => {
    const m = model();
    const signed = signNfce(m, key, CSC);
    expect(signed.xml.startsWith('<NFe xmlns="http://www.portalfiscal.inf.br/nfe"><infNFe Id=')).toBe(true);
    expect(signed.xml).toContain(`</infNFe><infNFeSupl><qrCode>${signed.qrCodeUrl}</qrCode><urlChave>${signed.urlChave}</urlChave></infNFeSupl><Signature `);
    expect(signed.xml.endsWith('</Signature></NFe>')).toBe(true);
    expect(canonicalElement(signed.xml, 'infNFe').canonical).toBe(infNfeTexts(m).canonical);
  });

  it('QR v2 offline carries the digest of the signature it comes after (NT 2015.002)', () => {
    const m = model({ tpEmis: 9, dhEmi: '2025-06-01T23:59:59-03:00' });
    const signed = signNfce(m, key, CSC);
    const hex = Buffer.from(signed.digestValue, 'ascii').toString('hex');
    expect(signed.qrCodeUrl).toContain(`?p=${m.accessKey}|2|2|01|1.00|${hex}|1|`);
  });

  it('picks the QR version by the emission instant written in dhEmi (NT 2025.001 cut-over)', () => {
    const version = (dhEmi: string) => signNfce(model({ dhEmi }), key, CSC).qrCodeUrl.split('|')[1];
    expect(version('2025-06-01T23:59:59-03:00')).toBe('2');
    expect(version('2025-06-02T00:00:00-03:00')).toBe('3');
  });
});
