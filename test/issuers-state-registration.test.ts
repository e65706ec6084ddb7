import { beforeAll, describe, expect, it } from 'vitest';
import { issuerTestApp, VALID_ISSUER, type IssuerTestApp } from './issuers-harness.js';

// MOC C17-20 (209): the issuer's IE is checked against its state's algorithm when it is stored
// (docs/fiscal/state-registration.md), not when SEFAZ rejects the first note.

let t: IssuerTestApp;
let auth: { authorization: string };

beforeAll(async () => {
  t = await issuerTestApp();
  ({ auth } = await t.newAccount());
});

const PR_ADDRESS = { ...VALID_ISSUER.endereco, codigo_municipio: '4106902', cep: '80010-000' };
const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/issuers', headers: auth, payload });

describe('issuer IE check digits', () => {
  it('refuses PR 9022433051 (the check digits are 56) with 422 naming ie and the rule', async () => {
    const res = await post({ ...VALID_ISSUER, uf: 'PR', ie: '9022433051', endereco: PR_ADDRESS });
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'ie', rule: 'C17-20', message: expect.stringMatching(/wrong check digit for PR.*209/) }]);
  });

  it('accepts PR 9022433056, and refuses a PATCH to a wrong one', async () => {
    const res = await post({ ...VALID_ISSUER, cnpj: '11444777000161', uf: 'PR', ie: '902.24330-56', endereco: PR_ADDRESS });
    expect(res.statusCode).toBe(201);
    expect(res.json().ie).toBe('9022433056');
    const patch = await t.app.inject({ method: 'PATCH', url: `/v1/issuers/${res.json().id}`, headers: auth, payload: { ie: '9022433051' } });
    expect(patch.statusCode).toBe(422);
    expect(patch.json().details).toMatchObject([{ field: 'ie', rule: 'C17-20' }]);
  });
});
