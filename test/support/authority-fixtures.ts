import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePfx, tlsCredentials, type ParsedCertificate } from '../../src/fiscal/certificate/pfx.js';
import { buildNfceQrCode } from '../../src/fiscal/qrcode/build-qr-code.js';
import { createHash } from 'node:crypto';
import { canonicalElement } from '../../src/fiscal/xml/signature/canonical-element.js';
import { signElement, type SigningKey } from '../../src/fiscal/xml/signature/sign.js';
import { buildAccessKey } from '../../src/fiscal/layout/access-key.js';
import { cnpjCheckDigits } from '../../src/kernel/tax-id.js';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';
import { VALID_IE } from './state-registrations.js';

export const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures');
export const readFixture = (rel: string) => readFileSync(join(FIXTURES, rel), 'utf8');

export interface TestIssuer {
  cert: ParsedCertificate;
  credentials: { key: string; cert: string };
  signingKey: SigningKey;
}

/** novo_test_certificate.pfx: self-signed, no CNPJ (sandbox-style). The CNPJ one carries 06157250000116. */
export function testIssuer(which: 'plain' | 'cnpj' = 'plain'): TestIssuer {
  const [file, password] =
    which === 'plain'
      ? ['novo_test_certificate.pfx', 'nfephp']
      : ['novo_cert_cnpj_06157250000116_senha_minhasenha.pfx', 'minhasenha'];
  const cert = parsePfx(readFileSync(join(FIXTURES, 'certs', file)), password);
  return {
    cert,
    credentials: tlsCredentials(cert),
    signingKey: { privateKey: cert.privateKey, certificateBase64: cert.certificateDer.toString('base64') },
  };
}

export const HOMOLOGATION_ITEM = 'NOTA FISCAL EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';
export const TEST_CSC = { id: '1', token: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8' };

/** `2026-03-04T10:11:12-03:00` for an instant (Brasília offset). */
export function brasiliaTime(at: Date): string {
  return new Date(at.getTime() - 3 * 3600_000).toISOString().slice(0, 19) + '-03:00';
}

export interface NfceSpec {
  cnpj: string;
  nNF: number;
  serie?: number;
  cNF?: string;
  dhEmi?: Date;
  tpAmb?: 1 | 2;
  firstItem?: string;
  /** Mutations on the unsigned XML (to provoke content rules) - applied before signing. */
  edit?: (xml: string) => string;
  /** Overrides the key written in Id (to provoke 236/502). */
  key?: (key: string) => string;
  csc?: { id: string; token: string } | null;
  qr?: (qr: string) => string;
  /** 9: offline contingency (key and ide say so, dhCont/xJust kept); 7: an NFC-e made out for SVC-RS (MOC B22-70, 783). */
  tpEmis?: 1 | 7 | 9;
  /** 3: NT 2025.001 layout (offline: signed with the issuer key instead of a CSC hash). */
  qrVersion?: 2 | 3;
  /** Recipient parameters written into a v3 offline QR code (whatever the NFC-e says). */
  qrDest?: { kind: 'CNPJ' | 'CPF' | 'idEstrangeiro'; id: string };
}

/**
 * A schema-valid NFC-e 4.00 (BA, online) built from the real BA sample (same groups, same totals:
 * items 96.22 + 53.78 = 150.00, one debit card payment), with its own key, emission time and issuer,
 * an online QR code v2 and a signature by the given certificate.
 */
export function signedNfce(issuer: TestIssuer, spec: NfceSpec): { xml: string; accessKey: string } {
  const template = readFixture('samples/nfce/nfce_v4.00_BA_homologacao_offline_tpEmis9_assinada_sem_infNFeSupl.xml');
  const at = spec.dhEmi ?? new Date();
  const dhEmi = brasiliaTime(at);
  const tpAmb = spec.tpAmb ?? 2;
  const serie = spec.serie ?? 1;
  const tpEmis = spec.tpEmis ?? 1;
  const cNF = spec.cNF ?? String(10_000_000 + ((spec.nNF * 7919) % 89_999_999)).padStart(8, '0');
  const local = new Date(at.getTime() - 3 * 3600_000);
  const realKey = buildAccessKey({
    cUF: 29,
    emittedYear: local.getUTCFullYear(),
    emittedMonth: local.getUTCMonth() + 1,
    cnpj: spec.cnpj,
    mod: 65,
    serie,
    nNF: spec.nNF,
    tpEmis,
    cNF,
  });
  const key = spec.key ? spec.key(realKey) : realKey;
  let xml = template
    .replace(/^<\?xml[^>]*>/, '')
    .replace(/<Signature[\s\S]*<\/Signature>/, '')
    // The sample's IE fails BA's check digits (SINTEGRA; MOC C17-20, 209): a valid BA IE instead.
    .replace('<IE>130796832</IE>', `<IE>${VALID_IE.BA}</IE>`)
    // The sample informs a zero FCP retained earlier (pFCPSTRet 0.00), which MOC N27b-10 (881) refuses: left out.
    .replaceAll('<vBCFCPSTRet>0.00</vBCFCPSTRet><pFCPSTRet>0.00</pFCPSTRet><vFCPSTRet>0.00</vFCPSTRet>', '')
    // The sample's debit card payment has no card group (MOC YA04-10, 391): a non-integrated one.
    .replace('<tPag>04</tPag><vPag>150.00</vPag></detPag>', '<tPag>04</tPag><vPag>150.00</vPag><card><tpIntegra>2</tpIntegra></card></detPag>')
    // The sample's cMunFG 5108402 is in MT, not in BA (MOC B12-20, 271): Salvador instead.
    .replace('<cMunFG>5108402</cMunFG>', '<cMunFG>2927408</cMunFG>')
    .replace(/<cEAN\/>/g, '<cEAN>SEM GTIN</cEAN>')
    .replace(/<cEANTrib\/>/g, '<cEANTrib>SEM GTIN</cEANTrib>')
    .replace(/Id="NFe[0-9]{44}"/, `Id="NFe${key}"`)
    .replace(/<cNF>[0-9]+<\/cNF>/, `<cNF>${cNF}</cNF>`)
    .replace(/<serie>[0-9]+<\/serie>/, `<serie>${serie}</serie>`)
    .replace(/<nNF>[0-9]+<\/nNF>/, `<nNF>${spec.nNF}</nNF>`)
    .replace(/<dhEmi>[^<]+<\/dhEmi>/, `<dhEmi>${dhEmi}</dhEmi>`)
    .replace(/<tpEmis>9<\/tpEmis>/, `<tpEmis>${tpEmis}</tpEmis>`)
    .replace(/<cDV>[0-9]<\/cDV>/, `<cDV>${realKey[43]}</cDV>`)
    .replace(/<tpAmb>[12]<\/tpAmb>/, `<tpAmb>${tpAmb}</tpAmb>`)
    .replace(/<dhCont>[^<]+<\/dhCont>(<xJust>[^<]+<\/xJust>)/, (_all, xJust: string) => (tpEmis === 9 ? `<dhCont>${dhEmi}</dhCont>${xJust}` : ''))
    .replace(/<emit><CNPJ>[0-9]+<\/CNPJ>/, `<emit><CNPJ>${spec.cnpj}</CNPJ>`)
    // The sample's issuer city (2908402) is not in IBGE's table: Salvador, so that MOC C10-10/C10-20 (272/273) hold.
    .replace('<cMun>2908402</cMun><xMun>VARZEA GRANDE</xMun>', '<cMun>2927408</cMun><xMun>SALVADOR</xMun>')
    .replace(/<xProd>[^<]+<\/xProd>/, `<xProd>${spec.firstItem ?? (tpAmb === 2 ? HOMOLOGATION_ITEM : 'CILINDRO MESTRE')}</xProd>`);
  if (/\/>/.test(xml)) throw new Error('template still has empty-element tags');
  if (spec.edit) xml = spec.edit(xml);
  if (spec.csc !== null) {
    let qr = buildNfceQrCode({
      accessKey: key,
      tpAmb,
      tpEmis: tpEmis === 9 ? 9 : 1,
      version: spec.qrVersion ?? 2,
      uf: 'BA',
      csc: spec.csc ?? TEST_CSC,
      dhEmi,
      vNF: '150.00',
      // v2 offline hashes the digest of infNFe, which the QR code (in infNFeSupl) does not change.
      digestValue: tpEmis === 9 ? createHash('sha1').update(canonicalElement(xml, 'infNFe').canonical, 'utf8').digest('base64') : '',
      signingKey: issuer.signingKey,
      ...(spec.qrDest ? { dest: spec.qrDest } : {}),
    });
    if (spec.qr) qr = spec.qr(qr);
    const urlChave = 'http://hinternet.sefaz.ba.gov.br/nfce/consulta';
    xml = xml.replace('</infNFe>', `</infNFe><infNFeSupl><qrCode>${qr}</qrCode><urlChave>${urlChave}</urlChave></infNFeSupl>`);
  }
  return { xml: signElement(xml, 'infNFe', issuer.signingKey).xml, accessKey: key };
}

let counter = 0;
/** A CNPJ unique to this test run (valid check digits), so files sharing the database never collide. */
export function uniqueCnpj(): string {
  const base = String(Date.now() % 1e7).padStart(7, '0') + String(process.pid % 100).padStart(2, '0') + String(counter++ % 1000).padStart(3, '0');
  return base + cnpjCheckDigits(base);
}
