import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FISCAL_ASSETS_DIR } from '../../kernel/paths.js';
import { resolveEndpoint } from '../sefaz/endpoints.js';
import { listStates, respTecRequired } from './states.js';

describe('states as data', () => {
  it('has the 27 states, and its authorizers agree with the endpoint table and autorizadores.json', () => {
    const states = listStates();
    expect(states).toHaveLength(27);
    const published = JSON.parse(readFileSync(join(FISCAL_ASSETS_DIR, 'webservices', 'autorizadores.json'), 'utf8')) as Record<'55' | '65', Record<string, string>>;
    for (const s of states) {
      expect(resolveEndpoint(s.uf, 55, 2, 'autorizacao').authorizer, s.uf).toBe(s.nfeAuthorizer);
      expect(resolveEndpoint(s.uf, 65, 2, 'autorizacao').authorizer, s.uf).toBe(s.nfceAuthorizer);
      expect(published['55'][s.uf], s.uf).toBe(s.nfeAuthorizer);
      expect(published['65'][s.uf], s.uf).toBe(s.nfceAuthorizer);
    }
  });

  it('MOC ZD01-10 observation: infRespTec in force in AM, MS, PE, PR, SC and TO only', () => {
    expect(listStates().filter((s) => s.respTecRequired).map((s) => s.uf)).toEqual(['AM', 'MS', 'PE', 'PR', 'SC', 'TO']);
    expect(respTecRequired('pr')).toBe(true);
    expect(respTecRequired('SP')).toBe(false);
  });

  it('SVC-RS for AM, BA, GO, MA, MS, MT, PE, PR; SVC-AN elsewhere (sped-nfe Contingency.php)', () => {
    expect(listStates().filter((s) => s.svc === 'SVC-RS').map((s) => s.uf)).toEqual(['AM', 'BA', 'GO', 'MA', 'MS', 'MT', 'PE', 'PR']);
  });
});
