import { describe, expect, it } from 'vitest';
import { resolveSvcEndpoint, SVC_SERVICES, svcOfAccessKey, svcOfPath } from './svc-endpoints.js';

describe('the SVC endpoints (docs/fiscal/svc.md)', () => {
  it('name every service of both SVCs in both environments, SVC-AN at svc.fazenda.gov.br, SVC-RS at the SVRS hosts', () => {
    for (const svc of ['SVC-AN', 'SVC-RS'] as const)
      for (const tpAmb of [1, 2] as const)
        for (const service of SVC_SERVICES) {
          const e = resolveSvcEndpoint(svc, tpAmb, service);
          expect(e.url).toMatch(/^https:\/\//);
          expect(e.action).toBe(`${e.namespace}/${e.operation}`);
          expect(e.authorizer).toBe(svc);
        }
    expect(resolveSvcEndpoint('SVC-AN', 2, 'autorizacao').url).toBe('https://hom.svc.fazenda.gov.br/NFeAutorizacao4/NFeAutorizacao4.asmx');
    expect(resolveSvcEndpoint('SVC-AN', 1, 'recepcaoEvento').url).toBe('https://www.svc.fazenda.gov.br/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx');
    expect(resolveSvcEndpoint('SVC-RS', 1, 'consultaProtocolo').url).toBe('https://nfe.svrs.rs.gov.br/ws/NfeConsulta/NfeConsulta4.asmx');
  });

  it('put each SVC under its own path at the simulator, which reads it back', () => {
    const an = resolveSvcEndpoint('SVC-AN', 2, 'autorizacao', { baseUrl: 'https://sim:8443/' });
    expect(an.url).toBe('https://sim:8443/svc-an/NFeAutorizacao4');
    expect(svcOfPath(new URL(an.url).pathname)).toBe('SVC-AN');
    expect(svcOfPath('/svc-rs/NFeRetAutorizacao4')).toBe('SVC-RS');
    expect(svcOfPath('/NFeAutorizacao4')).toBeNull();
  });

  it('read the SVC of a note from its key: tpEmis at position 35', () => {
    expect(svcOfAccessKey('35261106157250000116550010000000076123456789')).toBe('SVC-AN');
    expect(svcOfAccessKey('29261106157250000116550010000000077123456789')).toBe('SVC-RS');
    expect(svcOfAccessKey('35261106157250000116550010000000071123456789')).toBeNull();
  });
});
