import type { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentRejection } from '../src/authority-sim/nfe-rules.js';
import { nfeFacts } from '../src/authority-sim/nfe-facts.js';
import { buildNfce } from '../src/documents/nfce/domain/build-nfce.js';
import type { Issuer } from '../src/documents/goods/domain/issuer-context.js';
import { NUMERIC_ISSUER, simpleSale, testContext } from './support/nfce-fixtures.js';

// MOC 7.0 Anexo I, ZD01-10 (972) and ZD02-10 (973), in force in AM, MS, PE, PR, SC and TO
// (docs/fiscal/technical-responsible.md); the words are the MOC's. The note is built with infRespTec
// (the gateway refuses to build a PR one without it) and the group is then cut out or broken.
const PR: Issuer = {
  ...NUMERIC_ISSUER,
  uf: 'PR',
  ie: '9053527172',
  endereco: { logradouro: 'Rua XV de Novembro', numero: '100', bairro: 'Centro', codigo_municipio: '4106902', municipio: 'Curitiba', cep: '80020310' },
};
const respTec = { cnpj: '11222333000181', contato: 'Maria Souza', email: 'fiscal@softwarehouse.com.br', fone: '4133335555' };
const ctx = { now: new Date(), signer: {} as X509Certificate, digestValue: '', cscs: new Map() };

describe('the simulator plays ZD01-10 and ZD02-10 where they are in force', () => {
  const pr = buildNfce(simpleSale(), testContext(PR, { respTec })).xml;
  const without = pr.replace(/<infRespTec>.*<\/infRespTec>/, '');

  it('a PR NFC-e without infRespTec: 972 with the official message', () => {
    expect(pr).toContain('<infRespTec>');
    const r = contentRejection(nfeFacts(without), ctx);
    expect(r?.cStat).toBe(972);
    expect(r?.xMotivo).toBe('Rejeição: Obrigatória as informações do responsável técnico');
  });

  it('a PR NFC-e whose infRespTec CNPJ has wrong check digits: 973', () => {
    const r = contentRejection(nfeFacts(pr.replace('<CNPJ>11222333000181</CNPJ>', '<CNPJ>11222333000182</CNPJ>')), ctx);
    expect(r).toMatchObject({ cStat: 973, xMotivo: 'Rejeição: CNPJ do responsável técnico inválido' });
  });

  it('with the group, or in SP (rule not in force there), no 972/973', () => {
    expect([972, 973]).not.toContain(contentRejection(nfeFacts(pr), ctx)?.cStat);
    const sp = buildNfce(simpleSale(), testContext(NUMERIC_ISSUER)).xml;
    expect(sp).not.toContain('<infRespTec>');
    expect([972, 973]).not.toContain(contentRejection(nfeFacts(sp), ctx)?.cStat);
  });
});
