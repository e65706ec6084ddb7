import { describe, expect, it } from 'vitest';
import { foldName, municipioByCode, searchMunicipios, UnknownCursorError } from './municipio-catalog.js';
import { listUfs, ufByCode } from './uf-catalog.js';

describe('UF catalog', () => {
  it('lists the 27 states with IBGE codes; SP supported, the rest configured', () => {
    const ufs = listUfs();
    expect(ufs).toHaveLength(27);
    expect(ufByCode('sp')).toMatchObject({ code: 'SP', ibge_code: '35', name: 'São Paulo', status: 'supported' });
    expect(ufByCode('PR')?.rules).toMatchObject({ nfe_authorizer: 'PR', svc: 'SVC-RS', resp_tec_required: true });
    // Every state has its data and an end-to-end test (test/state-coverage.test.ts): all 27 supported.
    expect(ufs.filter((u) => u.status === 'supported')).toHaveLength(27);
    expect(ufByCode('DF')?.ibge_code).toBe('53');
  });
});

describe('municipio catalog', () => {
  it('holds every municipality with a 7-digit code', () => {
    const all = searchMunicipios({ limit: 10_000 });
    expect(all.data).toHaveLength(5571);
    expect(all.has_more).toBe(false);
    expect(all.data.every((m) => /^\d{7}$/.test(m.ibge_code))).toBe(true);
    expect(new Set(all.data.map((m) => m.ibge_code)).size).toBe(5571);
  });

  it('finds a municipality by code with its UF', () => {
    expect(municipioByCode('3550308')).toMatchObject({ name: 'São Paulo', uf: 'SP', capital: true });
    expect(municipioByCode('5300108')).toMatchObject({ name: 'Brasília', uf: 'DF' });
    expect(municipioByCode('3550309')).toBeUndefined();
  });

  it('matches a name prefix ignoring accents, case and punctuation', () => {
    expect(foldName("Embu-Guaçu")).toBe('embu guacu');
    const names = (q: string, uf?: string) => searchMunicipios({ q, uf, limit: 100 }).data.map((m) => m.name);
    expect(names('SAO PAULO')).toEqual(expect.arrayContaining(['São Paulo', 'São Paulo das Missões', 'São Paulo de Olivença']));
    expect(names('sao paulo', 'sp')).toEqual(['São Paulo']);
    expect(names('embu guacu')).toEqual(['Embu-Guaçu']);
    expect(names("aparecida d'o")).toEqual(["Aparecida d'Oeste"]);
    expect(names('paulo')).not.toContain('São Paulo');
    expect(names('zzzz')).toEqual([]);
    expect(names('bras', 'DF')).toEqual(['Brasília']);
  });

  it('pages with starting_after without gaps or repeats', () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = searchMunicipios({ uf: 'RJ', limit: 7, startingAfter: after });
      seen.push(...page.data.map((m) => m.ibge_code));
      if (!page.has_more) break;
      expect(page.data).toHaveLength(7);
      after = page.data.at(-1)!.ibge_code;
    }
    const rj = searchMunicipios({ uf: 'RJ', limit: 1000 }).data.map((m) => m.ibge_code);
    expect(seen).toEqual(rj);
    expect(rj).toHaveLength(92);
    expect(() => searchMunicipios({ limit: 1, startingAfter: '9999999' })).toThrow(UnknownCursorError);
  });

  it('answers a search fast once loaded', () => {
    searchMunicipios({ limit: 1 });
    // CPU time of this process, not wall time: other work on the machine does not count.
    const t0 = process.cpuUsage();
    for (let i = 0; i < 1000; i++) searchMunicipios({ q: 'sao', limit: 20 });
    const used = process.cpuUsage(t0);
    expect((used.user + used.system) / 1000).toBeLessThan(200);
  });
});
