import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePfx } from '../../src/fiscal/certificate/pfx.js';
import type { Issuer, SigningKey } from '../../src/documents/goods/domain/issuer-context.js';
import type { NfceContext } from '../../src/documents/nfce/domain/build-nfce.js';
import type { Sale } from '../../src/documents/nfce/domain/sale.js';
import { PROJECT_ROOT } from '../../src/kernel/paths.js';
import { reformTablesInForce } from '../../src/fiscal/reform/reform-tables-in-force.js';

// Issuers, signing key and a ready sale for the NFC-e engine tests.

let key: SigningKey | undefined;
export function testSigningKey(): SigningKey {
  if (!key) {
    const pfx = readFileSync(join(PROJECT_ROOT, 'test/fixtures/certs/novo_test_certificate.pfx'));
    const parsed = parsePfx(pfx, 'nfephp');
    key = { privateKey: parsed.privateKey, certificateBase64: parsed.certificateBase64 };
  }
  return key;
}

export const NUMERIC_ISSUER: Issuer = {
  cnpj: '10422724000187',
  ie: '110042490114',
  razao_social: 'Padaria Pao Quente Ltda',
  nome_fantasia: 'Pao Quente',
  uf: 'SP',
  crt: 3,
  endereco: { logradouro: 'Rua das Flores', numero: '100', complemento: 'Loja 2', bairro: 'Centro', codigo_municipio: '3550308', municipio: 'São Paulo', cep: '01001000', telefone: '1133334444' },
};

/** SVRS homologation test CNPJ with letters (docs/fiscal/access-key.md#alphanumeric-cnpj). */
export const ALPHANUMERIC_ISSUER: Issuer = {
  cnpj: 'PC3D315K000193',
  ie: '0018001360',
  razao_social: 'Empresa Teste CNPJ Alfanumerico',
  uf: 'RS',
  crt: 1,
  endereco: { logradouro: 'Avenida Borges de Medeiros', numero: '1501', bairro: 'Praia de Belas', codigo_municipio: '4314902', municipio: 'Porto Alegre', cep: '90119900' },
};

export function testContext(issuer: Issuer, overrides: Partial<NfceContext> = {}): NfceContext {
  return {
    issuer,
    tpAmb: 2,
    serie: 1,
    nNF: 1234,
    emittedAt: new Date('2026-07-15T15:04:05Z'),
    taxReform: false,
    reformTables: reformTablesInForce(),
    signingKey: testSigningKey(),
    csc: { id: '000001', token: 'A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8' },
    ...overrides,
  };
}

export function simpleSale(overrides: Partial<Sale> = {}): Sale {
  return {
    issuer_id: 'iss_test',
    external_ref: 'order-1',
    items: [
      { description: 'Cafe torrado 500g', quantity: 2, unit_price: 18.9, ncm: '09012100', cfop: '5102', unit: 'UN', cst_icms: '00', pICMS: 18 },
      { description: 'Pão francês', quantity: 0.355, unit_price: 16.99, ncm: '19059090', cfop: '5102', unit: 'KG', cst_icms: '40' },
    ],
    payment: { method: 'dinheiro', amount: 50 },
    ...overrides,
  };
}
