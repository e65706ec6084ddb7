import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listStates } from '../src/fiscal/states/states.js';
import { ufCode } from '../src/fiscal/sefaz/endpoints.js';
import { createTestApp, type TestApp } from './support/app.js';
import { SP_ISSUER, emitSettled, readyIssuer, sale, waitForStatus } from './support/nfce-flow.js';

// Every state the data marks `endToEnd` (fiscal/states/states.ts) plays a sale -> authorized ->
// cancelled through the simulator with its own rules (QR base URL, infRespTec where MOC ZD01-10 is in
// force, cancellation window): GET /v1/ufs calls a state `supported` only with this test behind it.
//
// Per state: the capital's IBGE code (assets/fiscal/ibge/municipios.csv, capital = 1), the first CEP of
// the capital's range (Correios), and a state registration with the check digits of the state's
// SINTEGRA algorithm: the first valid IE of each state in erpbrasil.base's tests/test_base_validate_ie.py,
// which checks them against those algorithms (PR 4100161414 and SP 692015742119 recomputed by hand:
// PR mod 11 with weights 3,2,7,6,5,4,3,2 -> 1, then 4,3,2,7,6,5,4,3,2 -> 4; SP weights 1,3,4,5,6,7,8,10
// -> 2, then 3,2,10,9,8,7,6,5,4,3,2 -> 9).
const PLACES: Record<string, { city: string; cep: string; ie: string; phone: string }> = Object.fromEntries(
  ([
    ['AC', '1200401', '69900000', '0102190200165', '6833334444'],
    ['AL', '2704302', '57000000', '241065550', '8233334444'],
    ['AM', '1302603', '69000000', '042933684', '9233334444'],
    ['AP', '1600303', '68900000', '030380340', '9633334444'],
    ['BA', '2927408', '40000000', '41902653', '7133334444'],
    ['CE', '2304400', '60000000', '063873770', '8533334444'],
    ['DF', '5300108', '70000000', '0732709900174', '6133334444'],
    ['ES', '3205309', '29000000', '082376123', '2733334444'],
    ['GO', '5208707', '74000000', '103450599', '6233334444'],
    ['MA', '2111300', '65000000', '121498298', '9833334444'],
    ['MG', '3106200', '30000000', '2615950220092', '3133334444'],
    ['MS', '5002704', '79000000', '283370645', '6733334444'],
    ['MT', '5103403', '78000000', '00133337413', '6533334444'],
    ['PA', '1501402', '66000000', '151925941', '9133334444'],
    ['PB', '2507507', '58000000', '161435947', '8333334444'],
    ['PE', '2611606', '50000000', '027693368', '8133334444'],
    ['PI', '2211001', '64000000', '169609154', '8633334444'],
    ['PR', '4106902', '80000000', '4100161414', '4133334444'],
    ['RJ', '3304557', '20000000', '78890169', '2133334444'],
    ['RN', '2408102', '59000000', '200887890', '8433334444'],
    ['RO', '1100205', '76800000', '00000001656554', '6933334444'],
    ['RR', '1400100', '69300000', '240151303', '9533334444'],
    ['RS', '4314902', '90000000', '0240130111', '5133334444'],
    ['SC', '4205407', '88000000', '255830696', '4833334444'],
    ['SE', '2800308', '49000000', '271126973', '7933334444'],
    ['SP', '3550308', '01000000', '692015742119', '1133334444'],
    ['TO', '1721000', '77000000', '290021014', '6333334444'],
  ] as const).map(([uf, city, cep, ie, phone]) => [uf, { city, cep, ie, phone }]),
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ role: 'all' });
});
afterAll(async () => t?.runtime.close());

describe('every state marked end to end: sale -> authorized -> cancelled through the simulator', () => {
  const states = listStates().filter((s) => s.endToEnd);

  it('GET /v1/ufs answers the 27 states, each supported or saying what is missing', async () => {
    const { auth } = await t.newAccount();
    const ufs = (await t.app.inject({ method: 'GET', url: '/v1/ufs', headers: auth })).json().data as Array<{ code: string; status: string; missing?: string[] }>;
    expect(ufs).toHaveLength(27);
    for (const u of ufs) {
      if (u.status === 'supported') expect(u.missing, u.code).toBeUndefined();
      else expect(u.missing?.length, u.code).toBeGreaterThan(0);
    }
    expect(ufs.filter((u) => u.status === 'supported').map((u) => u.code)).toEqual(states.map((s) => s.uf));
  });

  it.each(states.map((s) => [s.uf, s.respTecRequired] as const))('%s', async (uf, respTecRequired) => {
    const { auth } = await t.newAccount();
    const place = PLACES[uf]!;
    const issuerId = await readyIssuer(t, auth, {
      ...SP_ISSUER,
      uf,
      ie: place.ie,
      endereco: { ...SP_ISSUER.endereco, codigo_municipio: place.city, cep: place.cep, telefone: place.phone },
    });
    if (respTecRequired) {
      // MOC ZD01-10: refused first without the technical responsible, authorized with it.
      const refused = await t.app.inject({ method: 'POST', url: '/v1/nfce', headers: auth, payload: sale(issuerId) });
      expect(refused.json().details?.[0], refused.body).toMatchObject({ field: 'technical_responsible', rule: 'ZD01-10' });
      const set = await t.app.inject({
        method: 'PUT', url: '/v1/account/technical-responsible', headers: auth,
        payload: { cnpj: '11222333000181', contact: 'Maria Souza', email: 'fiscal@softwarehouse.com.br', phone: place.phone },
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    const { note } = await emitSettled(t, auth, sale(issuerId));
    expect(note.status, JSON.stringify(note.rejection ?? note)).toBe('authorized');
    // The key's cUF is the state's IBGE code (MOC B02), so the simulator judged it as that state's note.
    expect(note.access_key.slice(0, 2)).toBe(ufCode(uf));
    const cancel = await t.app.inject({ method: 'POST', url: `/v1/nfce/${note.id}/cancel`, headers: auth, payload: { reason: 'Cliente desistiu da compra no caixa' } });
    expect([200, 202], cancel.body).toContain(cancel.statusCode);
    if (cancel.json().status !== 'canceled') await waitForStatus(t, auth, note.id, 'canceled');
  }, 60_000);
});
