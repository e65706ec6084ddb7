import { beforeAll, describe, expect, it } from 'vitest';
import { issuerTestApp, type IssuerTestApp } from './issuers-harness.js';

let t: IssuerTestApp;
let auth: { authorization: string };
beforeAll(async () => {
  t = await issuerTestApp();
  ({ auth } = await t.newAccount());
});

const get = (url: string, headers: Record<string, string> = auth) => t.app.inject({ method: 'GET', url, headers });

describe('GET /v1/ufs', () => {
  it('lists the 27 states with their coverage', async () => {
    const res = await get('/v1/ufs');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toHaveLength(27);
    // docs/fiscal/states.md: SP authorizes both models itself, contingency SVC-AN, no infRespTec requirement.
    expect(data.find((u: { code: string }) => u.code === 'SP')).toEqual({
      code: 'SP', ibge_code: '35', name: 'São Paulo', status: 'supported',
      rules: { nfe_authorizer: 'SP', nfce_authorizer: 'SP', svc: 'SVC-AN', resp_tec_required: false, nfce_cancel_minutes: 30, nfe_cancel_hours: 24 },
    });
    expect(data.find((u: { code: string }) => u.code === 'PR').rules.resp_tec_required).toBe(true);
    expect(data.filter((u: { status: string }) => u.status === 'configured')).toEqual([]);
    expect((await get('/v1/ufs', {})).statusCode).toBe(401);
  });
});

describe('GET /v1/municipios', () => {
  it('searches by accent-insensitive name prefix within a state', async () => {
    const res = await get('/v1/municipios?uf=sp&q=SAO%20JOSE%20DOS%20C');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [{ ibge_code: '3549904', name: 'São José dos Campos', uf: 'SP', capital: false, timezone: 'America/Sao_Paulo' }],
      has_more: false,
    });
  });

  it('pages through all municipalities of a state with limit and starting_after', async () => {
    const first = (await get('/v1/municipios?uf=AC&limit=20')).json();
    expect(first.data).toHaveLength(20);
    expect(first.has_more).toBe(true);
    const second = (await get(`/v1/municipios?uf=AC&limit=20&starting_after=${first.data[19].ibge_code}`)).json();
    expect(second.has_more).toBe(false);
    const names = [...first.data, ...second.data].map((m: { name: string }) => m.name);
    expect(names).toHaveLength(22); // Acre has 22 municipalities
    expect(new Set(names).size).toBe(22);
    expect(names[0]).toBe('Acrelândia');
    expect((await get('/v1/municipios')).json().data).toHaveLength(20);
  });

  it('explains bad parameters', async () => {
    const bad = await get('/v1/municipios?uf=XX');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().details).toEqual([{ field: 'query.uf', message: 'XX is not a UF' }]);
    expect((await get('/v1/municipios?limit=0')).statusCode).toBe(422);
    expect((await get('/v1/municipios?limit=101')).statusCode).toBe(422);
    const cursor = await get('/v1/municipios?starting_after=1234567');
    expect(cursor.statusCode).toBe(422);
    expect(cursor.json().details[0].field).toBe('query.starting_after');
  });
});
