import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePfx } from './pfx.js';
import { signingProfile } from './signing-profile.js';

const certs = new URL('../../../test/fixtures/certs/', import.meta.url);
const x509Of = (file: string, password: string) => new X509Certificate(parsePfx(readFileSync(new URL(file, certs)), password).certificateDer);

// The expected facts are what `openssl x509 -text` prints for each file (test/fixtures/certs/README.md).
describe('signingProfile (MOC E01: version 3, digitalSignature + nonRepudiation)', () => {
  it('the example e-CNPJ: version 3, Digital Signature, Non Repudiation, Key Encipherment', () => {
    expect(signingProfile(x509Of('novo_cert_cnpj_06157250000116_senha_minhasenha.pfx', 'minhasenha'))).toEqual({ version: 3, keyUsage: { digitalSignature: true, nonRepudiation: true } });
  });
  it('the nfephp test certificate: version 1, no extensions', () => {
    expect(signingProfile(x509Of('novo_test_certificate.pfx', 'nfephp'))).toEqual({ version: 1, keyUsage: null });
  });
});
