import { describe, expect, it } from 'vitest';
import { allUfs, resolveEndpoint, SEFAZ_SERVICES } from './endpoints.js';
import { duplicateReference } from './response-parsers.js';

describe('resolveEndpoint', () => {
  it('has all six services for the 27 UFs, both models and both environments, with WSDL namespace and action', () => {
    expect(allUfs()).toHaveLength(27);
    for (const uf of allUfs())
      for (const model of [55, 65] as const)
        for (const tpAmb of [1, 2] as const)
          for (const service of SEFAZ_SERVICES) {
            const e = resolveEndpoint(uf, model, tpAmb, service);
            expect(e.url).toMatch(/^https:\/\//);
            expect(e.action).toBe(`${e.namespace}/${e.operation}`);
          }
  });

  it('keeps the namespaces a UF publishes (SP NFC-e generic names; PR NFC-e events NFeRecepcaoEvento)', () => {
    expect(resolveEndpoint('SP', 65, 2, 'autorizacao').action).toBe(
      'http://www.portalfiscal.inf.br/nfe/wsdl/NFeAutorizacao4/nfeAutorizacaoLote',
    );
    expect(resolveEndpoint('41', 65, 1, 'recepcaoEvento').namespace).toBe('http://www.portalfiscal.inf.br/nfe/wsdl/NFeRecepcaoEvento');
    expect(resolveEndpoint('RS', 65, 2, 'consultaProtocolo', { baseUrl: 'https://127.0.0.1:9/' }).url).toBe(
      'https://127.0.0.1:9/NFeConsultaProtocolo4',
    );
  });

  it('reads the existing protocol out of a duplicate rejection', () => {
    expect(duplicateReference('Rejeição: Duplicidade de NF-e [nProt:129260000000001][dhAut:2026-01-01T10:00:00-03:00]')).toMatchObject({
      nProt: '129260000000001',
      dhAut: '2026-01-01T10:00:00-03:00',
    });
  });
});
