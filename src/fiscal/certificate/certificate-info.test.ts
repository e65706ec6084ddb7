import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { generateNamedTestPfx } from '../../../test/support/generate-certificate.js';
import { certificateInfo } from './certificate-info.js';
import { parsePfx } from './pfx.js';

const { Type } = forge.asn1;
const NAMES = [
  { shortName: 'C', value: 'BR' },
  { shortName: 'ST', value: 'São Paulo', valueTagClass: Type.UTF8 },
  { shortName: 'L', value: 'Jundiaí', valueTagClass: Type.BMPSTRING },
  { shortName: 'O', value: 'Padaria Conceição, Irmãos & Cia', valueTagClass: Type.UTF8 },
  { shortName: 'CN', value: 'PADARIA CONCEIÇÃO LTDA:06157250000116', valueTagClass: Type.UTF8 },
];
const SUBJECT = 'C=BR, ST=São Paulo, L=Jundiaí, O=Padaria Conceição\\, Irmãos & Cia, CN=PADARIA CONCEIÇÃO LTDA:06157250000116';

describe('certificate names', () => {
  const pfx = generateNamedTestPfx(NAMES, 'senha');

  it('reads UTF8String and BMPString (UTF-16BE) values as text, escaping the separator', () => {
    const parsed = parsePfx(pfx, 'senha');
    expect(parsed.subject).toBe(SUBJECT);
    expect(parsed.issuer).toBe(SUBJECT);
    expect(parsed.commonName).toBe('PADARIA CONCEIÇÃO LTDA:06157250000116');
    expect(parsed.cnpj).toBe('06157250000116');
    expect(certificateInfo(parsed.certificateDer).subject).toBe(SUBJECT);
  });

  it('reads a name encoded to UTF-8 twice as its text: the sped-nfe test file stores "SÃ£o Paulo", answered São Paulo', () => {
    const file = readFileSync(resolve(import.meta.dirname, '../../../test/fixtures/certs/novo_cert_cnpj_06157250000116_senha_minhasenha.pfx'));
    const der = parsePfx(file, 'minhasenha').certificateDer;
    // The stateOrProvinceName UTF8String holds C3 83 C2 A3 where "ã" is C3 A3.
    expect(der.includes(Buffer.from('SÃ£o Paulo', 'utf8'))).toBe(true);
    expect(certificateInfo(der).subject).toContain('ST=São Paulo');
    expect(certificateInfo(der).subject).not.toContain('Ã');
  });
});
